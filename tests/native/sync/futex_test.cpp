// futex_wait_for / futex_wake (sync/futex.hpp), which an idle work-stealing worker sleeps and is
// woken on: a wait on a word that has changed returns at once, a wait nobody wakes ends at its
// limit, and a wake ends a long wait early. Each bound is a tenth or less of the limit it guards,
// so a broken call fails by time on any machine instead of passing slowly.
#include "pipelab/sync/futex.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

namespace pipelab::sync {
namespace {

using FutexClock = std::chrono::steady_clock;
constexpr std::uint32_t kLongUs = 30'000'000;  // 30 s: what a missed wake would cost
constexpr auto kEarly = std::chrono::seconds(3);

TEST(FutexWaitFor, ReturnsAtOnceWhenTheWordNoLongerHoldsTheValue) {
  std::atomic<std::uint32_t> word{1};
  const auto t0 = FutexClock::now();
  futex_wait_for(word, 0, kLongUs);
  EXPECT_LT(FutexClock::now() - t0, kEarly);
}

TEST(FutexWaitFor, EndsAtItsLimitWhenNobodyWakes) {
  std::atomic<std::uint32_t> word{0};
  for (int i = 0; i < 20; ++i) futex_wait_for(word, 0, 1000);  // returns, or the test times out
  EXPECT_EQ(word.load(), 0u);
}

TEST(FutexWake, EndsALongWaitEarly) {
  std::atomic<std::uint32_t> word{0};
  std::atomic<bool> waiting{false};
  const auto t0 = FutexClock::now();
  std::thread waiter([&] {
    waiting.store(true);
    // A spurious return re-waits: only the change and the wake end the loop in time.
    while (word.load(std::memory_order_acquire) == 0) futex_wait_for(word, 0, kLongUs);
  });
  while (!waiting.load()) std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // most likely asleep by now
  word.store(1, std::memory_order_release);
  futex_wake(word, 1);
  waiter.join();
  EXPECT_LT(FutexClock::now() - t0, kEarly);
}

}  // namespace
}  // namespace pipelab::sync
