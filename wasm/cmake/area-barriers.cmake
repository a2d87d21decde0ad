# Barriers area (thread packing): the spinning and blocking barriers (wasm/include/pipelab/sync)
# and their test suite, built for every target (native, TSan, wasm under Node) like every other
# suite.
pipelab_add_test_suite(sync_tests ${PIPELAB_ROOT}/tests/native/sync/barrier_test.cpp
  ${PIPELAB_ROOT}/tests/native/sync/futex_test.cpp)
pipelab_add_test_suite(barrier_runtime_tests
  ${PIPELAB_ROOT}/tests/native/pipeline/barrier_runtime_test.cpp)

# Barrier benchmark (bench/barriers, npm run bench:barriers): optimised builds only. Natively in
# C++20 for std::barrier, the peer; in wasm a Node program on pthreads (C++17: no std::barrier).
pipelab_add_bench_program(bench_barriers ${PIPELAB_ROOT}/bench/barriers/bench_barriers.cpp 64MB)
if(TARGET bench_barriers AND NOT EMSCRIPTEN)
  set_target_properties(bench_barriers PROPERTIES CXX_STANDARD 20)
endif()
