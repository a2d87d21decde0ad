// RunTelemetry: everything a run exposes to readers — one Ring per worker, one StageCounters
// line per stage, the run clock and the on/off switch — at addresses that stay fixed for the
// object's lifetime (allocated once in the constructor, reset between runs), so the page can read
// them straight from wasm memory while workers write. Worker w writes only ring(w); counters take
// relaxed adds from any worker. reset() must not race with workers (call it between runs).
// Service tallies (items in/out, busy µs) go first into a worker-private block and reach the
// shared stage lines at most every kTallyFlushUs (and when the worker exits or parks: the runtime
// calls flush_tally()): a shared line updated per item by every worker would bounce between cores
// and cost more than the 3% budget at 10 µs stages. So counters lag by up to ~1 ms; the rings
// carry the exact start/end times. The private blocks hold their counts inline and each starts its
// own prefetch pair (PaddedArray), so two workers' tallies never share a line.
// Run clock: now_us() is steady-clock µs since reset() MINUS the time the clock was stopped
// (stop_clock() .. restart_clock(), which the runtime calls while every worker is paused), so a
// pause leaves no gap in the timeline and items / now_us() is throughput over running time. While
// stopped, now_us() returns the instant it stopped. Stop/restart come from one thread at a time.
// Clock cost: the runtimes read it about twice per service, which is most of what telemetry costs.
// In wasm, steady_clock::now() is clock_gettime(), a JS call that reads emscripten_get_now() (the
// same monotonic source: performance.now(), hrtime in Node) and converts it to a timespec;
// steady_us() reads the source directly instead, ~40% cheaper per read (49 vs 81 ns in Node,
// fastest of 1,000-read batches). In a browser it goes further: pipelab_now_ms (wasm/src/clock.js)
// is performance.now itself, bound, so the import is the browser's function and not a JS
// wrapper around it, and the Worker's clock drift that emscripten_get_now() subtracts on every
// call is taken once per thread here. Natively it is steady_clock.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "pipelab/cacheline.hpp"
#include "pipelab/telemetry/event.hpp"
#include "pipelab/telemetry/ring.hpp"
#include "pipelab/telemetry/stage_counters.hpp"

#if defined(__EMSCRIPTEN__)
#include <emscripten/emscripten.h>
// wasm/src/clock.js: performance.now in a browser, emscripten_get_now under Node (ms), and what
// to subtract from it to share emscripten_get_now()'s origin across threads (ms).
extern "C" double pipelab_now_ms();
extern "C" double pipelab_clock_drift_ms();
#endif

namespace pipelab::telemetry {

// A run time a caller passes to say "no clock read to reuse: read the clock" (run times are >= 0).
inline constexpr double kReadClock = -1;

// Steady-clock µs since an arbitrary origin (see "Clock cost" above).
inline double steady_us() noexcept {
#if defined(__EMSCRIPTEN__)
  // The same time as emscripten_get_now(), with its per-call drift lookup done once per thread.
  thread_local const double drift_ms = pipelab_clock_drift_ms();
  return (pipelab_now_ms() - drift_ms) * 1000.0;
#else
  using Clock = std::chrono::steady_clock;
  return std::chrono::duration<double, std::micro>(Clock::now().time_since_epoch()).count();
#endif
}

class RunTelemetry {
 public:
  static constexpr double kTallyFlushUs = 1000;
  // Stages a worker's tally holds inline (the spec's limit; runtime.hpp checks they agree).
  static constexpr std::uint32_t kMaxStages = 16;

  RunTelemetry(std::uint32_t workers, std::uint32_t stages, std::uint32_t ring_capacity,
               bool enabled)
      : counters_(new StageCounters[validated(stages)]),
        tallies_(workers),
        stages_(stages),
        enabled_(enabled) {
    for (std::uint32_t w = 0; w < workers; ++w) {
      rings_.push_back(std::make_unique<Ring>(ring_capacity, w));
    }
  }

