// RunChecks: invariant monitors the tests read after a run (and the lessons may show): items in
// flight (max seen at admission), concurrent entries into a serial stage (oneTBB's test idea: a
// counter incremented on entry, decremented on exit, must be 0 on entry), serial-in-order stages
// seeing items out of input order, and each item's delivery count at the sink (exactly once).
// Any worker updates them with relaxed atomics: they are verdicts, they publish nothing.
// Only active when RunOptions::check_invariants (the monitors cost a few atomics per item).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace pipelab::pipeline {

class RunChecks {
 public:
  RunChecks(std::size_t stages, std::uint64_t items, bool collect)
      : active_(new std::atomic<int>[stages]),
        next_in_order_(new std::atomic<std::uint64_t>[stages]),
        stages_(stages) {
    if (collect) {
      delivered_ = std::make_unique<std::atomic<std::uint8_t>[]>(items);
      outputs_.resize(items);
    }
    items_ = collect ? items : 0;
    reset();
  }

  void reset() noexcept {
    for (std::size_t s = 0; s < stages_; ++s) {
      active_[s].store(0, std::memory_order_relaxed);
      next_in_order_[s].store(0, std::memory_order_relaxed);
    }
    for (std::uint64_t i = 0; i < items_; ++i) delivered_[i].store(0, std::memory_order_relaxed);
    max_in_flight_.store(0, std::memory_order_relaxed);
    serial_overlaps_.store(0, std::memory_order_relaxed);
    order_violations_.store(0, std::memory_order_relaxed);
  }

  void on_admit(std::uint64_t in_flight_now) noexcept {
    std::uint64_t m = max_in_flight_.load(std::memory_order_relaxed);
    while (in_flight_now > m &&
           !max_in_flight_.compare_exchange_weak(m, in_flight_now, std::memory_order_relaxed)) {
    }
  }
  void enter_serial(std::size_t stage, bool in_order, std::uint64_t item) noexcept {
    if (active_[stage].fetch_add(1, std::memory_order_relaxed) != 0) {
      serial_overlaps_.fetch_add(1, std::memory_order_relaxed);
    }
    if (in_order && next_in_order_[stage].fetch_add(1, std::memory_order_relaxed) != item) {
      order_violations_.fetch_add(1, std::memory_order_relaxed);
    }
  }
  void leave_serial(std::size_t stage) noexcept {
    active_[stage].fetch_sub(1, std::memory_order_relaxed);
  }
  // At the sink: counts the delivery and keeps the final value (collect mode only).
  void deliver(std::uint64_t item, std::uint64_t value) noexcept {
    if (item >= items_) return;
    delivered_[item].fetch_add(1, std::memory_order_relaxed);
    outputs_[item] = value;
  }

  std::uint64_t max_in_flight() const noexcept {
    return max_in_flight_.load(std::memory_order_relaxed);
  }
  std::uint64_t serial_overlaps() const noexcept {
    return serial_overlaps_.load(std::memory_order_relaxed);
  }
  std::uint64_t order_violations() const noexcept {
    return order_violations_.load(std::memory_order_relaxed);
  }
  // After join(): items delivered exactly once / not at all / more than once.
  std::uint64_t count_delivered(std::uint8_t times) const noexcept {
    std::uint64_t n = 0;
    for (std::uint64_t i = 0; i < items_; ++i) {
      n += delivered_[i].load(std::memory_order_relaxed) == times;
    }
    return n;
  }
  // After join(): the value each item left the last stage with.
  const std::vector<std::uint64_t>& outputs() const noexcept { return outputs_; }

 private:
  std::unique_ptr<std::atomic<int>[]> active_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> next_in_order_;
  std::unique_ptr<std::atomic<std::uint8_t>[]> delivered_;
  std::vector<std::uint64_t> outputs_;
  std::size_t stages_;
  std::uint64_t items_ = 0;
  std::atomic<std::uint64_t> max_in_flight_{0};
  std::atomic<std::uint64_t> serial_overlaps_{0};
  std::atomic<std::uint64_t> order_violations_{0};
};

}  // namespace pipelab::pipeline
