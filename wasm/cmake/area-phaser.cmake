# Phaser area: the phaser library (wasm/include/pipelab/phaser: phasers, registration modes,
# accumulators, bounded streams, the task scheduler, cycle detection), the phaser runtime's tests
# (native, TSan, wasm under Node).
set(PIPELAB_PHASER_TESTS ${PIPELAB_ROOT}/tests/native/phaser)
pipelab_add_test_suite(phaser_tests
  ${PIPELAB_PHASER_TESTS}/phaser_test.cpp
  ${PIPELAB_PHASER_TESTS}/stream_test.cpp
  ${PIPELAB_PHASER_TESTS}/scheduler_test.cpp
  ${PIPELAB_PHASER_TESTS}/phaser_runtime_test.cpp)

# Phaser benchmark (bench/phasers, npm run bench:phasers): optimised builds only. In wasm a Node
# program on pthreads, like the barrier benchmark.
if(NOT PIPELAB_TSAN)
  add_executable(bench_phasers ${PIPELAB_ROOT}/bench/phasers/bench_phasers.cpp)
  target_link_libraries(bench_phasers PRIVATE pipelab_core Threads::Threads)
  target_compile_options(bench_phasers PRIVATE -O2 -DNDEBUG)
  set_target_properties(bench_phasers PROPERTIES EXCLUDE_FROM_ALL ON)
  if(EMSCRIPTEN)
    target_link_options(bench_phasers PRIVATE -O2 -sPROXY_TO_PTHREAD=1 -sEXIT_RUNTIME=1
      -sENVIRONMENT=node "-sPTHREAD_POOL_SIZE=require('os').cpus().length+4"
      -sINITIAL_MEMORY=128MB -sALLOW_MEMORY_GROWTH=0 -sDEFAULT_PTHREAD_STACK_SIZE=256KB
      --pre-js ${PIPELAB_ROOT}/wasm/src/node_pre.js)
    set_target_properties(bench_phasers PROPERTIES SUFFIX ".js")
  endif()
endif()
