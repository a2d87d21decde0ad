// RunTelemetry: everything a run exposes to readers — one Ring per worker, one StageCounters
// line per stage, the run clock and the on/off switch — at addresses that stay fixed for the
// object's lifetime (allocated once in the constructor, reset between runs), so the page can read
// them straight from wasm memory while workers write. Worker w writes only ring(w); counters take
// relaxed adds from any worker. reset() must not race with workers (call it between runs).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "pipelab/telemetry/event.hpp"
#include "pipelab/telemetry/ring.hpp"
#include "pipelab/telemetry/stage_counters.hpp"

namespace pipelab::telemetry {

class RunTelemetry {
 public:
  using Clock = std::chrono::steady_clock;

  RunTelemetry(std::uint32_t workers, std::uint32_t stages, std::uint32_t ring_capacity,
               bool enabled)
      : counters_(new StageCounters[stages]), stages_(stages), enabled_(enabled) {
    for (std::uint32_t w = 0; w < workers; ++w) {
      rings_.push_back(std::make_unique<Ring>(ring_capacity, w));
    }
  }

  void reset() noexcept {
    for (auto& r : rings_) r->reset();
    for (std::uint32_t s = 0; s < stages_; ++s) counters_[s].reset();
    t0_ = Clock::now();
  }

  double now_us() const noexcept {
    return std::chrono::duration<double, std::micro>(Clock::now() - t0_).count();
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
  std::vector<std::unique_ptr<Ring>> rings_;
  std::unique_ptr<StageCounters[]> counters_;
  std::uint32_t stages_;
  bool enabled_;
  Clock::time_point t0_ = Clock::now();
};

}  // namespace pipelab::telemetry
