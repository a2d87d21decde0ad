// Chase-Lev work-stealing deque of 32-bit task handles, fixed capacity.
//
// Thread roles: only the owner worker calls push() and pop() (LIFO end, "bottom"); any other
// worker calls steal() (FIFO end, "top"). Follows Lê, Pop, Cohen, Zappa Nardelli, "Correct and
// Efficient Work-Stealing for Weak Memory Models" (PPoPP 2013), the C11 version of Chase & Lev
// (SPAA 2005), with two departures: (1) no growth — the pipeline never has more tasks than
// tokens, so capacity is fixed at construction and push() reports full instead of resizing
// (no buffer reclamation problem); (2) bottom is published with a release store rather than a
// release fence + relaxed store, which is equivalent here and lets ThreadSanitizer (which does
// not model fences) see the hand-off of the task's data. The seq_cst fences in pop() and steal()
// are the paper's: they order the bottom store against the top load (the owner/thief race for
// the last element is then settled by the CAS on top).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace pipelab::sched {

class ChaseLevDeque {
 public:
  static constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;

  // capacity: at least the most tasks ever held; rounded up to a power of two.
  explicit ChaseLevDeque(std::size_t capacity) {
    if (capacity == 0 || capacity > (std::size_t(1) << 30)) {
      throw std::invalid_argument("ChaseLevDeque capacity " + std::to_string(capacity) +
                                  " is out of range (allowed 1..2^30)");
    }
    std::size_t cap = 1;
    while (cap < capacity) cap <<= 1;
    mask_ = std::int64_t(cap) - 1;
    slots_ = std::make_unique<std::atomic<std::uint32_t>[]>(cap);
  }

  // Owner only. False when full.
  [[nodiscard]] bool push(std::uint32_t task) noexcept {
    const std::int64_t b = bottom_.load(std::memory_order_relaxed);
    const std::int64_t t = top_.load(std::memory_order_acquire);
    if (b - t > mask_) return false;
    slots_[b & mask_].store(task, std::memory_order_relaxed);
    bottom_.store(b + 1, std::memory_order_release);
    return true;
  }

  // Owner only. kEmpty when there is nothing (or a thief took the last task).
  [[nodiscard]] std::uint32_t pop() noexcept {
    const std::int64_t b = bottom_.load(std::memory_order_relaxed) - 1;
    bottom_.store(b, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    std::int64_t t = top_.load(std::memory_order_relaxed);
    if (t > b) {
      bottom_.store(b + 1, std::memory_order_relaxed);
      return kEmpty;
    }
    std::uint32_t task = slots_[b & mask_].load(std::memory_order_relaxed);
    if (t == b) {
      // Last element: race the thieves for it through top.
      if (!top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst,
                                        std::memory_order_relaxed)) {
        task = kEmpty;
      }
      bottom_.store(b + 1, std::memory_order_relaxed);
    }
    return task;
  }

  // Any thread but the owner. kEmpty when empty or when it lost a race (callers just move on).
  [[nodiscard]] std::uint32_t steal() noexcept {
    std::int64_t t = top_.load(std::memory_order_acquire);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    const std::int64_t b = bottom_.load(std::memory_order_acquire);
    if (t >= b) return kEmpty;
    const std::uint32_t task = slots_[t & mask_].load(std::memory_order_relaxed);
    if (!top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst,
                                      std::memory_order_relaxed)) {
      return kEmpty;
    }
    return task;
  }

  // Approximate (racy by nature); for telemetry and tests only.
  std::int64_t size_approx() const noexcept {
    return bottom_.load(std::memory_order_relaxed) - top_.load(std::memory_order_relaxed);
  }
  std::size_t capacity() const noexcept { return std::size_t(mask_ + 1); }

 private:
  alignas(64) std::atomic<std::int64_t> top_{0};     // thieves' end
  alignas(64) std::atomic<std::int64_t> bottom_{0};  // owner's end
  alignas(64) std::int64_t mask_ = 0;
  std::unique_ptr<std::atomic<std::uint32_t>[]> slots_;
};

}  // namespace pipelab::sched
