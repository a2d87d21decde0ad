// Work-stealing tokens counted from outside the runtime: an ItemObserver (item_observer.hpp)
// hears each item admitted and finished and keeps its own count of items in flight; the most it
// ever saw must not exceed the `tokens` the test passed (oneTBB's "active tokens <= limit"), must
// reach it when threads outnumber tokens (so the count measures something), and every item must
// enter and leave exactly once. Independent of the runtime's in_flight_ and RunChecks.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

#include "pipelab/pipeline/item_observer.hpp"
#include "pipeline_test_support.hpp"

namespace pipelab::pipeline {
namespace {

class TokenWatch final : public ItemObserver {
 public:
  explicit TokenWatch(std::uint64_t items) : entered_(items), left_(items) {}

  void entered(std::uint64_t item) noexcept override {
    const std::uint32_t now = in_flight_.fetch_add(1, std::memory_order_acq_rel) + 1;
    std::uint32_t seen = max_.load(std::memory_order_relaxed);
    while (now > seen && !max_.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {
    }
    if (item < entered_.size()) {
      entered_[item].fetch_add(1, std::memory_order_relaxed);
    } else {
      unknown_.fetch_add(1, std::memory_order_relaxed);
    }
  }
  void left(std::uint64_t item) noexcept override {
    if (item < left_.size()) {
      left_[item].fetch_add(1, std::memory_order_relaxed);
    } else {
      unknown_.fetch_add(1, std::memory_order_relaxed);
    }
    in_flight_.fetch_sub(1, std::memory_order_acq_rel);
  }

  std::uint32_t max_in_flight() const { return max_.load(); }
  std::uint32_t in_flight() const { return in_flight_.load(); }
  std::uint64_t unknown() const { return unknown_.load(); }
  std::uint64_t through_once() const {
    std::uint64_t n = 0;
    for (std::size_t i = 0; i < entered_.size(); ++i) n += entered_[i] == 1 && left_[i] == 1;
    return n;
  }

 private:
  std::vector<std::atomic<std::uint8_t>> entered_, left_;
  std::atomic<std::uint32_t> in_flight_{0}, max_{0};
  std::atomic<std::uint64_t> unknown_{0};
};

// Runs `spec` with a watch attached; returns the most items the watch saw in flight.
std::uint32_t watched_max(const ExperimentSpec& spec, const std::string& label) {
  WorkStealingRuntime rt(spec, RunOptions{false});
  TokenWatch watch(spec.items);
  rt.observe_items(&watch);
  rt.start();  // (run() is hidden by the runtime's own run(w, task))
  rt.join();
  EXPECT_EQ(watch.through_once(), spec.items) << label << ": items not admitted/finished once";
  EXPECT_EQ(watch.unknown(), 0u) << label;
  EXPECT_EQ(watch.in_flight(), 0u) << label << ": tokens still held after the run";
  EXPECT_GE(watch.max_in_flight(), 1u) << label;
  EXPECT_LE(watch.max_in_flight(), spec.tokens) << label << ": more items in flight than tokens";
  return watch.max_in_flight();
}

TEST(WorkStealingTokens, InFlightCountedOutsideNeverExceedsTheLimitPassed) {
  for (std::uint32_t threads : {1u, 2u, 3u, 5u, 8u}) {
    for (std::uint32_t tokens : {1u, 2u, 3u, 7u}) {
      ExperimentSpec s =
          testing::mixed_spec(RuntimeKind::kWorkStealing, 1, testing::kGoldItems / 2);
      s.threads = threads;
      s.tokens = tokens;
      watched_max(s, "t=" + std::to_string(threads) + " k=" + std::to_string(tokens));
    }
  }
}

// With more threads than tokens and a slow parallel stage, idle workers admit as soon as a token
// is free: the watch must see the limit reached, or it would not be watching the tokens at all.
TEST(WorkStealingTokens, TheLimitIsReachedWhenThreadsOutnumberTokens) {
  ExperimentSpec s;
  s.runtime = RuntimeKind::kWorkStealing;
  s.stages = {testing::stage("in", StageMode::kSerialInOrder),
              testing::stage("work", StageMode::kParallel, 1, 50),
              testing::stage("out", StageMode::kSerialInOrder)};
  s.items = 400;
  s.threads = 4;
  s.tokens = 3;
  EXPECT_EQ(watched_max(s, "t=4 k=3"), 3u);
}

}  // namespace
}  // namespace pipelab::pipeline
