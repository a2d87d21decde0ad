// PageDrain: while a run goes, a thread does what the page does with telemetry (src/telemetry:
// once per animation frame, copy every record written since the last frame out of each worker's
// ring, through the ring's reader protocol), so "telemetry on" in the bench costs what it costs
// in the app: rings that are read, not rings that fill up and then only count drops.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "pipelab/telemetry/run_telemetry.hpp"

namespace pipelab::bench {

class PageDrain {
 public:
  static constexpr std::chrono::milliseconds kFrame{16};

  // Starts draining `telemetry` (when it is on) until destroyed; returns once the drain thread
  // runs. The page's drain (its animation frames) is going before a run starts, so starting this
  // thread is no part of what a run with telemetry costs; in wasm it is not cheap (pthread_create
  // goes through the main thread's event loop to a pool Worker), and a timed run that began
  // before it would pay for it.
  explicit PageDrain(telemetry::RunTelemetry& telemetry) : telemetry_(telemetry) {
    if (!telemetry_.enabled()) return;
    thread_ = std::thread([this] { loop(); });
    while (!running_.load(std::memory_order_acquire)) std::this_thread::yield();
  }
  ~PageDrain() {
    stop_.store(true, std::memory_order_release);
    if (thread_.joinable()) thread_.join();
  }
  PageDrain(const PageDrain&) = delete;
  PageDrain& operator=(const PageDrain&) = delete;

  std::uint64_t records() const noexcept { return records_; }  // after destruction: all read

 private:
  void loop() {
    std::vector<telemetry::Event> frame(4096);
    running_.store(true, std::memory_order_release);
    for (;;) {
      const bool last = stop_.load(std::memory_order_acquire);
      for (std::uint32_t w = 0; w < telemetry_.workers(); ++w) {
        std::size_t n;
        while ((n = telemetry_.ring(w).pop_into(frame.data(), frame.size())) > 0) records_ += n;
      }
      if (last) return;
      std::this_thread::sleep_for(kFrame);
    }
  }

  telemetry::RunTelemetry& telemetry_;
  std::atomic<bool> running_{false};
  std::atomic<bool> stop_{false};
  std::uint64_t records_ = 0;
  std::thread thread_;
};

}  // namespace pipelab::bench