  // Worker `worker` only: one service of `stage` ended at now_us after busy_us. It served `items`
  // items (batch runtimes serve many at once) and handed on `outputs_per_item` items for each
  // (more than one for a stage that emits several per item).
  void tally_service(std::uint16_t worker, std::uint32_t stage, double busy_us, double now_us,
                     std::uint64_t items = 1, std::uint64_t outputs_per_item = 1) noexcept {
    Tally& t = tallies_[worker];
    t.items[stage] += items;
    t.outputs[stage] += items * outputs_per_item;
    t.busy_us[stage] += busy_us;
    if (now_us - t.last_flush_us >= kTallyFlushUs) flush_tally(worker, now_us);
  }
  // Worker `worker` only: time that counts no item — µs busy and µs idle at `stage` (the barrier
  // runtime computes and waits per interval and counts each interval once, not per thread).
  void tally_time(std::uint16_t worker, std::uint32_t stage, double busy_us, double idle_us,
                  double now_us) noexcept {
    Tally& t = tallies_[worker];
    t.busy_us[stage] += busy_us;
    t.idle_us[stage] += idle_us;
    if (now_us - t.last_flush_us >= kTallyFlushUs) flush_tally(worker, now_us);
  }
  // Worker `worker` only (or the controller after the worker has exited): its tallies so far go
  // to the stage counters.
  void flush_tally(std::uint16_t worker) noexcept { flush_tally(worker, now_us()); }
  void flush_tally(std::uint16_t worker, double now_us) noexcept {
    Tally& t = tallies_[worker];
    for (std::uint32_t s = 0; s < stages_; ++s) {
      StageCounters& c = counters_[s];
      if (t.items[s] != 0) {
        c.add(c.items_in, t.items[s]);
        c.add(c.items_out, t.outputs[s]);
        t.items[s] = 0;
        t.outputs[s] = 0;
      }
      // Whole µs only; the fraction stays: no drift over many short services.
      const auto busy = std::uint64_t(t.busy_us[s]);
      const auto idle = std::uint64_t(t.idle_us[s]);
      if (busy != 0) c.add(c.busy_us, busy);
      if (idle != 0) c.add(c.idle_us, idle);
      t.busy_us[s] -= double(busy);
      t.idle_us[s] -= double(idle);
    }
    t.last_flush_us = now_us;
  }

  void reset() noexcept {
    for (auto& r : rings_) r->reset();
    for (std::size_t w = 0; w < tallies_.size(); ++w) tallies_[w] = Tally{};
    for (std::uint32_t s = 0; s < stages_; ++s) counters_[s].reset();
    t0_us_ = steady_us();
    stopped_us_.store(0, std::memory_order_relaxed);
    frozen_us_.store(-1, std::memory_order_relaxed);
  }

  // Any thread. Acquire pairs with restart_clock(): who sees the clock running again also sees
  // the new stopped total, so run time never jumps forward by the pause.
  double now_us() const noexcept {
    const double frozen = frozen_us_.load(std::memory_order_acquire);
    if (frozen >= 0) return frozen;
    return raw_us() - stopped_us_.load(std::memory_order_acquire);
  }
  // Freezes now_us() at its current value (no-op if already stopped).
  void stop_clock() noexcept {
    if (frozen_us_.load(std::memory_order_relaxed) < 0) {
      frozen_us_.store(now_us(), std::memory_order_release);
    }
  }
  // Runs the clock again from the value it stopped at (no-op if running).
  void restart_clock() noexcept {
    const double frozen = frozen_us_.load(std::memory_order_relaxed);
    if (frozen < 0) return;
    stopped_us_.store(raw_us() - frozen, std::memory_order_release);
    frozen_us_.store(-1, std::memory_order_release);
  }

  // Worker `worker` only. A no-op when telemetry is off.
  void record(std::uint16_t worker, EventKind kind, std::uint8_t stage, std::uint32_t item,
              std::uint32_t arg = 0) noexcept {
    if (!enabled_) return;
    record_at(now_us(), worker, kind, stage, item, arg);
  }
  void record_at(double t_us, std::uint16_t worker, EventKind kind, std::uint8_t stage,
                 std::uint32_t item, std::uint32_t arg = 0) noexcept {
    if (!enabled_) return;
    rings_[worker]->push(Event{t_us, item, arg, worker, stage, kind, 0});
  }

  bool enabled() const noexcept { return enabled_; }
  std::uint32_t workers() const noexcept { return std::uint32_t(rings_.size()); }
  std::uint32_t stages() const noexcept { return stages_; }
  Ring& ring(std::uint32_t worker) noexcept { return *rings_[worker]; }
  StageCounters& counters(std::uint32_t stage) noexcept { return counters_[stage]; }
  // Base of the contiguous counter lines: stage s at counters_data() + 64 * s.
  const StageCounters* counters_data() const noexcept { return counters_.get(); }

 private:
  // One worker's unflushed counts, inline: no pointer to heap data that could share a line.
  struct Tally {
    std::uint64_t items[kMaxStages] = {};
    std::uint64_t outputs[kMaxStages] = {};
    double busy_us[kMaxStages] = {};
    double idle_us[kMaxStages] = {};
    double last_flush_us = 0;
  };
  static_assert(std::is_trivially_copyable_v<Tally>, "a tally owns no heap data");

  static std::uint32_t validated(std::uint32_t stages) {
    if (stages == 0 || stages > kMaxStages) {
      throw std::invalid_argument("telemetry stages: " + std::to_string(stages) +
                                  " is out of range (allowed 1.." + std::to_string(kMaxStages) +
                                  ")");
    }
    return stages;
  }

  double raw_us() const noexcept { return steady_us() - t0_us_; }

  std::vector<std::unique_ptr<Ring>> rings_;
  std::unique_ptr<StageCounters[]> counters_;
  PaddedArray<Tally> tallies_;  // one per worker, each on its own prefetch pair
  std::uint32_t stages_;
  bool enabled_;
  double t0_us_ = steady_us();
  std::atomic<double> stopped_us_{0};  // total µs spent stopped before the last restart
  std::atomic<double> frozen_us_{-1};  // run time at which the clock stopped; -1 while running
};

}  // namespace pipelab::telemetry
