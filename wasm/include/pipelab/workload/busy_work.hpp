// Calibrated busy work: real integer arithmetic (a dependent multiply-add chain the compiler
// cannot fold) for a target number of microseconds, with the iterations-per-µs rate measured at
// start-up. A stage's service time in the lessons is this loop, never a sleep: a sleeping thread
// frees its core, a busy one does not, and the models assume busy servers. The counting-threads
// experiment counts in units of the same loop. One class for every user, so a "µs of work" means
// the same everywhere.
//
// How it calibrates, and why:
// - The rate is the FASTEST of many timings, not their median (the counting experiment used to
//   take the median of 7): on a loaded machine every disturbance (another process, an interrupt,
//   a slower code tier still running in wasm) only ever makes a timing longer, so a median bakes
//   the load of the moment into every later service, which then runs short once the load goes.
//   The fastest timing is the undisturbed speed.
// - The one two-sided error, clock granularity, is kept under 1%: each timing lasts at least 100
//   ticks of the clock, measured first (native and Node: ~0.03-0.07 µs, so 200 µs chunks; a
//   cross-origin-isolated page: 5 µs, so 0.5 ms; a page that is not isolated: 100 µs, so 10 ms).
// - Every timing is a separate call of chain(), the one out-of-line loop spin_us() also calls,
//   after a 20 ms warm-up of such calls, in rounds until two rounds agree within 1%. This is the
//   wasm fix: V8 first runs a function in its baseline tier (Liftoff) and swaps optimized code in
//   for later CALLS only; a running call is never replaced. The old calibration timed a loop
//   inlined into ONE long call, so in wasm it measured baseline code (the first calibration of a
//   fresh module: 370-590 iterations/µs against ~615 optimized) and every later, optimized service
//   ran short (90.3 µs for a 100 µs target in the pipeline bench under Node; 101.8 natively).
//   The compiler may neither clone nor move chain() either: GCC had made a copy specialised for
//   calibration's constant argument, and natively services ran up to ~12% off.
// - measure_us_per_call() times spin_us() itself, so benchmarks can record the achieved µs per
//   call next to the target in each row.
// Thread roles: calibrate() before threads use the object (the constructor does; global()
// constructs on first use, thread-safe static init); everything else is const and callable from
// any thread (no shared writes but a relaxed sink).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>

// One copy of chain() for every caller: GCC's noipa forbids inlining, cloning (constant-argument
// specialisations) and deducing the function pure (which would let calls be moved or merged);
// clang 14 clones nothing by default, so noinline does there.
#if defined(__GNUC__) && !defined(__clang__)
#define PIPELAB_ONE_COPY __attribute__((noipa))
#else
#define PIPELAB_ONE_COPY __attribute__((noinline))
#endif

namespace pipelab::workload {

class BusyWork {
 public:
  using Clock = std::chrono::steady_clock;

  static constexpr double kMinChunkUs = 200;  // a calibration timing, at least
  static constexpr double kTicksPerChunk = 100;
  static constexpr double kWarmupUs = 20000;
  static constexpr int kChunksPerRound = 15;
  static constexpr int kMaxRounds = 8;
  static constexpr double kStableRatio = 0.01;  // two rounds this close end the calibration
  static constexpr int kAchievedTimings = 15;

  BusyWork() { calibrate(); }

  // The process-wide instance every stage and the counting experiment use.
  static BusyWork& global() {
    static BusyWork instance;
    return instance;
  }

  // The arithmetic: n steps of the chain starting from x; returns a value that depends on every
  // step, so callers keep it and the loop stays. Out of line on purpose: calibration and every
  // service run the same machine code (and, in wasm, the same tier of it).
  PIPELAB_ONE_COPY static std::uint64_t chain(std::uint64_t n, std::uint64_t x) noexcept {
    for (std::uint64_t i = 0; i < n; ++i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      x ^= x >> 29;
    }
    return x;
  }
  // chain(), skipping the call for no work (the counting experiment's 0 µs setting counts as
  // fast as it can).
  static std::uint64_t run_iterations(std::uint64_t n, std::uint64_t x = 1) noexcept {
    return n == 0 ? x : chain(n, x);
  }

  std::uint64_t iterations_for_us(double us) const noexcept {
    return us > 0 ? std::uint64_t(us * iterations_per_us_ + 0.5) : 0;
  }
  // Busy for ~us microseconds; returns the chain's value (callers fold it into their result).
  std::uint64_t spin_us(double us, std::uint64_t x = 1) const noexcept {
    return run_iterations(iterations_for_us(us), x);
  }

