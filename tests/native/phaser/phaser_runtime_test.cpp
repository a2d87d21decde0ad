// The phaser runtime end to end, on a pool of real threads: every pattern of the lesson delivers
// each item exactly once with the values a sequential run computes (pipeline with avg/abs,
// split-join sums, the sieve's primes for several M, a branched graph), batched or not; the bound
// holds at every publish and wait (from the telemetry events); the thread ring completes with
// batching requested because cycle detection turned its streams non-batched — and stalls, reported
// and stopped, when detection is off; stop and pause mid-run leave no thread behind.
#include "pipelab/pipeline/phaser_graph/phaser_runtime.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "phaser/graph_reference.hpp"
#include "pipelab/pipeline/runtime_kinds.hpp"
#include "support/thread_sanitizer.hpp"

namespace pipelab::pipeline {
namespace {

using phaser::testing::primes_through;
using phaser::testing::sink_values;

std::string stage(const std::string& name, const std::string& op, double us = 0, int copies = 1,
                  const std::string& extra = "") {
  return R"({"name":")" + name + R"(","mode":")" + (copies > 1 ? "parallel" : "serial-in-order") +
         R"(","threads":)" + std::to_string(copies) + R"(,"service":{"kind":"fixed","us":)" +
         std::to_string(us) + R"(},"op":")" + op + "\"" + extra + "}";
}
std::string stream(const std::string& from, const std::string& to,
                   const std::string& reduce = "any") {
  return R"({"from":[)" + from + R"(],"to":[)" + to + R"(],"reduce":")" + reduce + "\"}";
}
ExperimentSpec graph(const std::vector<std::string>& stages,
                     const std::vector<std::string>& streams, std::uint64_t items,
                     std::uint32_t batch, std::uint32_t threads = 2, std::uint32_t bound = 4) {
  std::string s = R"({"runtime":"phaser","stages":[)";
  for (std::size_t i = 0; i < stages.size(); ++i) s += (i ? "," : "") + stages[i];
  s += R"(],"streams":[)";
  for (std::size_t i = 0; i < streams.size(); ++i) s += (i ? "," : "") + streams[i];
  s += R"(],"threads":)" + std::to_string(threads) + R"(,"bound":)" + std::to_string(bound) +
       R"(,"batch":)" + std::to_string(batch) + R"(,"items":)" + std::to_string(items) +
       R"(,"seed":3})";
  return parse_experiment_spec(s);
}

ExperimentSpec avg_pipeline(std::uint64_t items, std::uint32_t batch) {
  return graph(
      {stage("source", "random"), stage("avg", "avg"), stage("abs", "abs"), stage("sink", "pass")},
      {stream(R"("source")", R"("avg")"), stream(R"("avg")", R"("abs")"),
       stream(R"("abs")", R"("sink")")},
      items, batch);
}
ExperimentSpec split_join(std::uint64_t items, std::uint32_t batch, int n) {
  return graph({stage("source", "random"), stage("split", "split", 0, n), stage("join", "pass")},
               {stream(R"("source")", R"("split")"), stream(R"("split")", R"("join")", "sum")},
               items, batch);
}
ExperimentSpec branched(std::uint64_t items, std::uint32_t batch) {
  return graph(
      {stage("source", "random"), stage("fan", "pass"), stage("b0", "abs"), stage("b1", "pass"),
       stage("b2", "avg"), stage("join", "pass"), stage("sink", "pass")},
      {stream(R"("source")", R"("fan")"), stream(R"("fan")", R"("b0","b1","b2")"),
       stream(R"("b0")", R"("join")"), stream(R"("b1")", R"("join")"),
       stream(R"("b2")", R"("join")"), stream(R"("join")", R"("sink")")},
      items, batch);
}
ExperimentSpec sieve(std::uint64_t m, std::uint32_t batch) {
  return graph({stage("numbers", "count"), stage("filter", "sieve"), stage("primes", "pass")},
               {stream(R"("numbers")", R"("filter")"), stream(R"("filter")", R"("primes")")}, m - 1,
               batch);
}
ExperimentSpec ring(int n, std::uint64_t hops, std::uint32_t batch) {
  std::vector<std::string> stages, streams;
  for (int i = 0; i < n; ++i) {
    stages.push_back(stage("r" + std::to_string(i), i == 0 ? "token" : "hop"));
    streams.push_back(
        stream("\"r" + std::to_string(i) + "\"", "\"r" + std::to_string((i + 1) % n) + "\""));
  }
  return graph(stages, streams, hops, batch);
}

