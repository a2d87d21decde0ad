// Both barriers through one typed suite: every party passes every phase exactly once and none
// passes early (each thread writes its phase into its own slot before arriving and, after passing,
// must read every slot at that phase or later, and no slot ahead by two); exactly one arrival per
// phase completes it; more threads than cores still pass (the blocking barrier really sleeps); a
// stop predicate ends a wait without passing, the arrival still counts, and waiting again passes;
// interrupt() wakes a sleeper so it sees its flag; reset() starts over; bad sizes are named.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "pipelab/sync/blocking_barrier.hpp"
#include "pipelab/sync/spin_barrier.hpp"
#include "support/thread_sanitizer.hpp"

namespace pipelab::sync {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::uint32_t kPhases = test_build::kUnderTsan ? 200 : 1000;
// With more threads than cores a spinner holds its core until the OS preempts it, so every phase
// can cost a time slice (milliseconds on a loaded machine): those runs take few phases.
constexpr std::uint32_t kPhasesOversubscribed = test_build::kUnderTsan ? 5 : 10;

std::uint32_t phases_for(std::uint32_t threads) {
  return threads <= std::thread::hardware_concurrency() ? kPhases : kPhasesOversubscribed;
}

template <typename B>
class BarrierTest : public ::testing::Test {};
using Barriers = ::testing::Types<SpinBarrier, BlockingBarrier>;
// Names the cases by barrier (BarrierTest/SpinBarrier.*), and gives TYPED_TEST_SUITE its third
// argument: without one, clang's -Wpedantic warns about the empty variadic macro argument.
struct BarrierName {
  template <typename B>
  static std::string GetName(int) {
    return std::is_same_v<B, SpinBarrier> ? "SpinBarrier" : "BlockingBarrier";
  }
};
TYPED_TEST_SUITE(BarrierTest, Barriers, BarrierName);

// Returns the number of phases that some arrival reported as completed, and fails on any early
// pass. `threads` may exceed the cores: spinners then wait for preempted peers (slow but correct).
template <typename B>
std::uint32_t run_phases(B& barrier, std::uint32_t threads, std::uint32_t phases) {
  std::vector<std::atomic<std::uint32_t>> slot(threads);
  std::atomic<std::uint32_t> completions{0};
  std::atomic<std::uint32_t> early{0};
  std::vector<std::thread> pool;
  for (std::uint32_t t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (std::uint32_t p = 1; p <= phases; ++p) {
        slot[t].store(p, std::memory_order_relaxed);
        const Arrival a = barrier.arrive();
        if (a.completed) {
          completions.fetch_add(1, std::memory_order_relaxed);
        } else {
          EXPECT_TRUE(barrier.wait(a.token, [] { return false; }));
        }
        EXPECT_TRUE(barrier.passed(a.token));
        // Past phase p: everyone wrote p (the barrier publishes the relaxed stores), nobody can
        // have written p + 2 (that needs passing phase p + 1, which needs this thread).
        for (std::uint32_t o = 0; o < threads; ++o) {
          const std::uint32_t seen = slot[o].load(std::memory_order_relaxed);
          if (seen < p || seen > p + 1) early.fetch_add(1, std::memory_order_relaxed);
        }
      }
    });
  }
  for (auto& th : pool) th.join();
  EXPECT_EQ(early.load(), 0u) << "a thread passed a phase before every party had arrived";
  return completions.load();
}

TYPED_TEST(BarrierTest, EveryPartyPassesEveryPhaseOnceAndNoneEarly) {
  for (std::uint32_t threads : {1u, 2u, 3u}) {
    TypeParam barrier(threads);
    const std::uint32_t phases = phases_for(threads);
    EXPECT_EQ(run_phases(barrier, threads, phases), phases) << threads << " threads";
  }
}

TYPED_TEST(BarrierTest, MoreThreadsThanCoresStillPass) {
  const std::uint32_t threads = 2 * std::max(2u, std::thread::hardware_concurrency()) + 1;
  TypeParam barrier(threads);
  EXPECT_EQ(run_phases(barrier, threads, kPhasesOversubscribed), kPhasesOversubscribed);
}

TYPED_TEST(BarrierTest, TokensNameTheirPhase) {
  TypeParam barrier(2);
  const Arrival first = barrier.arrive();
  EXPECT_FALSE(first.completed);
  EXPECT_FALSE(barrier.passed(first.token));
  const Arrival second = barrier.arrive();
  EXPECT_TRUE(second.completed);
  EXPECT_EQ(second.token, first.token);
  EXPECT_TRUE(barrier.passed(first.token));
  const Arrival next = barrier.arrive();
  EXPECT_NE(next.token, first.token);
  EXPECT_FALSE(barrier.passed(next.token));
}

// (A sleeping waiter polls its predicate again only when woken: see the interrupt test.)
TYPED_TEST(BarrierTest, StopEndsAWaitAndWaitingAgainPasses) {
  TypeParam barrier(2);
  const Arrival a = barrier.arrive();
  int polls = 0;
  EXPECT_FALSE(barrier.wait(a.token, [&] { return ++polls > 0; }));
  EXPECT_EQ(polls, 1);
  std::thread late([&] { barrier.arrive_and_wait(); });
  EXPECT_TRUE(barrier.wait(a.token, [] { return false; }));
  late.join();
}

// A waiter that cannot pass (its peer never arrives) returns once a flag is set and interrupt()
// called, whichever barrier it is: the spinner sees the flag at its next poll, the sleeper is
// woken. Deadline 10 s: a lost wake-up fails instead of hanging.
TYPED_TEST(BarrierTest, InterruptWakesAWaiterThatSeesItsFlag) {
  TypeParam barrier(2);
  std::atomic<bool> stop{false};
  std::atomic<int> result{-1};
  std::thread waiter([&] {
    const Arrival a = barrier.arrive();
    result.store(barrier.wait(a.token, [&] { return stop.load(std::memory_order_acquire); }));
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // let it spin out and sleep
  EXPECT_EQ(result.load(), -1);
  stop.store(true, std::memory_order_release);
  barrier.interrupt();
  const auto deadline = Clock::now() + std::chrono::seconds(10);
  while (result.load() == -1 && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(result.load(), 0) << "the waiter did not return after interrupt()";
  if (result.load() == -1) barrier.arrive_and_wait();  // free it so the join ends
  waiter.join();
}

TYPED_TEST(BarrierTest, ResetStartsAFreshPhase) {
  TypeParam barrier(3);
  (void)barrier.arrive();
  (void)barrier.arrive();
  barrier.reset();
  EXPECT_EQ(run_phases(barrier, 3, 10), 10u);
}

TYPED_TEST(BarrierTest, BadPartyCountsAreNamed) {
  try {
    TypeParam barrier(0);
    FAIL() << "0 parties accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("parties: 0 is out of range (allowed 1..65536)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(TypeParam(TypeParam::kMaxParties + 1), std::invalid_argument);
}

// The blocking barrier sleeps: with the spin budget at 0, a waiter whose peer arrives 30 ms later
// still passes (woken by the completing arrival, not by polling).
TEST(BlockingBarrier, ASleeperIsWokenByTheCompletingArrival) {
  BlockingBarrier barrier(2, 0);
  EXPECT_EQ(barrier.spin_us(), 0);
  std::atomic<bool> passed{false};
  std::thread waiter([&] {
    barrier.arrive_and_wait();
    passed.store(true);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_FALSE(passed.load());
  barrier.arrive_and_wait();
  waiter.join();
  EXPECT_TRUE(passed.load());
}

}  // namespace
}  // namespace pipelab::sync
