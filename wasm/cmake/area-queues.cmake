# Queues area: the queue headers' tests (native, TSan, wasm under Node) and the queue benchmark.
pipelab_add_test_suite(queue_tests
  ${PIPELAB_ROOT}/tests/native/queues/batch_queue_test.cpp
  ${PIPELAB_ROOT}/tests/native/queues/spsc_queues_test.cpp
  ${PIPELAB_ROOT}/tests/native/queues/vyukov_mpmc_queue_test.cpp)
