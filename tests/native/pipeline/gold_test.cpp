// Gold tests for every runtime: collected outputs equal inputs (each item exactly once), serial
// stages never overlap, serial-in-order stages see input order, items in flight never exceed
// tokens, queues never exceed capacity, and kernels give identical results everywhere.
// Grid: work-stealing threads {1,2,3,5,8} × tokens {1,2,7,32}; static and collapsed × every queue
// kind × capacity {1, 4, unbounded} × parallel-stage threads {1, 3} (<= 8 threads in total).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pipelab/workload/stage_work.hpp"
#include "pipeline_test_support.hpp"

namespace pipelab::pipeline {
namespace {

using testing::kGoldItems;
using testing::mixed_spec;
using testing::run_and_check;
using testing::stage;

TEST(WorkStealingGold, ThreadsByTokensAllModes) {
  for (std::uint32_t threads : {1u, 2u, 3u, 5u, 8u}) {
    for (std::uint32_t tokens : {1u, 2u, 7u, 32u}) {
      ExperimentSpec s = mixed_spec(RuntimeKind::kWorkStealing, 1, kGoldItems);
      s.threads = threads;
      s.tokens = tokens;
      run_and_check(s, "ws t=" + std::to_string(threads) + " k=" + std::to_string(tokens));
    }
  }
}

TEST(WorkStealingGold, ParallelFirstAndAllParallel) {
  for (std::uint32_t threads : {2u, 5u}) {
    ExperimentSpec s;
    s.runtime = RuntimeKind::kWorkStealing;
    s.stages = {stage("p0", StageMode::kParallel), stage("p1", StageMode::kParallel),
                stage("w", StageMode::kSerialInOrder)};
    s.items = kGoldItems;
    s.threads = threads;
    s.tokens = 9;
    run_and_check(s, "ws parallel-first t=" + std::to_string(threads));
  }
}

TEST(StaticGold, QueueKindsCapacitiesThreads) {
  for (RuntimeKind rt : {RuntimeKind::kStatic, RuntimeKind::kCollapsed}) {
    for (QueueKind q : {QueueKind::kBatch, QueueKind::kLamport, QueueKind::kCachedSpsc,
                        QueueKind::kMutex, QueueKind::kVyukovMpmc}) {
      for (std::optional<std::uint32_t> cap :
           {std::optional<std::uint32_t>(1), std::optional<std::uint32_t>(4),
            std::optional<std::uint32_t>()}) {
        for (std::uint32_t par : {1u, 3u}) {
          ExperimentSpec s = mixed_spec(rt, par, kGoldItems);
          s.queue = QueueSpec{q, cap};
          const std::string label = std::string(to_string(rt)) + " " + to_string(q) +
                                    " cap=" + (cap ? std::to_string(*cap) : "open") +
                                    " par=" + std::to_string(par);
          run_and_check(s, label);
        }
      }
    }
  }
}

TEST(StaticGold, ParallelInputStageAndSingleStage) {
  ExperimentSpec s;
  s.runtime = RuntimeKind::kStatic;
  s.stages = {stage("read", StageMode::kParallel, 2), stage("fmt", StageMode::kParallel, 2),
              stage("write", StageMode::kSerialInOrder)};
  s.items = kGoldItems;
  run_and_check(s, "static parallel input");
  s.runtime = RuntimeKind::kCollapsed;
  run_and_check(s, "collapsed parallel input");
  s.stages = {stage("only", StageMode::kParallel, 3)};
  run_and_check(s, "static single stage");
}

TEST(StaticGold, OneToOneLinksUseTheRequestedQueue) {
  for (QueueKind q : {QueueKind::kBatch, QueueKind::kLamport, QueueKind::kCachedSpsc,
                      QueueKind::kMutex, QueueKind::kVyukovMpmc}) {
    ExperimentSpec s = mixed_spec(RuntimeKind::kStatic, 1, 10);
    s.queue = QueueSpec{q, 8};
    StaticRuntime rt(s);
    EXPECT_STREQ(rt.links()[0]->name(), to_string(q));
    s.stages[1].threads = 2;  // many-to-many links: Vyukov unless mutex
    StaticRuntime mpmc(s);
    EXPECT_STREQ(mpmc.links()[0]->name(), q == QueueKind::kMutex ? "mutex" : "vyukov-mpmc");
  }
}

// Seed 002's two-stage output: parallel pricing, parallel formatting of batches, serial in-order
// writer, with buffers (tokens) = threads + 2; and the two-stage input: serial scan, parallel read.
TEST(TwoStageIo, ParallelFormattingAndSerialInOrderWriter) {
  ExperimentSpec s;
  s.stages = {
      stage("scan", StageMode::kSerialInOrder),
      StageSpec{"read", StageMode::kParallel, 2, ServiceSpec::kernel_of(KernelName::kDedupHash, 4)},
      StageSpec{"price", StageMode::kParallel, 2,
                ServiceSpec::kernel_of(KernelName::kBlackScholes, 16)},
      StageSpec{"format", StageMode::kParallel, 2,
                ServiceSpec::kernel_of(KernelName::kFormatPrices, 16)},
      stage("write", StageMode::kSerialInOrder)};
  s.items = kGoldItems / 10;
  s.seed = 2;
  s.runtime = RuntimeKind::kWorkStealing;
  s.threads = 4;
  s.tokens = s.threads + 2;
  const auto ws = run_and_check(s, "two-stage io ws");
  s.threads = 0;
  s.tokens = 0;
  s.runtime = RuntimeKind::kStatic;
  EXPECT_EQ(run_and_check(s, "two-stage io static"), ws);
  s.runtime = RuntimeKind::kCollapsed;
  EXPECT_EQ(run_and_check(s, "two-stage io collapsed"), ws);
}

TEST(CollapsedShape, FusesConsecutiveParallelStages) {
  ExperimentSpec s = mixed_spec(RuntimeKind::kCollapsed, 2, 10);
  s.stages.insert(s.stages.begin() + 2, stage("a2", StageMode::kParallel, 1));
  validate(s);
  const auto groups = StaticRuntime::make_groups(s);
  ASSERT_EQ(groups.size(), 5u);
  EXPECT_EQ(groups[1].first, 1u);
  EXPECT_EQ(groups[1].last, 2u);
  EXPECT_EQ(groups[1].threads, 3u);
  s.runtime = RuntimeKind::kStatic;
  EXPECT_EQ(StaticRuntime::make_groups(s).size(), 6u);
}

// Kernels: every runtime and thread count gives each item the same final value as a plain
// sequential loop over the stages.
TEST(KernelGold, IdenticalResultsInEveryRuntime) {
  const KernelName kernels[] = {KernelName::kMatrix,        KernelName::kDedupHash,
                                KernelName::kDedupCompress, KernelName::kFerretFeatures,
                                KernelName::kFerretRank,    KernelName::kBlackScholes,
                                KernelName::kFormatPrices};
  ExperimentSpec base;
  base.items = kGoldItems / 4;
  base.seed = 5;
  StageMode modes[] = {StageMode::kSerialInOrder,    StageMode::kParallel, StageMode::kParallel,
                       StageMode::kSerialOutOfOrder, StageMode::kParallel, StageMode::kParallel,
                       StageMode::kSerialInOrder};
  for (int k = 0; k < 7; ++k) {
    base.stages.push_back(
        StageSpec{to_string(kernels[k]), modes[k], 1, ServiceSpec::kernel_of(kernels[k], 8)});
  }
  std::vector<std::uint64_t> expected(base.items);
  for (std::uint64_t i = 0; i < base.items; ++i) {
    std::uint64_t v = workload::splitmix64(i ^ base.seed);
    for (std::uint32_t s = 0; s < base.stages.size(); ++s) {
      v = workload::StageWork(base.stages[s].service, base.seed, s).run(i, v);
    }
    expected[i] = v;
  }
  for (std::uint32_t threads : {1u, 4u}) {
    ExperimentSpec ws = base;
    ws.runtime = RuntimeKind::kWorkStealing;
    ws.threads = threads;
    ws.tokens = 8;
    EXPECT_EQ(run_and_check(ws, "ws kernels"), expected) << "work-stealing threads " << threads;
  }
  for (RuntimeKind rt : {RuntimeKind::kStatic, RuntimeKind::kCollapsed}) {
    ExperimentSpec st = base;
    st.runtime = rt;
    st.stages[1].threads = 2;
    EXPECT_EQ(run_and_check(st, "static kernels"), expected) << to_string(rt);
  }
}

TEST(Telemetry, RunFillsRingsAndCounters) {
  ExperimentSpec s = mixed_spec(RuntimeKind::kWorkStealing, 1, 200);
  s.threads = 2;
  s.tokens = 4;
  RunOptions o;
  o.ring_capacity = 4096;
  auto rt = make_runtime(s, o);
  rt->run();
  auto& t = rt->telemetry();
  std::uint64_t starts = 0;
  for (std::uint32_t w = 0; w < t.workers(); ++w) {
    std::vector<telemetry::Event> ev(4096);
    const std::size_t n = t.ring(w).pop_into(ev.data(), ev.size());
    for (std::size_t i = 0; i < n; ++i) {
      starts += ev[i].kind == telemetry::EventKind::kStart;
      EXPECT_EQ(ev[i].worker, w);
    }
    starts += 0 * t.ring(w).dropped();
  }
  EXPECT_EQ(starts, 200u * 5u);
  for (std::uint32_t st = 0; st < 5; ++st) {
    EXPECT_EQ(t.counters(st).items_in.load(), 200u);
    EXPECT_EQ(t.counters(st).items_out.load(), 200u);
  }
}

}  // namespace
}  // namespace pipelab::pipeline