RunOptions checked() {
  RunOptions o;
  o.telemetry = false;
  o.check_invariants = true;
  o.collect_outputs = true;
  return o;
}

// Runs to the end (or fails the test after 60 s instead of hanging).
void run_to_end(Runtime& rt) {
  rt.start();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!rt.finished() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_TRUE(rt.finished()) << "the run did not end within 60 s";
  rt.join();
}

void expect_exactly_once(const Runtime& rt, std::uint64_t items) {
  EXPECT_EQ(rt.items_completed(), items);
  EXPECT_EQ(rt.checks().count_delivered(1), items);
}

TEST(PhaserRuntime, PipelineWithAvgAndAbsMatchesASequentialRun) {
  const std::uint64_t items = test_build::kUnderTsan ? 500 : 5000;
  for (std::uint32_t batch : {1u, 7u, 64u}) {
    PhaserRuntime rt(avg_pipeline(items, batch), checked());
    run_to_end(rt);
    expect_exactly_once(rt, items);
    const std::vector<phaser::Value> want = sink_values(rt.spec());
    for (std::uint64_t i = 0; i < items; ++i) {
      ASSERT_EQ(phaser::Value(rt.checks().outputs()[i]), want[i])
          << "batch " << batch << " i " << i;
    }
  }
}

TEST(PhaserRuntime, SplitJoinSumsEqualASequentialSum) {
  const std::uint64_t items = test_build::kUnderTsan ? 400 : 4000;
  for (std::uint32_t batch : {1u, 16u}) {
    PhaserRuntime rt(split_join(items, batch, 4), checked());
    run_to_end(rt);
    expect_exactly_once(rt, items);
    const std::vector<phaser::Value> want = sink_values(rt.spec());
    phaser::Value got_sum = 0, want_sum = 0;
    for (std::uint64_t i = 0; i < items; ++i) {
      got_sum += phaser::Value(rt.checks().outputs()[i]);
      want_sum += want[i];
      ASSERT_EQ(phaser::Value(rt.checks().outputs()[i]), want[i]) << "batch " << batch;
    }
    EXPECT_EQ(got_sum, want_sum);
  }
}

TEST(PhaserRuntime, BranchedGraphMatchesASequentialRun) {
  const std::uint64_t items = test_build::kUnderTsan ? 300 : 3000;
  PhaserRuntime rt(branched(items, 8), checked());
  run_to_end(rt);
  expect_exactly_once(rt, items);
  const std::vector<phaser::Value> want = sink_values(rt.spec());
  for (std::uint64_t i = 0; i < items; ++i)
    ASSERT_EQ(phaser::Value(rt.checks().outputs()[i]), want[i]);
}

TEST(PhaserRuntime, SieveFindsThePrimesOfASequentialSieve) {
  const std::vector<std::uint64_t> ms = test_build::kUnderTsan
                                            ? std::vector<std::uint64_t>{2, 97, 500}
                                            : std::vector<std::uint64_t>{2, 3, 100, 1000, 7919};
  for (std::uint64_t m : ms) {
    for (std::uint32_t batch : {1u, 8u}) {
      PhaserRuntime rt(sieve(m, batch), checked());
      run_to_end(rt);
      const std::vector<phaser::Value> want = primes_through(phaser::Value(m));
      EXPECT_EQ(rt.primes(), want) << "M " << m << " batch " << batch;
      expect_exactly_once(rt, m - 1);
      // Every integer left once: at the sink as a prime, or at the filter of a factor.
      for (std::uint64_t n = 2; n <= m; ++n) {
        const bool prime = std::find(want.begin(), want.end(), phaser::Value(n)) != want.end();
        ASSERT_EQ(rt.checks().outputs()[n - 2], prime ? n : 0) << "M " << m << " n " << n;
      }
      // source + sink + one task per prime + the last, empty tail.
      EXPECT_EQ(rt.tasks_spawned(), 2 + want.size() + 1);
      EXPECT_FALSE(rt.stalled());
    }
  }
}

TEST(PhaserRuntime, ThreadRingCompletesWithBatchingRequested) {
  const std::uint64_t hops = test_build::kUnderTsan ? 2000 : 20000;
  PhaserRuntime rt(ring(8, hops, 64), checked());
  run_to_end(rt);
  EXPECT_FALSE(rt.stalled()) << rt.stall_message();
  expect_exactly_once(rt, hops);
  EXPECT_EQ(rt.cyclic_streams(), 8u);  // every ring stream turned non-batched
  for (std::uint32_t k = 0; k < 8; ++k) {
    EXPECT_EQ(rt.board().stream(k, telemetry::PhaserBoard::kFlags),
              telemetry::PhaserBoard::kCyclicFlag);
  }
}

