// Pause and resume, for every runtime kind (static, collapsed, oversubscribed, work-stealing, and
// the two-stage I/O runtimes): once every worker has acknowledged a pause (paused(), the
// paused-workers count equals the threads), no item completes and the run clock stands still;
// the stage counters are exact; the resumed run completes with every item exactly once and serial
// stages in order (RunChecks); elapsed_us() leaves the pause out; a pause requested right after
// start() is honoured as the threads arrive; cancel while paused ends every thread; and many quick
// pause/resume pairs neither lose nor duplicate an item nor hang. Waits are bounded polls on the
// runtime's own acknowledgements, never bare sleeps standing in for "long enough".
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <functional>
#include <string>
#include <thread>

#include "pipelab/pipeline/two_stage_io/input_runtime.hpp"
#include "pipelab/pipeline/two_stage_io/output_runtime.hpp"
#include "pipeline_test_support.hpp"

namespace pipelab::pipeline {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// Two-stage runs long enough (tenths of a second) to be paused after their first batch.
#if defined(PIPELAB_TEST_TSAN)
constexpr std::uint64_t kIoItems = 300000;
#elif defined(__EMSCRIPTEN__)
constexpr std::uint64_t kIoItems = 400000;
#else
constexpr std::uint64_t kIoItems = 1000000;  // the input's in-memory text budget
#endif

// Items at 50 µs per serial stage: the serial-in-order stages alone need 0.15 s, so a pause
// requested after the first item always lands mid-run.
constexpr std::uint64_t kItems = 3000;

// Polls `done` every 0.2 ms for up to 10 s (a loaded 2-core machine may starve a thread for a
// while; a hang still fails). Returns done().
bool wait_until(const std::function<bool()>& done) {
  const auto t0 = Clock::now();
  while (!done()) {
    if (Clock::now() - t0 > std::chrono::seconds(10)) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return true;
}

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

struct Kind {
  const char* label;
  RuntimeKind runtime;
  std::uint32_t par_threads;  // threads per parallel stage (static / collapsed)
};

// Oversubscribed: 1 + 4 + 1 + 4 + 1 = 11 threads, far more than the 2 cores here.
const Kind kKinds[] = {{"static", RuntimeKind::kStatic, 2},
                       {"collapsed", RuntimeKind::kCollapsed, 2},
                       {"oversubscribed", RuntimeKind::kStatic, 4},
                       {"work-stealing", RuntimeKind::kWorkStealing, 1}};

ExperimentSpec slow_spec(const Kind& k) {
  ExperimentSpec s = testing::mixed_spec(k.runtime, k.par_threads, kItems);
  for (auto& st : s.stages) st.service = ServiceSpec::fixed(50);
  s.threads = k.runtime == RuntimeKind::kWorkStealing ? 3 : 0;
  s.tokens = 6;
  s.queue.capacity = 4;
  return s;
}

// The invariants of a completed run (as run_and_check, for a runtime driven by hand).
void expect_conserved(const Runtime& rt, const std::string& label) {
  const RunChecks& c = rt.checks();
  EXPECT_EQ(rt.items_completed(), rt.spec().items) << label;
  EXPECT_EQ(c.count_delivered(1), rt.spec().items) << label << ": each item exactly once";
  EXPECT_EQ(c.serial_overlaps(), 0u) << label << ": serial stage ran concurrently with itself";
  EXPECT_EQ(c.order_violations(), 0u) << label << ": serial-in-order stage saw items out of order";
  if (rt.spec().runtime == RuntimeKind::kWorkStealing) {
    EXPECT_LE(c.max_in_flight(), rt.spec().tokens) << label;
  }
}

// Starts, waits for the first item out, pauses; true once every worker has parked.
bool start_and_pause_mid_run(Runtime& rt) {
  rt.start();
  if (!wait_until([&] { return rt.items_completed() > 0 || rt.finished(); })) return false;
  rt.request_pause();
  return wait_until([&] { return rt.paused() || rt.finished(); }) && rt.paused();
}

void finish(Runtime& rt) {
  EXPECT_TRUE(wait_until([&] { return rt.finished(); })) << "run did not end within 10 s";
  rt.join();
}

TEST(Pause, CompletedCountAndClockStopUntilResumeThenTheRunCompletes) {
  for (const Kind& k : kKinds) {
    auto rt = make_runtime(slow_spec(k), testing::checking());
    const auto start = Clock::now();
    ASSERT_TRUE(start_and_pause_mid_run(*rt)) << k.label << ": run ended before the pause";
    const auto paused_at = Clock::now();
    EXPECT_EQ(rt->paused_workers(), rt->thread_count()) << k.label;
    const std::uint64_t before = rt->items_completed();
    const double clock_before = rt->telemetry().now_us();
    std::this_thread::sleep_for(milliseconds(50));
    EXPECT_EQ(rt->items_completed(), before) << k.label << ": items completed while paused";
    EXPECT_EQ(rt->telemetry().now_us(), clock_before) << k.label << ": run clock moved";
    EXPECT_TRUE(rt->paused()) << k.label;
    EXPECT_FALSE(rt->finished()) << k.label;
    // Parked workers flushed their tallies: the last stage's counter is exact while paused.
    const std::uint32_t last = rt->telemetry().stages() - 1;
    EXPECT_EQ(rt->telemetry().counters(last).items_out.load(), before) << k.label;
    const double paused_ms = ms_since(paused_at);
    rt->request_resume();
    EXPECT_FALSE(rt->paused()) << k.label;
    finish(*rt);
    const double wall_us = ms_since(start) * 1000;
    expect_conserved(*rt, k.label);
    // The clock stopped no later than paused() turned true and ran again no earlier than the
    // resume request, so the run's elapsed time is at most wall time minus that interval.
    EXPECT_GT(rt->elapsed_us(), 0.0) << k.label;
    EXPECT_LE(rt->elapsed_us(), wall_us - paused_ms * 1000) << k.label << ": pause counted";
    std::printf("pause %s: paused at item %llu for %.1f ms; elapsed %.1f ms of %.1f ms wall\n",
                k.label, static_cast<unsigned long long>(before), paused_ms,
                rt->elapsed_us() / 1000, wall_us / 1000);
  }
}

#if !defined(__EMSCRIPTEN__)
// Parked workers block (futex) instead of spinning: the process uses little CPU while paused.
// Natively only: std::clock() is process CPU time on Linux, not in Emscripten.
TEST(Pause, PausedWorkersDoNotSpin) {
  const Kind& k = kKinds[2];  // 11 threads: spinning ones would use both cores fully
  auto rt = make_runtime(slow_spec(k));
  ASSERT_TRUE(start_and_pause_mid_run(*rt));
  const std::clock_t cpu0 = std::clock();
  const auto t0 = Clock::now();
  std::this_thread::sleep_for(milliseconds(200));
  const double cpu_ms = 1000.0 * double(std::clock() - cpu0) / CLOCKS_PER_SEC;
  const double wall_ms = ms_since(t0);
  std::printf("paused: %.1f ms CPU over %.1f ms wall\n", cpu_ms, wall_ms);
  EXPECT_LT(cpu_ms, wall_ms / 2) << "paused workers burn CPU";
  rt->request_cancel();
  finish(*rt);
}
#endif

TEST(Pause, RequestedRightAfterStartIsHonouredWhenTheThreadsArrive) {
  for (const Kind& k : kKinds) {
    auto rt = make_runtime(slow_spec(k), testing::checking());
    rt->start();
    rt->request_pause();
    ASSERT_TRUE(wait_until([&] { return rt->paused(); })) << k.label;
    const std::uint64_t before = rt->items_completed();
    std::this_thread::sleep_for(milliseconds(50));
    EXPECT_EQ(rt->items_completed(), before) << k.label;
    EXPECT_LT(before, kItems) << k.label;
    rt->request_resume();
    finish(*rt);
    expect_conserved(*rt, k.label);
  }
}

TEST(Pause, CancelWhilePausedEndsEveryThread) {
  for (const Kind& k : kKinds) {
    auto rt = make_runtime(slow_spec(k));
    ASSERT_TRUE(start_and_pause_mid_run(*rt)) << k.label;
    const auto t0 = Clock::now();
    rt->request_cancel();
    EXPECT_TRUE(wait_until([&] { return rt->finished(); })) << k.label;
    const double ms = ms_since(t0);
    std::printf("cancel while paused %s: all threads exited %.2f ms after the request\n", k.label,
                ms);
    EXPECT_LT(ms, 1000.0) << k.label;
    rt->join();
    EXPECT_TRUE(rt->cancelled());
    EXPECT_LT(rt->items_completed(), kItems) << k.label;
    // The same object runs again, unpaused, to completion.
    rt->start();
    finish(*rt);
    EXPECT_EQ(rt->items_completed(), kItems) << k.label;
  }
}

TEST(Pause, ManyQuickPausesAndResumesLoseNothing) {
  for (const Kind& k : kKinds) {
    auto rt = make_runtime(slow_spec(k), testing::checking());
    rt->start();
    int acknowledged = 0;
    for (int i = 0; i < 200 && !rt->finished(); ++i) {
      rt->request_pause();
      // Every 20th time wait for the acknowledgement; otherwise resume at once (or after a
      // moment), catching workers on their way in or out of the wait.
      if (i % 20 == 0) {
        acknowledged += wait_until([&] { return rt->paused() || rt->finished(); }) && rt->paused();
      } else if (i % 3 == 0) {
        std::this_thread::sleep_for(std::chrono::microseconds(100));
      }
      rt->request_pause();  // idempotent
      rt->request_resume();
      rt->request_resume();  // a no-op when not paused
    }
    finish(*rt);
    expect_conserved(*rt, k.label);
    EXPECT_GT(acknowledged, 0) << k.label;
    EXPECT_FALSE(rt->paused());
  }
}

// The two-stage I/O runtimes honour the same contract (batch boundaries instead of items).
template <typename Rt, typename Config>
void pause_io_run(const Config& config, const char* label, const std::function<void(Rt&)>& check) {
  Rt rt(config, testing::checking());
  ASSERT_TRUE(start_and_pause_mid_run(rt)) << label << ": run ended before the pause";
  EXPECT_EQ(rt.paused_workers(), rt.thread_count()) << label;
  const std::uint64_t before = rt.items_completed();
  std::this_thread::sleep_for(milliseconds(50));
  EXPECT_EQ(rt.items_completed(), before) << label;
  rt.request_resume();
  finish(rt);
  EXPECT_EQ(rt.items_completed(), rt.spec().items) << label;
  check(rt);
}

TEST(Pause, TwoStageIoRuntimesPauseAndComplete) {
  TwoStageOutputConfig out;
  out.threads = 3;
  out.batch_items = 1024;
  out.items = kIoItems;
  TwoStageOutputRuntime reference(out);
  reference.run();
  pause_io_run<TwoStageOutputRuntime>(out, "two-stage output", [&](TwoStageOutputRuntime& rt) {
    EXPECT_EQ(rt.checksum(), reference.checksum()) << "written text differs";
  });
  TwoStageInputConfig in;
  in.threads = 2;
  in.batch_records = 16;
  in.records = kIoItems;
  pause_io_run<TwoStageInputRuntime>(in, "two-stage input", [&](TwoStageInputRuntime& rt) {
    EXPECT_EQ(rt.checks().count_delivered(1), in.records) << "each record parsed exactly once";
  });
}

}  // namespace
}  // namespace pipelab::pipeline
