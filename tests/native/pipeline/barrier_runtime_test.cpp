// The barrier runtime (thread packing), checked from its telemetry under both schedules and both
// barriers: every logical thread arrives at and passes every interval's barrier exactly once, in
// order, and none passes before the last one arrived; computing stretches pair up and never overlap
// a pass; the packed schedule puts ceil(T/C) or floor(T/C) threads on each core and says so in
// every event; thread reduction and thread packing compute exactly the same work; a pause
// mid-interval parks every thread (sleepers at the barrier too) and a resume finishes the run;
// a cancel mid-interval leaves no thread behind and the runtime runs again; bad configuration is
// named.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <thread>
#include <vector>

#include "pipeline_test_support.hpp"

namespace pipelab::pipeline {
namespace {

using Clock = std::chrono::steady_clock;
using telemetry::Event;
using telemetry::EventKind;

constexpr std::uint64_t kIntervals = testing::kGoldItems / 100;  // 15 (TSan) .. 100

std::uint32_t cores_here() { return std::max(1u, std::thread::hardware_concurrency()); }

// `threads` threads, `per_thread_us` of work each per interval (the stage's service is the total).
ExperimentSpec barrier_spec(std::uint32_t threads, double per_thread_us, std::uint64_t intervals,
                            BarrierKind barrier, Schedule schedule, std::uint32_t cores = 0) {
  ExperimentSpec s;
  s.runtime = RuntimeKind::kBarrier;
  s.stages = {
      StageSpec{"compute", StageMode::kParallel, 1, ServiceSpec::fixed(per_thread_us * threads)}};
  s.threads = threads;
  s.items = intervals;
  s.seed = 3;
  s.barrier = barrier;
  s.schedule = schedule;
  s.quantum_us = 50;
  if (cores) s.cores = cores;
  return s;
}

RunOptions big_rings() {
  RunOptions o;
  o.ring_capacity = 1 << 15;  // holds a whole test run: nothing may be dropped
  return o;
}

// Every event of every logical thread's ring, after the run.
std::vector<std::vector<Event>> drain(BarrierRuntime& rt) {
  std::vector<std::vector<Event>> out(rt.spec().threads);
  for (std::uint32_t t = 0; t < rt.spec().threads; ++t) {
    auto& ring = rt.telemetry().ring(t);
    EXPECT_EQ(ring.dropped(), 0u) << "thread " << t;
    out[t].resize(ring.written());
    out[t].resize(ring.pop_into(out[t].data(), out[t].size()));
  }
  return out;
}

// The invariants of a completed run, from telemetry alone.
void check_run(BarrierRuntime& rt, const std::string& label) {
  const ExperimentSpec& s = rt.spec();
  EXPECT_EQ(rt.items_completed(), s.items) << label;
  EXPECT_EQ(rt.telemetry().counters(0).items_out.load(), s.items) << label;
  const auto events = drain(rt);
  std::vector<double> last_arrive(s.items, -1), first_pass(s.items, 1e300);
  for (std::uint32_t t = 0; t < s.threads; ++t) {
    const std::string who = label + " thread " + std::to_string(t);
    std::uint64_t arrived = 0, passed = 0;
    bool computing = false;
    double passed_at = 0;
    for (const Event& e : events[t]) {
      EXPECT_EQ(e.worker, t) << who;
      EXPECT_EQ(e.stage, 0) << who;
      EXPECT_EQ(e.arg, rt.packed() ? rt.core_of()[t] : telemetry::kNoCore) << who;
      switch (e.kind) {
        case EventKind::kStart:
          EXPECT_FALSE(computing) << who << ": start inside a computing stretch";
          EXPECT_EQ(e.item, passed) << who << ": computes interval " << e.item << " too early";
          EXPECT_GE(e.time_us, passed_at) << who;
          computing = true;
          break;
        case EventKind::kEnd:
          EXPECT_TRUE(computing) << who << ": end without start";
          computing = false;
          break;
        case EventKind::kBarrierArrive:
          EXPECT_FALSE(computing) << who;
          EXPECT_EQ(e.item, arrived) << who << ": arrivals out of order";
          EXPECT_EQ(arrived, passed) << who << ": arrived twice before passing";
          last_arrive[e.item] = std::max(last_arrive[e.item], e.time_us);
          ++arrived;
          break;
        case EventKind::kBarrierPass:
          EXPECT_EQ(e.item, passed) << who << ": passes out of order";
          EXPECT_EQ(arrived, passed + 1) << who << ": passed without arriving";
          first_pass[e.item] = std::min(first_pass[e.item], e.time_us);
          passed_at = e.time_us;
          ++passed;
          break;
        default:
          ADD_FAILURE() << who << ": unexpected event kind " << int(e.kind);
      }
    }
    EXPECT_EQ(arrived, s.items) << who << ": every interval's barrier, once";
    EXPECT_EQ(passed, s.items) << who;
  }
  for (std::uint64_t k = 0; k < s.items; ++k) {
    EXPECT_GE(first_pass[k], last_arrive[k])
        << label << ": a thread passed barrier " << k << " before the last one arrived";
  }
}

TEST(BarrierRuntime, EveryThreadPassesEveryBarrierOnceAndNoneEarly) {
  for (BarrierKind barrier : {BarrierKind::kSpin, BarrierKind::kBlocking}) {
    for (std::uint32_t threads : {1u, 2u, 3u}) {
      // Spinning threads that outnumber the cores wait a time slice per interval: few intervals.
      const std::uint64_t intervals =
          barrier == BarrierKind::kSpin && threads > cores_here() ? 10 : kIntervals;
      for (Schedule schedule : {Schedule::kOs, Schedule::kPacked}) {
        const std::uint32_t cores = schedule == Schedule::kPacked ? std::min(2u, cores_here()) : 0;
        BarrierRuntime rt(barrier_spec(threads, 200, intervals, barrier, schedule, cores),
                          big_rings());
        rt.run();
        check_run(rt, std::string(to_string(barrier)) + "/" + to_string(schedule) + " " +
                          std::to_string(threads) + " threads");
      }
    }
  }
}

TEST(BarrierRuntime, ReductionAndPackingComputeTheSameWork) {
  const std::uint32_t c = std::min(2u, cores_here());
  std::vector<std::uint64_t> totals;
  for (auto [threads, schedule] :
       std::vector<std::pair<std::uint32_t, Schedule>>{{c, Schedule::kOs},
                                                       {c + 1, Schedule::kOs},
                                                       {c + 1, Schedule::kPacked},
                                                       {2 * c, Schedule::kPacked}}) {
    // The same total work per interval whatever the thread count.
    ExperimentSpec s = barrier_spec(threads, 0, 20, BarrierKind::kBlocking, schedule, c);
    s.stages[0].service.us = 1200;
    BarrierRuntime rt(s);
    rt.run();
    EXPECT_EQ(rt.items_completed(), 20u);
    EXPECT_EQ(rt.work_iterations(), 20 * rt.iterations_per_interval()) << threads << " threads";
    totals.push_back(rt.work_iterations());
  }
  EXPECT_TRUE(std::all_of(totals.begin(), totals.end(), [&](auto t) { return t == totals[0]; }));
}

TEST(BarrierRuntime, PackedAssignmentIsCeilOrFloorPerCore) {
  for (std::uint32_t cores = 1; cores <= std::min(2u, cores_here()); ++cores) {
    for (std::uint32_t threads = 1; threads <= 9; ++threads) {
      BarrierRuntime rt(
          barrier_spec(threads, 200, 1, BarrierKind::kBlocking, Schedule::kPacked, cores));
      const std::uint32_t used = std::min(cores, threads);
      EXPECT_EQ(rt.thread_count(), used);
      std::map<std::uint32_t, std::uint32_t> per_core;
      for (std::uint32_t core : rt.core_of()) ++per_core[core];
      EXPECT_EQ(per_core.size(), used);
      std::uint32_t at_ceil = 0;
      for (auto [core, n] : per_core) {
        EXPECT_TRUE(n == threads / used || n == (threads + used - 1) / used)
            << threads << " threads on " << cores << " cores: core " << core << " has " << n;
        at_ceil += n == (threads + used - 1) / used && threads % used != 0;
      }
      EXPECT_EQ(at_ceil, threads % used) << threads << " on " << cores;
    }
  }
}

// Waits (polling, with a deadline) until `ready`; false on timeout.
template <typename F>
bool poll_until(F ready, double seconds) {
  const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
  while (!ready()) {
    if (Clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

std::uint64_t events_written(BarrierRuntime& rt) {
  std::uint64_t n = 0;
  for (std::uint32_t t = 0; t < rt.spec().threads; ++t) n += rt.telemetry().ring(t).written();
  return n;
}

// Packed 3 threads on 2 cores: core 1 has half the work, so it waits at the barrier for half of
// every interval (asleep, with the blocking barrier) — the pause and the cancel meet sleepers.
TEST(BarrierRuntime, PauseMidIntervalParksEveryThreadAndResumeFinishes) {
  for (BarrierKind barrier : {BarrierKind::kBlocking, BarrierKind::kSpin}) {
    const std::uint32_t c = std::min(2u, cores_here());
    BarrierRuntime rt(barrier_spec(c + 1, 3000, 12, barrier, Schedule::kPacked, c), big_rings());
    rt.start();
    ASSERT_TRUE(poll_until([&] { return rt.items_completed() >= 2; }, 20)) << to_string(barrier);
    rt.request_pause();
    ASSERT_TRUE(poll_until([&] { return rt.paused(); }, 20))
        << to_string(barrier) << ": not parked";
    const std::uint64_t done = rt.items_completed();
    const std::uint64_t written = events_written(rt);
    const double clock = rt.telemetry().now_us();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(rt.items_completed(), done)
        << to_string(barrier) << ": an interval ended while paused";
    EXPECT_EQ(events_written(rt), written) << to_string(barrier) << ": a thread ran while paused";
    EXPECT_EQ(rt.telemetry().now_us(), clock) << "the run clock moved while paused";
    EXPECT_LT(done, 12u);
    rt.request_resume();
    ASSERT_TRUE(poll_until([&] { return rt.finished(); }, 60)) << to_string(barrier);
    rt.join();
    check_run(rt, std::string("paused ") + to_string(barrier));
  }
}

// A hung or forgotten thread fails here (the deadline); the latency is printed, not asserted: the
// machine is shared and a thread may wait for a core.
TEST(BarrierRuntime, CancelMidIntervalLeavesNoThreadBehindAndRunsAgain) {
  for (BarrierKind barrier : {BarrierKind::kBlocking, BarrierKind::kSpin}) {
    for (Schedule schedule : {Schedule::kPacked, Schedule::kOs}) {
      const std::uint32_t c = std::min(2u, cores_here());
      BarrierRuntime rt(barrier_spec(c + 1, 3000, 100000, barrier, schedule, c));
      rt.start();
      ASSERT_TRUE(poll_until([&] { return rt.items_completed() >= 1; }, 20));
      std::this_thread::sleep_for(std::chrono::milliseconds(3));  // mid-interval
      const double ms = testing::cancel_and_time_exit_ms(rt);
      std::printf("cancel %s/%s: every thread exited %.2f ms after the request\n",
                  to_string(barrier), to_string(schedule), ms);
      EXPECT_LT(ms, 2000.0);
      EXPECT_TRUE(rt.cancelled());
      EXPECT_LT(rt.items_completed(), 100000u);
      // The same object runs again from a fresh barrier.
      rt.start();
      ASSERT_TRUE(poll_until([&] { return rt.items_completed() >= 1; }, 20));
      testing::cancel_and_time_exit_ms(rt);
    }
  }
}

TEST(BarrierRuntime, BadConfigurationIsNamed) {
  const std::uint32_t here = std::thread::hardware_concurrency();
  if (here != 0) {
    try {
      BarrierRuntime rt(
          barrier_spec(here + 2, 200, 1, BarrierKind::kBlocking, Schedule::kPacked, here + 1));
      ADD_FAILURE() << "packed onto more cores than the machine has";
    } catch (const SpecError& e) {
      EXPECT_EQ(e.path(), "cores");
      EXPECT_EQ(std::string(e.what()),
                "cores: " + std::to_string(here + 1) + " is more than this machine's " +
                    std::to_string(here) +
                    " cores (the packed schedule runs one thread per core; the simulation takes "
                    "larger budgets)");
    }
  }
  try {
    BarrierRuntime rt(barrier_spec(65, 200, 1, BarrierKind::kBlocking, Schedule::kOs));
    ADD_FAILURE() << "65 threads accepted";
  } catch (const SpecError& e) {
    EXPECT_STREQ(e.what(), "threads: 65 is out of range for the threads engine (allowed 1..64)");
  }
  EXPECT_THROW(BarrierRuntime(barrier_spec(2, 200, 1, BarrierKind::kSpin, Schedule::kPacked)),
               SpecError);  // packed onto how many cores?
  ExperimentSpec pipeline = testing::mixed_spec(RuntimeKind::kStatic, 1, 10);
  EXPECT_THROW(BarrierRuntime{pipeline}, SpecError);
  // make_runtime() picks it for the barrier kind.
  auto rt = make_runtime(barrier_spec(2, 200, 3, BarrierKind::kBlocking, Schedule::kOs));
  EXPECT_NE(dynamic_cast<BarrierRuntime*>(rt.get()), nullptr);
  rt->run();
  EXPECT_EQ(rt->items_completed(), 3u);
}

}  // namespace
}  // namespace pipelab::pipeline
