# Phaser area: the phaser library (wasm/include/pipelab/phaser: phasers, registration modes,
# accumulators, bounded streams, the task scheduler, cycle detection), the phaser runtime's tests
# (native, TSan, wasm under Node).
set(PIPELAB_PHASER_TESTS ${PIPELAB_ROOT}/tests/native/phaser)
pipelab_add_test_suite(phaser_tests
  ${PIPELAB_PHASER_TESTS}/phaser_test.cpp
  ${PIPELAB_PHASER_TESTS}/stream_test.cpp
  ${PIPELAB_PHASER_TESTS}/scheduler_test.cpp
  ${PIPELAB_PHASER_TESTS}/phaser_runtime_test.cpp)

# Phaser benchmark (bench/phasers, npm run bench:phasers).
pipelab_add_bench_program(bench_phasers ${PIPELAB_ROOT}/bench/phasers/bench_phasers.cpp 128MB)
