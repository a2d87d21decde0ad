# Pipeline area: spec parsing, telemetry, work-stealing scheduler, workloads and the pipeline
# runtimes (wasm/include/pipelab/{pipeline,sched,workload,telemetry}); their test suites, the
# telemetry layout module for the TypeScript contract test, and the bench CLI.
set(PIPELAB_PIPELINE_TESTS ${PIPELAB_ROOT}/tests/native)
# The C++ spec reader and each kind's registry row; its fuzzer runs every spec it accepts on real
# threads, so it runs under TSan too.
pipelab_add_test_suite(pipeline_spec_tests ${PIPELAB_PIPELINE_TESTS}/pipeline/spec_test.cpp
  ${PIPELAB_PIPELINE_TESTS}/pipeline/spec_fuzz_test.cpp)
pipelab_add_test_suite(telemetry_tests ${PIPELAB_PIPELINE_TESTS}/telemetry/ring_test.cpp
  ${PIPELAB_PIPELINE_TESTS}/telemetry/timeline_test.cpp)
pipelab_add_test_suite(sched_tests ${PIPELAB_PIPELINE_TESTS}/sched/chase_lev_deque_test.cpp
  ${PIPELAB_PIPELINE_TESTS}/sched/backoff_test.cpp)
pipelab_add_test_suite(workload_tests ${PIPELAB_PIPELINE_TESTS}/workload/busy_work_test.cpp
  ${PIPELAB_PIPELINE_TESTS}/workload/kernels_test.cpp)
pipelab_add_test_suite(pipeline_runtime_tests
  ${PIPELAB_PIPELINE_TESTS}/pipeline/gold_test.cpp
  ${PIPELAB_PIPELINE_TESTS}/pipeline/cancel_test.cpp
  ${PIPELAB_PIPELINE_TESTS}/pipeline/pause_test.cpp)
# The balancing lesson's shapes: dedup's emitting and bypassed stages, oversubscribed runs.
pipelab_add_test_suite(pipeline_balancing_tests
  ${PIPELAB_PIPELINE_TESTS}/pipeline/balancing_test.cpp)
pipelab_add_test_suite(pipeline_two_stage_io_tests
  ${PIPELAB_PIPELINE_TESTS}/pipeline/two_stage_io_test.cpp)

if(EMSCRIPTEN)
  # Telemetry contract module for tests/wasm/telemetry-layout.test.ts (Node, pthreads).
  set(PIPELAB_TL_EXPORTS "_pl_tl_ring_create,_pl_tl_ring_push,_pl_tl_writer_start,\
_pl_tl_writer_done,_pl_tl_writer_join,_pl_tl_counters_create,_pl_tl_pipeline_start,\
_pl_tl_pipeline_finished,_pl_tl_pipeline_join,_pl_tl_pipeline_ring,_pl_tl_pipeline_counters,\
_pl_tl_batch_arg,_pl_tl_kind_name")
  add_executable(pipelab-telemetry-layout ${PIPELAB_ROOT}/wasm/src/test_telemetry_layout.cpp)
  target_link_libraries(pipelab-telemetry-layout PRIVATE pipelab_core)
  target_compile_options(pipelab-telemetry-layout PRIVATE -pthread)
  target_link_options(pipelab-telemetry-layout PRIVATE -pthread -sMODULARIZE=1
    -sEXPORT_NAME=createTelemetryLayout -sENVIRONMENT=node -sINITIAL_MEMORY=64MB
    -sALLOW_MEMORY_GROWTH=0 -sPTHREAD_POOL_SIZE=4 -sDEFAULT_PTHREAD_STACK_SIZE=262144
    "-sEXPORTED_FUNCTIONS=${PIPELAB_TL_EXPORTS}" -sEXPORTED_RUNTIME_METHODS=UTF8ToString
    --pre-js ${PIPELAB_ROOT}/wasm/src/node_pre.js)
  set_target_properties(pipelab-telemetry-layout PROPERTIES SUFFIX ".js"
    RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/node
    LINK_DEPENDS ${PIPELAB_ROOT}/wasm/src/node_pre.js)
endif()

# Pipeline benchmark CLI (bench/pipelines/run.mjs turns it on): native with oneTBB, its peer, and
# Node and page programs on pthreads under Emscripten (no oneTBB there).
option(PIPELAB_PIPELINE_BENCH "Build the pipeline benchmark CLI" OFF)
if(PIPELAB_PIPELINE_BENCH)
  # Under Emscripten, the same program twice: for Node, and for a page (bench/lib/page runs it in
  # headless Chromium, where the clock telemetry pays for is performance.now: wasm/src/clock.js).
  set(pipeline_bench_targets pipeline_bench)
  if(EMSCRIPTEN)
    list(APPEND pipeline_bench_targets pipeline_bench_web)
  endif()
  foreach(target ${pipeline_bench_targets})
    add_executable(${target} ${PIPELAB_ROOT}/bench/pipelines/pipeline_bench.cpp)
    target_link_libraries(${target} PRIVATE pipelab_core Threads::Threads)
    target_compile_options(${target} PRIVATE -O2 -DNDEBUG)
  endforeach()
  if(EMSCRIPTEN)
    set(bench_flags -O2 -sPROXY_TO_PTHREAD=1 -sEXIT_RUNTIME=1 -sPTHREAD_POOL_SIZE=8
      -sINITIAL_MEMORY=256MB -sALLOW_MEMORY_GROWTH=0 -sDEFAULT_PTHREAD_STACK_SIZE=1MB)
    target_link_options(pipeline_bench PRIVATE ${bench_flags} -sENVIRONMENT=node
      --pre-js ${PIPELAB_ROOT}/wasm/src/node_pre.js)
    target_link_options(pipeline_bench_web PRIVATE ${bench_flags} -sENVIRONMENT=web,worker)
    set_target_properties(${pipeline_bench_targets} PROPERTIES SUFFIX ".js")
  else()
    # A native report without its peer would compare with nothing: no oneTBB, no build.
    find_package(TBB QUIET)
    if(NOT TARGET TBB::tbb)
      message(FATAL_ERROR "The pipeline benchmark needs oneTBB, its peer (Debian package "
        "libtbb-dev); `npm run bench:pipelines` installs it on Debian as root.")
    endif()
    target_sources(pipeline_bench PRIVATE ${PIPELAB_ROOT}/bench/pipelines/onetbb_pipeline.cpp)
    target_link_libraries(pipeline_bench PRIVATE TBB::tbb)
    target_compile_definitions(pipeline_bench PRIVATE PIPELAB_BENCH_ONETBB=1)
  endif()
  # The one-thread cost probe behind bench/README.md's analysis of the wasm gaps.
  pipelab_add_bench_program(overhead_probe ${PIPELAB_ROOT}/bench/pipelines/overhead_probe.cpp 256MB)
endif()
