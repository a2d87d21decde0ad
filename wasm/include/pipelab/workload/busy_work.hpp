// Calibrated busy work: real integer arithmetic (a dependent multiply-add chain the compiler
// cannot fold) for a target number of microseconds, with the iterations-per-µs rate measured at
// start-up (the fastest of many ~200 µs timings, after a warm-up that lets wasm tier up and the
// CPU leave idle clocks). A stage's service time in the lessons is this loop, never a sleep: a
// sleeping thread frees its core, a busy one does not, and the models assume busy servers.
// Thread roles: calibrate() once before threads start (BusyWork::global() does it on first use,
// thread-safe static init); spin_us() from any thread, no shared writes.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>

namespace pipelab::workload {

class BusyWork {
 public:
  BusyWork() { calibrate(); }

  static BusyWork& global() {
    static BusyWork instance;
    return instance;
  }

  // The arithmetic itself; returns a value depending on every iteration so it can't be removed.
  static std::uint64_t run_iterations(std::uint64_t n, std::uint64_t x = 1) noexcept {
    for (std::uint64_t i = 0; i < n; ++i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      x ^= x >> 29;
    }
    return x;
  }

  // Busy for ~us microseconds; returns the chain's value (callers fold it into their result).
  std::uint64_t spin_us(double us, std::uint64_t x = 1) const noexcept {
    if (us <= 0) return x;
    return run_iterations(std::uint64_t(us * iterations_per_us_ + 0.5), x);
  }

  double iterations_per_us() const noexcept { return iterations_per_us_; }

  // Re-measures the rate: after a ~5 ms warm-up, the FASTEST of 31 timings of ~200 µs each.
  // Why the fastest, not the median: other processes only ever make a timing longer (a preempted
  // loop still counts wall time), so on a loaded machine every timing can be slow and a median
  // would under-estimate the rate, making every later service too short once the load goes.
  void calibrate() {
    using Clock = std::chrono::steady_clock;
    std::uint64_t n = 1u << 12;
    double rate = 0;
    // Warm-up and coarse estimate: grow n until one timing takes >= 1 ms.
    for (int guard = 0; guard < 30; ++guard) {
      const auto t0 = Clock::now();
      sink_.fetch_xor(run_iterations(n), std::memory_order_relaxed);
      const double us = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
      if (us >= 1000) {
        rate = double(n) / us;
        break;
      }
      n *= 2;
    }
    spin_for(rate, 5000);
    const auto sample = std::uint64_t(rate * 200) + 1;
    double best = 0;
    for (int i = 0; i < 31; ++i) {
      const auto t0 = Clock::now();
      sink_.fetch_xor(run_iterations(sample), std::memory_order_relaxed);
      const double us = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
      if (us > 0) best = std::max(best, double(sample) / us);
    }
    iterations_per_us_ = best > 0 ? best : rate;
  }

 private:
  void spin_for(double rate, double us) noexcept {
    sink_.fetch_xor(run_iterations(std::uint64_t(rate * us)), std::memory_order_relaxed);
  }

  double iterations_per_us_ = 1;
  // Keeps calibration loops alive (LLVM deletes loops whose results are never read).
  std::atomic<std::uint64_t> sink_{0};
};

}  // namespace pipelab::workload
