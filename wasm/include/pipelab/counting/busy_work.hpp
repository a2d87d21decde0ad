// Calibrated busy work for the counting-threads experiment: real arithmetic whose result is kept
// (a sink), so the compiler cannot delete it, calibrated once to iterations per microsecond.
// Thread roles: calibrate on one thread at construction; spin() is const and thread-safe.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <vector>

namespace pipelab::counting {

class BusyWork {
 public:
  using Clock = std::chrono::steady_clock;
  static Clock::duration micros(double us) {
    return std::chrono::duration_cast<Clock::duration>(
        std::chrono::duration<double, std::micro>(us));
  }

  BusyWork() { calibrate(); }

  // Runs `iterations` rounds of an xorshift step; the result goes to a relaxed sink so the loop
  // stays (LLVM deletes loops whose result is never read).
  void spin(std::uint64_t iterations) const noexcept {
    std::uint64_t x = 0x9E3779B97F4A7C15ull ^ iterations;
    for (std::uint64_t k = 0; k < iterations; ++k) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
    }
    if (x == 1)
      sink_.store(x, std::memory_order_relaxed);  // practically never true, never provable
  }

  std::uint64_t iterations_for_us(double us) const noexcept {
    return static_cast<std::uint64_t>(us * iterations_per_us_ + 0.5);
  }
  double iterations_per_us() const noexcept { return iterations_per_us_; }

 private:
  // Median of several timed rounds: one slow round (a preemption, wasm tier-up) must not skew it.
  void calibrate() {
    constexpr std::uint64_t kRound = 200000;
    std::vector<double> rates;
    for (int r = 0; r < 7; ++r) {
      const auto t0 = Clock::now();
      spin(kRound);
      const double us = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
      rates.push_back(kRound / std::max(us, 1e-3));
    }
    std::nth_element(rates.begin(), rates.begin() + 3, rates.end());
    iterations_per_us_ = rates[3];
  }

  double iterations_per_us_ = 1;
  mutable std::atomic<std::uint64_t> sink_{0};
};

}  // namespace pipelab::counting
