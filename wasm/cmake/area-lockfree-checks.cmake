# Lock-free verification (tests only): the model checker over the Chase-Lev deque's real code in
# both fence styles (native only: its threads are ucontext coroutines; no TSan, no wasm), the
# deque's owner/thief races run on purpose through test hooks, randomized-yield stress of the
# deque and the SPSC queues, and the work-stealing runtime's tokens counted from outside it.
# PIPELAB_STRESS=long lengthens the stress and model runs (tests/native/support/stress.hpp).
set(PIPELAB_LOCKFREE_TESTS ${PIPELAB_ROOT}/tests/native)
if(NOT EMSCRIPTEN AND NOT PIPELAB_TSAN)
  pipelab_add_test_suite(lockfree_model_tests
    ${PIPELAB_LOCKFREE_TESTS}/sched/chase_lev_model_test.cpp)
endif()
pipelab_add_test_suite(lockfree_stress_tests
  ${PIPELAB_LOCKFREE_TESTS}/sched/chase_lev_race_test.cpp
  ${PIPELAB_LOCKFREE_TESTS}/sched/chase_lev_stress_test.cpp
  ${PIPELAB_LOCKFREE_TESTS}/queues/spsc_yield_stress_test.cpp)
pipelab_add_test_suite(pipeline_tokens_tests
  ${PIPELAB_LOCKFREE_TESTS}/pipeline/tokens_observer_test.cpp)
