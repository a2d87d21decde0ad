// The static pipeline shapes of the balancing lesson (seed 000 §3–4): dedup's stages that emit
// several items per item and stages some items bypass, in thread-per-stage and collapsed form and
// with every queue capacity; the collapsed and static runtimes oversubscribed (many more threads
// than this machine's cores) with bounded and unbounded queues; and the threads engine's memory cap
// on unbounded queues. Every run is a gold run (pipeline_test_support.hpp): every item out exactly
// once, serial stages never overlap, serial-in-order stages see the order of the items out.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "pipelab/workload/stage_work.hpp"
#include "pipeline_test_support.hpp"

namespace pipelab::pipeline {
namespace {

using testing::kGoldItems;
using testing::run_and_check;
using testing::stage;

ServiceSpec jitter(double mean_us) {
  ServiceSpec s;
  s.kind = ServiceKind::kExponential;
  s.mean_us = mean_us;
  return s;
}

// Fragment (serial) → FindAllAnchors (emits 4) → hash → Compress (bypassed by half) → write.
ExperimentSpec dedup_like(RuntimeKind rt, std::optional<std::uint32_t> capacity,
                          std::uint32_t threads, std::uint64_t items) {
  ExperimentSpec s;
  s.runtime = rt;
  s.stages = {
      stage("fragment", StageMode::kSerialInOrder), stage("anchor", StageMode::kParallel, threads),
      stage("hash", StageMode::kParallel, threads),
      stage("compress", StageMode::kParallel, threads), stage("write", StageMode::kSerialInOrder)};
  s.stages[1].emits = 4;
  s.stages[3].bypass = 0.5;
  for (std::size_t i = 1; i <= 3; ++i) s.stages[i].service = jitter(1);
  s.queue = QueueSpec{QueueKind::kVyukovMpmc, capacity};
  s.items = items;
  s.seed = 13;
  return s;
}

// Items out of stage `s` that reach it without bypassing it: the child numbers after the
// emitting stages before, drawn as the runtime draws them.
std::uint64_t served_at(const ExperimentSpec& spec, std::uint32_t s) {
  std::uint64_t arriving = spec.items;
  for (std::uint32_t i = 0; i < s; ++i) arriving *= spec.stages[i].emits;
  const workload::StageWork work(spec.stages[s].service, spec.seed, s, spec.stages[s].bypass);
  std::uint64_t served = 0;
  for (std::uint64_t seq = 0; seq < arriving; ++seq) served += !work.bypassed(seq);
  return served;
}

TEST(DedupShapes, EveryItemOutOnceWithEmittingAndBypassedStages) {
  for (RuntimeKind rt : {RuntimeKind::kStatic, RuntimeKind::kCollapsed}) {
    std::vector<std::uint64_t> first;
    for (std::optional<std::uint32_t> cap :
         {std::optional<std::uint32_t>(1), std::optional<std::uint32_t>(4),
          std::optional<std::uint32_t>()}) {
      for (std::uint32_t threads : {1u, 3u}) {
        const ExperimentSpec s = dedup_like(rt, cap, threads, kGoldItems / 4);
        const std::string label = std::string(to_string(rt)) +
                                  " cap=" + (cap ? std::to_string(*cap) : "open") +
                                  " threads=" + std::to_string(threads);
        const auto out = run_and_check(s, label);
        ASSERT_EQ(out.size(), s.items * 4) << label;
        // The same items bypass and the same values come out, whatever the shape or queue.
        if (first.empty()) first = out;
        EXPECT_EQ(out, first) << label;
      }
    }
  }
}

TEST(DedupShapes, StageCountersCountServedAndEmittedItems) {
  for (RuntimeKind rt : {RuntimeKind::kStatic, RuntimeKind::kCollapsed}) {
    const ExperimentSpec s = dedup_like(rt, 4, 2, 400);
    auto runtime = make_runtime(s);
    runtime->run();
    auto& t = runtime->telemetry();
    const auto in = [&](std::uint32_t i) { return t.counters(i).items_in.load(); };
    const auto out = [&](std::uint32_t i) { return t.counters(i).items_out.load(); };
    EXPECT_EQ(in(0), 400u) << to_string(rt);
    EXPECT_EQ(in(1), 400u) << to_string(rt);
    EXPECT_EQ(out(1), 1600u) << to_string(rt) << ": anchor emits 4 per item";
    EXPECT_EQ(in(2), 1600u) << to_string(rt);
    const std::uint64_t compressed = served_at(s, 3);
    EXPECT_GT(compressed, 600u) << "about half of 1600 are compressed";
    EXPECT_LT(compressed, 1000u);
    EXPECT_EQ(in(3), compressed) << to_string(rt) << ": bypassed items skip compress";
    EXPECT_EQ(in(4), 1600u) << to_string(rt) << ": and still reach the writer";
  }
}

// Bypassed groups in a row, and a bypassed last stage (delivered straight from the stage before):
// a link takes producers from every group whose items may skip to it.
TEST(DedupShapes, BypassingSeveralGroupsAndTheLastStage) {
  ExperimentSpec s;
  s.runtime = RuntimeKind::kStatic;
  s.stages = {stage("in", StageMode::kParallel, 2),    stage("a", StageMode::kParallel, 2),
              stage("b", StageMode::kParallel, 1),     stage("c", StageMode::kParallel, 3),
              stage("out", StageMode::kSerialInOrder), stage("tail", StageMode::kParallel, 2)};
  s.stages[1].bypass = 0.3;
  s.stages[2].bypass = 0.6;
  s.stages[5].bypass = 0.5;
  s.items = kGoldItems / 2;
  s.seed = 3;
  const auto out = run_and_check(s, "static bypass chain");
  StaticRuntime rt(s);
  EXPECT_EQ(rt.producers_of(1), 2u);            // a: from in
  EXPECT_EQ(rt.producers_of(2), 2u + 2u);       // b: from in (past a) and a
  EXPECT_EQ(rt.producers_of(3), 2u + 2u + 1u);  // c: from in, a and b
  EXPECT_EQ(rt.producers_of(4), 3u);            // out: from c only
  EXPECT_EQ(rt.producers_of(5), 1u);            // tail: from out (its bypassers are delivered)
  s.runtime = RuntimeKind::kCollapsed;
  EXPECT_EQ(run_and_check(s, "collapsed bypass chain"), out);
}

// A serial stage that emits, before and after a reordering point.
TEST(DedupShapes, SerialStagesEmitInOrder) {
  ExperimentSpec s;
  s.stages = {stage("read", StageMode::kSerialInOrder), stage("split", StageMode::kParallel, 3),
              stage("fan", StageMode::kSerialInOrder), stage("work", StageMode::kParallel, 2),
              stage("write", StageMode::kSerialInOrder)};
  s.stages[0].emits = 2;
  s.stages[2].emits = 3;
  s.stages[1].service = s.stages[3].service = jitter(1);
  s.items = kGoldItems / 10;
  for (RuntimeKind rt : {RuntimeKind::kStatic, RuntimeKind::kCollapsed}) {
    s.runtime = rt;
    EXPECT_EQ(run_and_check(s, to_string(rt)).size(), s.items * 6);
  }
}

#if defined(PIPELAB_TEST_TSAN)
constexpr std::uint64_t kOversubscribedItems = 300;
#else
constexpr std::uint64_t kOversubscribedItems = 3000;
#endif

// Table 1's shapes: ferret's six stages with 8 threads per parallel stage (34 threads) and the
// collapsed three with 32 workers, far more threads than this machine's cores, over bounded and
// unbounded queues.
TEST(Oversubscribed, CollapsedAndStaticWithManyMoreThreadsThanCores) {
  for (RuntimeKind rt : {RuntimeKind::kStatic, RuntimeKind::kCollapsed}) {
    for (std::optional<std::uint32_t> cap :
         {std::optional<std::uint32_t>(20), std::optional<std::uint32_t>()}) {
      ExperimentSpec s;
      s.runtime = rt;
      s.stages = {
          stage("load", StageMode::kSerialInOrder),  stage("segment", StageMode::kParallel, 8),
          stage("extract", StageMode::kParallel, 8), stage("vector", StageMode::kParallel, 8),
          stage("rank", StageMode::kParallel, 8),    stage("out", StageMode::kSerialInOrder)};
      for (std::size_t i = 1; i <= 4; ++i) s.stages[i].service = jitter(i == 4 ? 4 : 1);
      s.queue = QueueSpec{QueueKind::kVyukovMpmc, cap};
      s.items = kOversubscribedItems;
      s.seed = 9;
      const std::string label =
          std::string(to_string(rt)) + " 34 threads cap=" + (cap ? std::to_string(*cap) : "open");
      run_and_check(s, label);
      EXPECT_EQ(StaticRuntime(s).thread_count(), 34u) << label;
    }
  }
}

// With unbounded queues every item out could be waiting at once: the threads engine refuses more
// items out than its memory holds, naming the limit, before any thread starts.
TEST(ThreadsEngineLimits, UnboundedQueuesCapTheItemsOut) {
  ExperimentSpec s = dedup_like(RuntimeKind::kCollapsed, std::nullopt, 1, kMaxUnboundedItemsOut);
  try {
    StaticRuntime rt(s);
    FAIL() << "accepted " << s.items << " items with 4 out each over unbounded queues";
  } catch (const SpecError& e) {
    EXPECT_STREQ(e.what(),
                 "items: 500000 is out of range for the threads engine with unbounded queues "
                 "(allowed 1..125000: every item out could wait in a queue at once, and memory "
                 "holds 500000)");
  }
  s.items = kMaxUnboundedItemsOut / 4;
  EXPECT_NO_THROW(StaticRuntime{s});
  s.items = kMaxUnboundedItemsOut;
  s.queue.capacity = 20;  // bounded queues hold at most their capacity
  EXPECT_NO_THROW(StaticRuntime{s});
}

}  // namespace
}  // namespace pipelab::pipeline
