# Core area: the layout helpers every structure shares (wasm/include/pipelab/cacheline.hpp).
pipelab_add_test_suite(core_tests ${PIPELAB_ROOT}/tests/native/core/cacheline_test.cpp)
