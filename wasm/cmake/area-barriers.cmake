# Barriers area (thread packing): the spinning and blocking barriers (wasm/include/pipelab/sync)
# and their test suite, built for every target (native, TSan, wasm under Node) like every other
# suite.
pipelab_add_test_suite(sync_tests ${PIPELAB_ROOT}/tests/native/sync/barrier_test.cpp)
pipelab_add_test_suite(barrier_runtime_tests
  ${PIPELAB_ROOT}/tests/native/pipeline/barrier_runtime_test.cpp)

# Barrier benchmark (bench/barriers, npm run bench:barriers): optimised builds only. Natively in
# C++20 for std::barrier, the peer; in wasm a Node program on pthreads (C++17: no std::barrier).
if(NOT PIPELAB_TSAN)
  add_executable(bench_barriers ${PIPELAB_ROOT}/bench/barriers/bench_barriers.cpp)
  target_link_libraries(bench_barriers PRIVATE pipelab_core Threads::Threads)
  target_compile_options(bench_barriers PRIVATE -O2 -DNDEBUG)
  set_target_properties(bench_barriers PROPERTIES EXCLUDE_FROM_ALL ON)
  if(EMSCRIPTEN)
    target_link_options(bench_barriers PRIVATE -O2 -sPROXY_TO_PTHREAD=1 -sEXIT_RUNTIME=1
      -sENVIRONMENT=node "-sPTHREAD_POOL_SIZE=require('os').cpus().length+2"
      -sINITIAL_MEMORY=64MB -sALLOW_MEMORY_GROWTH=0 -sDEFAULT_PTHREAD_STACK_SIZE=256KB
      --pre-js ${PIPELAB_ROOT}/wasm/src/node_pre.js)
    set_target_properties(bench_barriers PROPERTIES SUFFIX ".js")
  else()
    set_target_properties(bench_barriers PROPERTIES CXX_STANDARD 20)
  endif()
endif()
