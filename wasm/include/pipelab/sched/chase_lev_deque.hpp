// ChaseLevDeque: work-stealing deque of 32-bit task handles, fixed capacity.
//
// Roles: one owner thread calls push() and pop() (the LIFO end, bottom_); any other thread calls
//   steal() (the FIFO end, top_). Construction and destruction happen with no concurrent caller.
// Invariant: slots [top_, bottom_) (mod capacity) hold the tasks. top_ only grows, by a CAS (a
//   thief, or the owner racing the thieves for the last task); only the owner writes bottom_.
// Capacity rule: [1, 2^30] tasks, rounded up to a power of two. push() reports full instead of
//   growing: the pipeline never holds more tasks than tokens (and nothing is ever reclaimed).
// Memory orders: EVERY store of bottom_ is a release store, and steal()'s acquire load of it sees
//   every slot the owner wrote before. The paper publishes with a release fence + relaxed store in
//   push() and lowers bottom_ with relaxed stores in pop(); its fence also covers those later
//   stores (a release fence synchronizes through any later store of its thread). A release STORE
//   covers only itself (since C++20 a release sequence no longer takes in the thread's later plain
//   stores), so with push()'s release store the pop() stores must be release too: the model
//   checker (tests/native/sched/chase_lev_model_test.cpp) found a thief that read bottom_ from a
//   relaxed pop() store and then a stale slot. Release stores cost nothing on x86 and in wasm, and
//   ThreadSanitizer, which does not model fences, sees the hand-off of the task's data. The
//   seq_cst fences in pop() and steal() are the paper's: they order the bottom_ store against the
//   top_ load, and the CAS on top_ settles the owner/thief race for the last task. They go through
//   pipelab/sync.hpp: under ThreadSanitizer the fence is folded into seq_cst operations either
//   side of it, which TSan checks (natively and in wasm the fences stay).
// Sync: the atomics, fence style and test points (sync.hpp). Tests run this same code on the
//   model checker's atomics (every interleaving and weak-memory outcome of small programs), and
//   pause or yield at the ChaseLevPoint points to make the owner/thief races happen on purpose.
// Layout: top_ (CAS'd by thieves) and bottom_ (stored by the owner on every push and pop) sit a
//   prefetch pair apart (pipelab/cacheline.hpp), after the read-only mask and slot pointer: 64
//   bytes apart they would share one 128-byte pair, and the adjacent-line prefetcher would drag
//   the thieves' line into every owner operation and back. The constructor checks it (offsetof).
// Source: Lê, Pop, Cohen, Zappa Nardelli, "Correct and Efficient Work-Stealing for Weak Memory
//   Models" (PPoPP 2013), the C11 version of Chase & Lev (SPAA 2005). Departures: no growth, and
//   release stores of bottom_ in place of push()'s release fence (above).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "pipelab/cacheline.hpp"
#include "pipelab/sync.hpp"

namespace pipelab::sched {

// Where a test's Sync::point() is called: between the steps whose order decides a race.
enum class ChaseLevPoint {
  kPushSlotWritten,  // push: the slot is written, bottom_ not yet published
  kPopBottomStored,  // pop: bottom_ is lowered, top_ not yet read (the owner's side of the race)
  kStealTopRead,     // steal: top_ is read, bottom_ not yet
  kStealBeforeCas,   // steal: the task is read, the CAS on top_ not yet tried (the thief's side)
};

template <class Sync = sync::DefaultSync>
class BasicChaseLevDeque {
  template <class T>
  using Atomic = typename Sync::template Atomic<T>;

 public:
  static constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;

  // capacity: at least the most tasks ever held; rounded up to a power of two.
  explicit BasicChaseLevDeque(std::size_t capacity) {
    if (capacity == 0 || capacity > (std::size_t(1) << 30)) {
      throw std::invalid_argument("ChaseLevDeque capacity " + std::to_string(capacity) +
                                  " is out of range (allowed 1..2^30)");
    }
    std::size_t cap = 1;
    while (cap < capacity) cap <<= 1;
    // The read-only mask and slot pointer (at offset 0) are a pair away from top_, top_ from
    // bottom_.
    static_assert(offsetof(BasicChaseLevDeque, top_) >= kPrefetchPairBytes);
    static_assert(offsetof(BasicChaseLevDeque, bottom_) - offsetof(BasicChaseLevDeque, top_) >=
                  kPrefetchPairBytes);
    mask_ = std::int64_t(cap) - 1;
    slots_ = new Atomic<std::uint32_t>[cap]();
  }
  ~BasicChaseLevDeque() { delete[] slots_; }
  BasicChaseLevDeque(const BasicChaseLevDeque&) = delete;
  BasicChaseLevDeque& operator=(const BasicChaseLevDeque&) = delete;

  // Owner only. False when full.
  [[nodiscard]] bool push(std::uint32_t task) noexcept {
    const std::int64_t b = bottom_.load(std::memory_order_relaxed);
    const std::int64_t t = top_.load(std::memory_order_acquire);
    if (b - t > mask_) return false;
    slots_[b & mask_].store(task, std::memory_order_relaxed);
    Sync::point(ChaseLevPoint::kPushSlotWritten);
    bottom_.store(b + 1, std::memory_order_release);
    return true;
  }

  // Owner only. kEmpty when there is nothing (or a thief took the last task).
  [[nodiscard]] std::uint32_t pop() noexcept {
    const std::int64_t b = bottom_.load(std::memory_order_relaxed) - 1;
    bottom_.store(b, Sync::around(std::memory_order_release));
    Sync::point(ChaseLevPoint::kPopBottomStored);
    Sync::fence();
    std::int64_t t = top_.load(Sync::around(std::memory_order_relaxed));
    if (t > b) {
      bottom_.store(b + 1, std::memory_order_release);
      return kEmpty;
    }
    std::uint32_t task = slots_[b & mask_].load(std::memory_order_relaxed);
    if (t == b) {
      // Last element: race the thieves for it through top.
      if (!top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst,
                                        std::memory_order_relaxed)) {
        task = kEmpty;
      }
      bottom_.store(b + 1, std::memory_order_release);
    }
    return task;
  }

  // Any thread but the owner. kEmpty when empty or when it lost a race (callers just move on).
  [[nodiscard]] std::uint32_t steal() noexcept {
    std::int64_t t = top_.load(Sync::around(std::memory_order_acquire));
    Sync::point(ChaseLevPoint::kStealTopRead);
    Sync::fence();
    const std::int64_t b = bottom_.load(Sync::around(std::memory_order_acquire));
    if (t >= b) return kEmpty;
    const std::uint32_t task = slots_[t & mask_].load(std::memory_order_relaxed);
    Sync::point(ChaseLevPoint::kStealBeforeCas);
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
  Atomic<std::uint32_t>* slots_ = nullptr;
  alignas(kPrefetchPairBytes) Atomic<std::int64_t> top_{0};     // thieves' end
  alignas(kPrefetchPairBytes) Atomic<std::int64_t> bottom_{0};  // owner's end
};

using ChaseLevDeque = BasicChaseLevDeque<>;

}  // namespace pipelab::sched
