# Lock-free verification (tests only): the Chase-Lev deque's owner/thief races run on purpose
# through test hooks, in both fence styles (pipelab/sync.hpp).
set(PIPELAB_LOCKFREE_TESTS ${PIPELAB_ROOT}/tests/native)
pipelab_add_test_suite(lockfree_stress_tests
  ${PIPELAB_LOCKFREE_TESTS}/sched/chase_lev_race_test.cpp)
