# Pipeline area: spec parsing, telemetry, work-stealing scheduler, workloads and the pipeline
# runtimes (wasm/include/pipelab/{pipeline,sched,workload,telemetry}); their test suites, the
# telemetry layout module for the TypeScript contract test, and the bench CLI.
set(PIPELAB_PIPELINE_TESTS ${PIPELAB_ROOT}/tests/native)
pipelab_add_test_suite(pipeline_spec_tests ${PIPELAB_PIPELINE_TESTS}/pipeline/spec_test.cpp)
pipelab_add_test_suite(telemetry_tests ${PIPELAB_PIPELINE_TESTS}/telemetry/ring_test.cpp)
pipelab_add_test_suite(sched_tests ${PIPELAB_PIPELINE_TESTS}/sched/chase_lev_deque_test.cpp)
pipelab_add_test_suite(workload_tests ${PIPELAB_PIPELINE_TESTS}/workload/busy_work_test.cpp
  ${PIPELAB_PIPELINE_TESTS}/workload/kernels_test.cpp)
pipelab_add_test_suite(pipeline_runtime_tests
  ${PIPELAB_PIPELINE_TESTS}/pipeline/gold_test.cpp
  ${PIPELAB_PIPELINE_TESTS}/pipeline/cancel_test.cpp)