  double iterations_per_us() const noexcept { return iterations_per_us_; }
  // The clock's granularity as calibration measured it, in µs.
  double clock_tick_us() const noexcept { return tick_us_; }

  // The achieved service time: µs per spin_us(target_us) call as it runs undisturbed, timed now:
  // the fastest of kAchievedTimings timings of back-to-back calls, each timing at least a
  // calibration chunk long. The fastest, for the reason the calibration takes it: load only ever
  // lengthens a timing, so on a busy machine a median would report the load, not the service.
  // Takes about 15 x max(chunk, target_us). What benchmarks record next to the target.
  double measure_us_per_call(double target_us) const {
    if (target_us <= 0) return 0;
    const auto calls = std::uint64_t(std::max(1.0, std::ceil(chunk_us() / target_us)));
    double best = std::numeric_limits<double>::infinity();
    for (int t = 0; t < kAchievedTimings; ++t) {
      std::uint64_t x = 1;
      const auto t0 = Clock::now();
      for (std::uint64_t c = 0; c < calls; ++c) x = spin_us(target_us, x | 1);
      best = std::min(best, us_since(t0) / double(calls));
      keep(x);
    }
    return best;
  }

  // (Re-)measures the rate (see the top of this file); ~25-35 ms natively and under Node.
  void calibrate() {
    tick_us_ = measure_clock_tick_us();
    // Coarse rate: grow n until one call lasts a chunk.
    double rate = 0;
    for (std::uint64_t n = 1u << 10; rate == 0; n *= 2) {
      const double us = timed_chain(n);
      if (us >= chunk_us() || n >= (std::uint64_t(1) << 40)) rate = double(n) / std::max(us, 1e-3);
    }
    // Warm-up: many separate calls, so a wasm engine tiers chain() up before the rounds.
    const auto chunk = std::uint64_t(rate * chunk_us()) + 1;
    for (const auto t0 = Clock::now(); us_since(t0) < kWarmupUs;)
      keep(chain(chunk, opaque_start()));
    double previous = 0;
    for (int round = 0; round < kMaxRounds; ++round) {
      const double best = fastest_rate(std::uint64_t(rate * chunk_us()) + 1);
      rate = std::max(best, previous);
      if (previous > 0 && std::abs(best - previous) <= kStableRatio * previous) break;
      previous = best;
    }
    iterations_per_us_ = rate;
  }

 private:
  double chunk_us() const noexcept { return std::max(kMinChunkUs, kTicksPerChunk * tick_us_); }

  static double us_since(Clock::time_point t0) noexcept {
    return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
  }

  // The smallest step the clock takes: the least of 5 whole ticks (a preemption only lengthens).
  static double measure_clock_tick_us() noexcept {
    double best = std::numeric_limits<double>::infinity();
    for (int i = 0; i < 5; ++i) {
      const auto start = Clock::now();
      auto edge = Clock::now();
      while (edge == start) edge = Clock::now();  // the clock just changed: a tick's edge
      auto next = Clock::now();
      while (next == edge) next = Clock::now();  // the next change, one whole tick later
      best = std::min(best, std::chrono::duration<double, std::micro>(next - edge).count());
    }
    return best;
  }

  double timed_chain(std::uint64_t n) {
    const std::uint64_t x = opaque_start();
    const auto t0 = Clock::now();
    keep(chain(n, x));
    return us_since(t0);
  }

  // Iterations per µs of the fastest of kChunksPerRound timings of `n` iterations each.
  double fastest_rate(std::uint64_t n) {
    double best = 0;
    for (int i = 0; i < kChunksPerRound; ++i) {
      const double us = timed_chain(n);
      if (us > 0) best = std::max(best, double(n) / us);
    }
    return best;
  }

  void keep(std::uint64_t x) const noexcept { sink_.fetch_xor(x, std::memory_order_relaxed); }
  // A start value the compiler cannot know, so no timed call can be computed ahead or merged.
  std::uint64_t opaque_start() const noexcept { return sink_.load(std::memory_order_relaxed) | 1; }

  double iterations_per_us_ = 1;
  double tick_us_ = 0;
  // Keeps calibration results alive (LLVM deletes loops whose results are never read).
  mutable std::atomic<std::uint64_t> sink_{0};
};

}  // namespace pipelab::workload
