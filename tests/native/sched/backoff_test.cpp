// Backoff's steps (sched/backoff.hpp): re-checks, then yields, then sleeps that double from 4 us
// up to kMaxSleepUs, taken by the caller's sleep when it gives one (the work-stealing worker sleeps
// where a hand-over can wake it); reset() starts over.
#include "pipelab/sched/backoff.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace pipelab::sched {
namespace {

std::vector<std::uint32_t> sleeps_over(Backoff& b, int pauses) {
  std::vector<std::uint32_t> asked;
  for (int i = 0; i < pauses; ++i) b.pause([&](std::uint32_t us) { asked.push_back(us); });
  return asked;
}

TEST(Backoff, SleepsOnlyAfterSpinsAndYieldsThenDoublesUpToTheCap) {
  Backoff b;
  EXPECT_TRUE(sleeps_over(b, 95).empty());
  EXPECT_FALSE(b.sleeping());
  const std::vector<std::uint32_t> want{
      4, 8, 16, 32, 64, 128, Backoff::kMaxSleepUs, Backoff::kMaxSleepUs};
  EXPECT_EQ(sleeps_over(b, 8), want);
  EXPECT_TRUE(b.sleeping());
  b.reset();
  EXPECT_FALSE(b.sleeping());
  EXPECT_TRUE(sleeps_over(b, 95).empty());
  EXPECT_EQ(sleeps_over(b, 1), std::vector<std::uint32_t>{4});
}

}  // namespace
}  // namespace pipelab::sched
