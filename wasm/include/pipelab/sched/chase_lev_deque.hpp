// ChaseLevDeque: work-stealing deque of 32-bit task handles, fixed capacity.
//
// Roles: one owner thread calls push() and pop() (the LIFO end, bottom_); any other thread calls
//   steal() (the FIFO end, top_). Construction and destruction happen with no concurrent caller.
// Invariant: slots [top_, bottom_) (mod capacity) hold the tasks. top_ only grows, by a CAS (a
//   thief, or the owner racing the thieves for the last task); only the owner writes bottom_.
// Capacity rule: [1, 2^30] tasks, rounded up to a power of two. push() reports full instead of
//   growing: the pipeline never holds more tasks than tokens (and nothing is ever reclaimed).
// Memory orders: push() publishes the slot with a release store of bottom_ that steal()'s acquire
//   load pairs with (the paper has a release fence + relaxed store: equivalent here, and
//   ThreadSanitizer, which does not model fences, then sees the hand-off of the task's data). The
//   seq_cst fences in pop() and steal() are the paper's: they order the bottom_ store against the
//   top_ load, and the CAS on top_ settles the owner/thief race for the last task.
// Layout: top_ (CAS'd by thieves) and bottom_ (stored by the owner on every push and pop) sit a
//   prefetch pair apart (pipelab/cacheline.hpp), after the read-only mask and slot pointer: 64
//   bytes apart they would share one 128-byte pair, and the adjacent-line prefetcher would drag
//   the thieves' line into every owner operation and back. The constructor checks it (offsetof).
// Source: Lê, Pop, Cohen, Zappa Nardelli, "Correct and Efficient Work-Stealing for Weak Memory
//   Models" (PPoPP 2013), the C11 version of Chase & Lev (SPAA 2005). Departures: no growth, and
//   the release store of bottom_ above.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "pipelab/cacheline.hpp"

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
    // The read-only mask and slot pointer (at offset 0) are a pair away from top_, top_ from
    // bottom_.
    static_assert(offsetof(ChaseLevDeque, top_) >= kPrefetchPairBytes);
    static_assert(offsetof(ChaseLevDeque, bottom_) - offsetof(ChaseLevDeque, top_) >=
                  kPrefetchPairBytes);
    mask_ = std::int64_t(cap) - 1;
    slots_ = new std::atomic<std::uint32_t>[cap]();
  }
  ~ChaseLevDeque() { delete[] slots_; }
  ChaseLevDeque(const ChaseLevDeque&) = delete;
  ChaseLevDeque& operator=(const ChaseLevDeque&) = delete;

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
  // Read-only after construction, read by every thread. A raw owning pointer keeps the class
  // standard-layout, so offsetof can check the layout in the constructor.
  std::int64_t mask_ = 0;
  std::atomic<std::uint32_t>* slots_ = nullptr;
  alignas(kPrefetchPairBytes) std::atomic<std::int64_t> top_{0};     // thieves' end
  alignas(kPrefetchPairBytes) std::atomic<std::int64_t> bottom_{0};  // owner's end
};

}  // namespace pipelab::sched
