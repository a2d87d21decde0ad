# Race area: the lesson "Queues and cache lines" on real threads — the queue race
# (wasm/include/pipelab/race/), the L1-sized matrix work between items, and the BatchQueue index
# telemetry of a static pipeline; one suite, native, under TSan and in wasm under Node.
pipelab_add_test_suite(queue_race_tests
  ${PIPELAB_ROOT}/tests/native/race/queue_race_test.cpp
  ${PIPELAB_ROOT}/tests/native/race/batch_indices_test.cpp)
