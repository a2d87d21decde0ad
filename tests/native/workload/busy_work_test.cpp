// Calibrated busy work (workload/busy_work.hpp) on every target (native, TSan, wasm under Node).
// - The process's first calibration serves targets that are not short, and agrees with a later
//   calibration. In wasm the first one runs while the module is still in V8's baseline tier; the
//   old calibration measured that slower code, so every later (optimized) service ran short: by
//   ~10% in the pipeline bench, by up to 40% in this test program. Both checks use the fastest of
//   many timings, which load cannot shorten (it only stretches a timing). But a VM's host may run
//   the same loop at another speed a moment later: on one 2-vCPU VM (2026-11-28) calibrations in
//   one process came out at 394, 414 and 414 iterations/µs, and across processes at 377, 394 and
//   414, so a single later calibration missed the first by 4.2% in 4 of 30 wasm runs. Hence
//   "not more than 5% short" retries after pauses, and "not more than 4% below" holds when ANY of
//   up to 9 later calibrations agrees: both still fail for a calibration that measured slower
//   code than the services run, which no later calibration matches.
// - The achieved time per call is within 15% of the target, from 5 µs up: the median of 201
//   samples by this test's own clock, and measure_us_per_call() (what benchmarks record). Generous
//   because this 2-core VM is shared: load stretches whole measurements, so a measurement that
//   misses is repeated after a pause (up to 5 times, never by recalibrating). A sample times
//   back-to-back spins worth ~100 µs, so a clock read (about a µs in wasm, where it goes through
//   performance.now()) does not count as part of a 5 µs spin.
#include "pipelab/workload/busy_work.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <thread>
#include <vector>

namespace pipelab::workload {
namespace {

using Clock = std::chrono::steady_clock;

constexpr double kTolerance = 0.15;
constexpr double kShortTolerance = 0.05;
constexpr double kCalibrationsAgree = 0.04;
constexpr std::size_t kLaterCalibrations = 9;
constexpr double kTargetsUs[] = {5.0, 20.0, 100.0, 500.0};

// Measures up to 5 times, pausing between tries; fails when none lands in [lo, hi] x target.
void expect_within(const std::function<double()>& measure, double target_us, double lo, double hi,
                   const char* how) {
  double got = 0;
  for (int attempt = 0; attempt < 5; ++attempt) {
    if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(100 * attempt));
    got = measure();
    if (got >= lo * target_us && got <= hi * target_us) return;
  }
  ADD_FAILURE() << how << ": " << got << " µs for a " << target_us << " µs target (allowed "
                << lo * target_us << ".." << hi * target_us << "), 5 tries";
}

// First in this file (and its suite), so `first` is the first calibration of the process.
TEST(BusyWork, FirstCalibrationIsNotShortAndAgreesWithLaterOnes) {
  const BusyWork first;
  // Services run for a while before a run is measured: in wasm, long enough to be optimized.
  volatile std::uint64_t sink = 0;
  for (const auto t0 = Clock::now(); Clock::now() - t0 < std::chrono::milliseconds(50);) {
    sink = first.spin_us(100, sink | 1);
  }
  for (double target : kTargetsUs) {
    expect_within([&] { return first.measure_us_per_call(target); }, target, 1 - kShortTolerance,
                  1 + kTolerance, "first calibration, fastest µs per call");
  }
  std::vector<double> later;
  bool agrees = false;
  while (!agrees && later.size() < kLaterCalibrations) {
    later.push_back(BusyWork().iterations_per_us());
    // One-sided: a first calibration of slower code (the baseline tier) comes out LOW. One that
    // comes out high is the host running faster for a moment: under TSan on this VM the first
    // read 498.8 iterations/µs and nine later ones 448.9-465.6, all within 0.35 s.
    agrees = first.iterations_per_us() / later.back() >= 1.0 - kCalibrationsAgree;
  }
  EXPECT_TRUE(agrees) << "first calibration " << first.iterations_per_us()
                      << " iterations/µs, more than " << kCalibrationsAgree * 100
                      << "% below every later one: " << ::testing::PrintToString(later);
}

double median_us(const BusyWork& busy, double target_us) {
  std::vector<double> samples;
  volatile std::uint64_t sink = 0;
  const int spins = std::max(1, int(100 / target_us));
  for (int i = 0; i < 201; ++i) {
    const auto t0 = Clock::now();
    for (int k = 0; k < spins; ++k) sink = busy.spin_us(target_us, sink | 1);
    samples.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / spins);
  }
  std::nth_element(samples.begin(), samples.begin() + 100, samples.end());
  return samples[100];
}

TEST(BusyWork, AchievedTimeIsWithinToleranceOfEveryTarget) {
  const BusyWork& busy = BusyWork::global();
  for (double target : kTargetsUs) {
    expect_within([&] { return median_us(busy, target); }, target, 1 - kTolerance, 1 + kTolerance,
                  "median spin");
    expect_within([&] { return busy.measure_us_per_call(target); }, target, 1 - kTolerance,
                  1 + kTolerance, "measure_us_per_call");
  }
  EXPECT_EQ(busy.measure_us_per_call(0), 0.0);
}

TEST(BusyWork, ZeroIsFreeAndIterationsScaleWithTime) {
  const BusyWork& busy = BusyWork::global();
  EXPECT_GT(busy.iterations_per_us(), 1.0);
  EXPECT_GT(busy.clock_tick_us(), 0.0);
  EXPECT_EQ(busy.spin_us(0, 7), 7u);
  EXPECT_EQ(busy.iterations_for_us(0), 0u);
  EXPECT_NEAR(double(busy.iterations_for_us(10)), 10 * busy.iterations_per_us(), 1.0);
}

}  // namespace
}  // namespace pipelab::workload
