// Calibrated busy work: the median duration of many spins is close to the target from 5 µs up.
// Timing on 2 shared cores is noisy, so each target takes the median of 201 samples and may
// recalibrate and retry twice; the tight ±5% target is held by the benchmark, and this test uses
// ±5% natively, ±15% under TSan / wasm (their clocks and schedulers add overhead per call).
// A sample times back-to-back spins worth ~100 µs, so the clock read (about a µs in wasm, where
// it goes through performance.now()) does not count as part of a 5 µs spin.
#include "pipelab/workload/busy_work.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "support/thread_sanitizer.hpp"

namespace pipelab::workload {
namespace {

#if defined(PIPELAB_TEST_TSAN) || defined(__EMSCRIPTEN__)
constexpr double kTolerance = 0.15;
#else
constexpr double kTolerance = 0.05;
#endif

double median_us(BusyWork& busy, double target_us) {
  using Clock = std::chrono::steady_clock;
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

TEST(BusyWork, MedianWithinToleranceOfTarget) {
  BusyWork busy;
  for (double target : {5.0, 20.0, 100.0, 500.0}) {
    double got = 0;
    for (int attempt = 0; attempt < 3; ++attempt) {
      got = median_us(busy, target);
      if (std::abs(got - target) <= kTolerance * target) break;
      busy.calibrate();
    }
    EXPECT_NEAR(got, target, kTolerance * target) << "target " << target << " µs";
  }
}

TEST(BusyWork, ZeroIsFreeAndRateIsPositive) {
  EXPECT_GT(BusyWork::global().iterations_per_us(), 1.0);
  EXPECT_EQ(BusyWork::global().spin_us(0, 7), 7u);
}

}  // namespace
}  // namespace pipelab::workload
