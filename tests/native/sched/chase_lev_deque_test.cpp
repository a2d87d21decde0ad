// Chase-Lev deque: owner LIFO / thief FIFO semantics, full at capacity, and the gold test — an
// owner pushing and popping against a stampede of thieves; every task is taken exactly once.
#include "pipelab/sched/chase_lev_deque.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "support/thread_sanitizer.hpp"

namespace pipelab::sched {
namespace {

TEST(ChaseLevDeque, OwnerPopsLifoThiefStealsFifo) {
  ChaseLevDeque d(4);
  EXPECT_EQ(d.capacity(), 4u);
  for (std::uint32_t i = 0; i < 4; ++i) ASSERT_TRUE(d.push(i));
  EXPECT_FALSE(d.push(99));
  EXPECT_EQ(d.steal(), 0u);
  EXPECT_EQ(d.pop(), 3u);
  EXPECT_EQ(d.steal(), 1u);
  EXPECT_EQ(d.pop(), 2u);
  EXPECT_EQ(d.pop(), ChaseLevDeque::kEmpty);
  EXPECT_EQ(d.steal(), ChaseLevDeque::kEmpty);
  ASSERT_TRUE(d.push(5));  // wraps around the ring
  EXPECT_EQ(d.pop(), 5u);
}

TEST(ChaseLevDeque, RejectsBadCapacityNamingIt) {
  EXPECT_THROW(ChaseLevDeque(0), std::invalid_argument);
  ChaseLevDeque d(5);
  EXPECT_EQ(d.capacity(), 8u);
}

TEST(ChaseLevDeque, EveryTaskTakenExactlyOnceUnderThieves) {
#if defined(PIPELAB_TEST_TSAN)
  constexpr std::uint32_t kTasks = 20000;
#else
  constexpr std::uint32_t kTasks = 400000;
#endif
  constexpr int kThieves = 3;
  ChaseLevDeque d(64);
  std::vector<std::atomic<std::uint8_t>> taken(kTasks);
  std::atomic<bool> done{false};
  std::atomic<std::uint32_t> stolen{0};
  std::vector<std::thread> thieves;
  for (int t = 0; t < kThieves; ++t) {
    thieves.emplace_back([&] {
      std::uint32_t last = 0;
      bool first = true;
      while (!done.load(std::memory_order_acquire)) {
        const std::uint32_t v = d.steal();
        if (v == ChaseLevDeque::kEmpty) continue;
        // Each thief sees tasks in increasing order: stealing is FIFO.
        EXPECT_TRUE(first || v > last);
        first = false;
        last = v;
        taken[v].fetch_add(1, std::memory_order_relaxed);
        stolen.fetch_add(1, std::memory_order_relaxed);
      }
    });
  }
  std::uint32_t popped = 0;
  for (std::uint32_t next = 0; next < kTasks;) {
    while (next < kTasks && d.push(next)) ++next;
    if (next % 3 == 0) {  // pop some ourselves, race the thieves for the rest
      const std::uint32_t v = d.pop();
      if (v != ChaseLevDeque::kEmpty) {
        taken[v].fetch_add(1, std::memory_order_relaxed);
        ++popped;
      }
    }
  }
  for (std::uint32_t v; (v = d.pop()) != ChaseLevDeque::kEmpty; ++popped) {
    taken[v].fetch_add(1, std::memory_order_relaxed);
  }
  while (popped + stolen.load() < kTasks) std::this_thread::yield();
  done.store(true, std::memory_order_release);
  for (auto& t : thieves) t.join();
  std::uint32_t once = 0;
  for (auto& t : taken) once += t.load() == 1;
  EXPECT_EQ(once, kTasks);
  EXPECT_GT(stolen.load(), 0u);
}

}  // namespace
}  // namespace pipelab::sched
