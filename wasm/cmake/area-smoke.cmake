pipelab_add_test_suite(smoke_tests ${PIPELAB_ROOT}/tests/native/smoke/threads_smoke_test.cpp)
