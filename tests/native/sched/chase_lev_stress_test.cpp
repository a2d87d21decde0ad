// Chase-Lev deque under randomized yields: a test Sync yields at every ChaseLevPoint (between the
// steps whose order decides a race) with a seeded probability, while the owner pushes and pops
// against two thieves. Rounds alternate between bursts (push 1-4, pop some) and the last-task race
// (push one task, pop it after a random gap while the thieves hammer). Checks: every task taken
// exactly once, each thief's steals in increasing order (FIFO end), and the owner both winning and
// losing last-task races is counted and printed. Short in npm test; PIPELAB_STRESS=long runs 20x
// longer (support/stress.hpp), PIPELAB_STRESS_SEED replays a seed.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>

#include "pipelab/sched/chase_lev_deque.hpp"
#include "support/fence_styles.hpp"
#include "support/stress.hpp"
#include "support/thread_sanitizer.hpp"

namespace pipelab::sched {
namespace {

using sync::FenceStyle;

// Which races were real contests: a thief counts itself "at the CAS" from kStealBeforeCas until
// its steal() returns; an owner pop() that lowers bottom_ while one is there is contested.
struct Contest {
  static inline std::atomic<int> thieves_at_cas{0};
  static inline thread_local bool at_cas = false;         // this thief
  static inline thread_local bool pop_contested = false;  // the owner's last pop()
  static void thief_left_steal() {
    if (at_cas) thieves_at_cas.fetch_sub(1, std::memory_order_relaxed);
    at_cas = false;
  }
};

template <FenceStyle S>
struct YieldingSync : sync::StdSync<S> {
  static void point(ChaseLevPoint p) noexcept {
    if (p == ChaseLevPoint::kStealBeforeCas) {
      Contest::at_cas = true;
      Contest::thieves_at_cas.fetch_add(1, std::memory_order_relaxed);
    } else if (p == ChaseLevPoint::kPopBottomStored) {
      Contest::pop_contested = Contest::thieves_at_cas.load(std::memory_order_relaxed) > 0;
    }
    test_stress::maybe_yield();
  }
};

struct Outcome {
  std::uint64_t tasks = 0, stolen = 0, owner_won_last = 0, owner_lost_last = 0;
  std::uint64_t contested_won = 0, contested_lost = 0;
  std::uint64_t once = 0, out_of_order = 0, yields = 0;
};

template <FenceStyle S>
Outcome stress(std::uint64_t rounds, std::uint64_t seed) {
  using Deque = BasicChaseLevDeque<YieldingSync<S>>;
  constexpr int kThieves = 2;
  constexpr std::uint32_t kYieldPer65536 = 6554;  // ~10% of the points
  Deque d(8);
  const std::uint64_t max_tasks = rounds * 4;
  std::vector<std::atomic<std::uint8_t>> taken(max_tasks);
  std::atomic<bool> done{false};
  std::atomic<int> started{0};
  std::atomic<std::uint64_t> stolen{0}, out_of_order{0};
  test_stress::YieldInjector::start(seed, kYieldPer65536);
  std::vector<std::thread> thieves;
  for (int t = 0; t < kThieves; ++t) {
    thieves.emplace_back([&] {
      started.fetch_add(1, std::memory_order_release);
      std::uint32_t last = 0;
      bool first = true;
      while (!done.load(std::memory_order_acquire)) {
        const std::uint32_t v = d.steal();
        Contest::thief_left_steal();
        if (v == Deque::kEmpty) continue;
        if (!first && v <= last) out_of_order.fetch_add(1, std::memory_order_relaxed);
        first = false;
        last = v;
        taken[v].fetch_add(1, std::memory_order_relaxed);
        stolen.fetch_add(1, std::memory_order_relaxed);
      }
    });
  }
  std::uint64_t rng = seed * 0x9E3779B97F4A7C15ull;
  Outcome o;
  std::uint32_t next = 0;
  auto take = [&](std::uint32_t v) {
    if (v != Deque::kEmpty) taken[v].fetch_add(1, std::memory_order_relaxed);
    return v != Deque::kEmpty;
  };
  // Rounds start once every thief runs: a thread that has not started yet (a wasm worker on a
  // loaded machine) would leave the owner racing nobody.
  while (started.load(std::memory_order_acquire) < kThieves) std::this_thread::yield();
  auto round = [&](std::uint64_t r) {
    const std::uint64_t dice = test_stress::splitmix64(rng);
    if (r % 2 == 0) {
      // The last-task race: nothing else is in the deque, so a thief can only take this one.
      while (take(d.pop())) {
      }
      if (!d.push(next)) std::abort();
      ++next;
      // A random gap lets a thief reach the task first now and then, so the owner's pop() meets
      // the thief at the last task (and a yield point may pause either one mid-race): none, a
      // spin of up to ~1000 iterations, or a yield (on a loaded machine the threads share a core,
      // and a thief runs only when the owner yields).
      if (dice % 4 == 1) {
        for (volatile std::uint64_t spin = 0; spin < (dice >> 2) % 1024; spin = spin + 1) {
        }
      } else if (dice % 4 >= 2) {
        std::this_thread::yield();
      }
      Contest::pop_contested = false;
      const bool won = take(d.pop());
      ++(won ? o.owner_won_last : o.owner_lost_last);
      if (Contest::pop_contested) ++(won ? o.contested_won : o.contested_lost);
    } else {
      const std::uint32_t burst = 1 + std::uint32_t(dice % 4);
      for (std::uint32_t i = 0; i < burst && d.push(next); ++i) ++next;
      for (std::uint32_t i = 0; i < (dice >> 8) % 3; ++i) take(d.pop());
    }
  };
  for (std::uint64_t r = 0; r < rounds; ++r) round(r);
  // On a loaded machine (or in wasm, where yield() returns at once) the thieves may never have
  // reached their CAS during the last-task races: go on with last-task rounds, each after a short
  // real sleep that lets the thieves be scheduled, until one contest has run (at most 10 s, within
  // the tasks counted), so the contest assertion checks the race, not the scheduler.
  const auto contest_deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (std::uint64_t r = rounds + rounds % 2;
       o.contested_won + o.contested_lost == 0 && next + 8 < max_tasks &&
       std::chrono::steady_clock::now() < contest_deadline;
       r += 2) {
    std::this_thread::sleep_for(std::chrono::microseconds(20 + r % 97));
    round(r);
  }
  while (take(d.pop())) {
  }
  // A thief may still be between its steal and its count: wait (a lost task shows after 10 s).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  auto all_counted = [&] {
    for (std::uint32_t v = 0; v < next; ++v) {
      if (taken[v].load() == 0) return false;
    }
    return true;
  };
  while (!all_counted() && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
  done.store(true, std::memory_order_release);
  for (auto& t : thieves) t.join();
  o.tasks = next;
  o.stolen = stolen.load();
  o.out_of_order = out_of_order.load();
  o.yields = test_stress::YieldInjector::yields();
  test_stress::YieldInjector::stop();
  for (std::uint32_t v = 0; v < next; ++v) o.once += taken[v].load() == 1;
  return o;
}

template <class T>
class ChaseLevYieldStress : public ::testing::Test {};
TYPED_TEST_SUITE(ChaseLevYieldStress, test_styles::BuildFenceStyles, test_styles::FenceStyleName);

TYPED_TEST(ChaseLevYieldStress, EveryTaskOnceWhileOwnerAndThievesYieldAtRandom) {
  const std::uint64_t rounds = test_stress::scaled(test_build::kUnderTsan ? 6000 : 40000);
  const std::uint64_t seed = test_stress::base_seed();
  const Outcome o = stress<TypeParam::kStyle>(rounds, seed);
  std::printf(
      "[ stress   ] seed %llu: %llu tasks, %llu stolen, %llu yields; last task: owner took it %llu "
      "times, a thief %llu; contested (a thief at its CAS while the owner popped): owner won "
      "%llu, lost %llu\n",
      static_cast<unsigned long long>(seed), static_cast<unsigned long long>(o.tasks),
      static_cast<unsigned long long>(o.stolen), static_cast<unsigned long long>(o.yields),
      static_cast<unsigned long long>(o.owner_won_last),
      static_cast<unsigned long long>(o.owner_lost_last),
      static_cast<unsigned long long>(o.contested_won),
      static_cast<unsigned long long>(o.contested_lost));
  EXPECT_EQ(o.once, o.tasks) << "seed " << seed << ": a task was lost or taken twice";
  EXPECT_EQ(o.out_of_order, 0u) << "seed " << seed << ": a thief's steals went backwards";
  EXPECT_GT(o.yields, 0u) << "the hook never yielded";
  EXPECT_GT(o.contested_won + o.contested_lost, 0u) << "the last-task race never ran";
}

}  // namespace
}  // namespace pipelab::sched
