// Counting threads: every thread counts while running, stop ends every thread, restart works,
// the slot layout is what the page expects, and bad configuration is rejected naming the value.
#include "pipelab/counting/counting_threads.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <thread>

namespace pc = pipelab::counting;
using namespace std::chrono_literals;

namespace {

// Waits without a blocking join, as the browser's engine worker does; fails instead of hanging.
bool wait_until_exited(const pc::CountingThreads& c, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (c.alive() != 0) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

// Reads slot i straight from memory the way the page does (base + i * stride).
std::uint64_t read_raw(const pc::CountingThreads& c, unsigned i) {
  auto* base = static_cast<const unsigned char*>(c.slots_base());
  return reinterpret_cast<const std::atomic<std::uint64_t>*>(base + i * c.stride_bytes())
      ->load(std::memory_order_relaxed);
}

}  // namespace

class CountingLayouts : public ::testing::TestWithParam<pc::Layout> {};

TEST_P(CountingLayouts, EveryThreadCountsAndStops) {
  pc::CountingThreads c;
  const int n = 4;
  c.start(n, GetParam(), 0.0);
  std::uint64_t first[n];
  std::this_thread::sleep_for(20ms);
  for (int i = 0; i < n; ++i) first[i] = read_raw(c, i);
  // Every thread counts on: polled for up to 10 s, since a loaded 2-core machine may leave a
  // thread unscheduled for longer than any fixed sleep (a thread that never counts still fails).
  for (int i = 0; i < n; ++i) {
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (read_raw(c, i) == first[i] && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(1ms);
    }
    EXPECT_GT(read_raw(c, i), first[i]) << "thread " << i << " did not count";
  }
  c.request_stop();
  ASSERT_TRUE(wait_until_exited(c, 2000ms));
  c.join();
  // Compared once the counters are frozen: while running, two reads may differ by a few counts.
  for (int i = 0; i < n; ++i) EXPECT_EQ(read_raw(c, i), c.count(i)) << "raw read of thread " << i;
  const std::uint64_t after_stop = c.count(0);
  std::this_thread::sleep_for(10ms);
  EXPECT_EQ(c.count(0), after_stop) << "a thread kept counting after stop";
}

INSTANTIATE_TEST_SUITE_P(Layouts, CountingLayouts,
                         ::testing::Values(pc::Layout::kPacked, pc::Layout::kPadded));

TEST(CountingThreads, StrideSeparatesPaddedSlotsByALinePair) {
  pc::CountingThreads c;
  c.run_slice(2, pc::Layout::kPacked, 0.0, 100);
  EXPECT_EQ(c.stride_bytes(), 8u);
  c.run_slice(2, pc::Layout::kPadded, 0.0, 100);
  EXPECT_EQ(c.stride_bytes(), 128u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(c.slots_base()) % 128, 0u);
}

TEST(CountingThreads, RestartTwentyTimes) {
  pc::CountingThreads c;
  for (int round = 0; round < 20; ++round) {
    c.start(3, round % 2 ? pc::Layout::kPadded : pc::Layout::kPacked, 0.0);
    while (c.count(2) == 0) std::this_thread::yield();
    c.request_stop();
    ASSERT_TRUE(wait_until_exited(c, 2000ms)) << "round " << round;
    c.join();
  }
}

TEST(CountingThreads, StartWhileRunningIsRejected) {
  pc::CountingThreads c;
  c.start(1, pc::Layout::kPadded, 0.0);
  EXPECT_THROW(c.start(1, pc::Layout::kPadded, 0.0), std::logic_error);
  c.request_stop();
  ASSERT_TRUE(wait_until_exited(c, 2000ms));
  c.join();
}

TEST(CountingThreads, SingleThreadSliceCountsEveryVirtualThread) {
  pc::CountingThreads c;
  c.run_slice(5, pc::Layout::kPacked, 0.1, 5000);
  for (unsigned i = 0; i < 5; ++i) EXPECT_GT(c.count(i), 0u) << "virtual thread " << i;
}

TEST(CountingThreads, BadValuesNameTheValueAndRange) {
  pc::CountingThreads c;
  for (int bad : {0, -3, 65, 100000}) {
    try {
      c.start(bad, pc::Layout::kPacked, 0.0);
      FAIL() << "accepted threads=" << bad;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("threads: " + std::to_string(bad)), std::string::npos);
      EXPECT_NE(std::string(e.what()).find("1..64"), std::string::npos);
    }
  }
  EXPECT_THROW(c.start(2, pc::Layout::kPacked, -1.0), std::invalid_argument);
  EXPECT_THROW(c.start(2, pc::Layout::kPacked, 5000.0), std::invalid_argument);
}

// The experiment counts in units of the pipeline stages' busy work: one calibration for both.
TEST(CountingThreads, UsesTheSharedBusyWork) {
  pc::CountingThreads c;
  EXPECT_EQ(&c.busy_work(), &pipelab::workload::BusyWork::global());
}