TEST(PhaserRuntime, RingBatchedAlwaysStallsAndIsStopped) {
  ExperimentSpec spec = ring(4, 1000, 64);
  spec.batching = Batching::kAlways;  // no cycle detection: the token sits in a batch
  PhaserRuntime rt(spec, checked());
  run_to_end(rt);
  EXPECT_TRUE(rt.stalled());
  EXPECT_TRUE(rt.board().stalled());
  EXPECT_LT(rt.items_completed(), 1000u);
  EXPECT_EQ(rt.stall_message().rfind("stalled: no task can run, 4 tasks wait forever (r0 waits for "
                                     "phase 0 of streams[3]",
                                     0),
            0u)
      << rt.stall_message();
}

TEST(PhaserRuntime, TheBoundHoldsAtEveryPublishAndWait) {
  RunOptions o;
  o.ring_capacity = 1 << 16;
  for (std::uint32_t batch : {1u, 4u}) {
    ExperimentSpec spec = split_join(test_build::kUnderTsan ? 300 : 3000, batch, 3);
    spec.bound = 2;
    PhaserRuntime rt(spec, o);
    run_to_end(rt);
    std::uint64_t enqueues = 0, dequeues = 0;
    std::vector<telemetry::Event> events(o.ring_capacity);
    for (std::uint32_t w = 0; w < rt.telemetry().workers(); ++w) {
      const std::size_t n = rt.telemetry().ring(w).pop_into(events.data(), events.size());
      EXPECT_EQ(rt.telemetry().ring(w).dropped(), 0u);
      for (std::size_t i = 0; i < n; ++i) {
        const telemetry::Event& e = events[i];
        if (e.kind == telemetry::EventKind::kEnqueue) ++enqueues;
        if (e.kind == telemetry::EventKind::kDequeue) ++dequeues;
        if (e.kind == telemetry::EventKind::kEnqueue || e.kind == telemetry::EventKind::kDequeue) {
          // #wait <= #signal <= #wait + bound, as the acting task saw it.
          ASSERT_LE(e.arg, 2u) << "batch " << batch;
        }
      }
    }
    EXPECT_GT(enqueues, 0u);
    EXPECT_GT(dequeues, 0u);
  }
}

TEST(PhaserRuntime, StopAndPauseMidRunLeaveNoThreadBehind) {
  ExperimentSpec spec = avg_pipeline(1'000'000, 1);
  for (auto& st : spec.stages) st.service.us = 20;
  PhaserRuntime rt(spec, RunOptions{});
  rt.start();
  while (rt.items_completed() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  rt.request_pause();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!rt.paused() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_TRUE(rt.paused());
  const std::uint64_t held = rt.items_completed();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(rt.items_completed(), held);  // nothing completes while paused
  rt.request_resume();
  while (rt.items_completed() == held) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  rt.request_cancel();
  const auto t0 = std::chrono::steady_clock::now();
  while (!rt.finished()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
  rt.join();
  EXPECT_LT(rt.items_completed(), 1'000'000u);
  // And it runs again from scratch.
  ExperimentSpec small = avg_pipeline(200, 4);
  PhaserRuntime again(small, checked());
  run_to_end(again);
  expect_exactly_once(again, 200);
}

TEST(PhaserRuntime, TasksOutnumberThreadsAndEachThreadRunsMany) {
  // The sieve to 2000: 305 tasks on two threads.
  PhaserRuntime rt(sieve(2000, 1), checked());
  run_to_end(rt);
  EXPECT_EQ(rt.tasks_spawned(), 2u + 303u + 1u);
  std::vector<std::uint32_t> per_thread(2, 0);
  for (std::uint32_t t = 0; t < rt.board().tasks(); ++t) {
    const std::uint32_t thread = rt.board().task(t, telemetry::PhaserBoard::kThread);
    ASSERT_LT(thread, 2u);
    ++per_thread[thread];
    EXPECT_EQ(rt.board().task(t, telemetry::PhaserBoard::kState),
              std::uint32_t(telemetry::BoardTaskState::kDone));
  }
  EXPECT_GT(per_thread[0] + per_thread[1], 300u);
}

}  // namespace
}  // namespace pipelab::pipeline
