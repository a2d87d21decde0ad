# Barriers area (thread packing): the spinning and blocking barriers (wasm/include/pipelab/sync)
# and their test suite, built for every target (native, TSan, wasm under Node) like every other
# suite.
pipelab_add_test_suite(sync_tests ${PIPELAB_ROOT}/tests/native/sync/barrier_test.cpp)
pipelab_add_test_suite(barrier_runtime_tests
  ${PIPELAB_ROOT}/tests/native/pipeline/barrier_runtime_test.cpp)
