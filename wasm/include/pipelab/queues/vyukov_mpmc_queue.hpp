// Bounded lock-free multi-producer multi-consumer queue (Vyukov's sequence-numbered ring).
//
// Roles: any number of producer threads call try_push and any number of consumer threads call
//   try_pop, concurrently. Construction and destruction happen with no concurrent caller.
// Invariant: cell i carries a sequence number. seq == pos means "free for the push at position
// pos";
//   seq == pos + 1 means "holds the item pushed at pos, ready for the pop at pos"; a pop sets
//   seq = pos + capacity, freeing the cell for the push one lap later. A thread claims a position
//   with a CAS on the shared enqueue (or dequeue) counter, then owns that cell alone.
// Capacity rule: a power of two in [2, 2^30] (the mask replaces a division; with one cell the
//   "full" and "ready" sequence numbers would coincide).
// Memory orders: the counters only hand out positions (relaxed CAS); the cell's sequence number
//   carries the data: release after writing (or reading) the item, acquire before reading
//   (writing).
// Source: Dmitry Vyukov, "Bounded MPMC queue" (1024cores.net, 2010).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>

#include "pipelab/cacheline.hpp"
#include "pipelab/queues/queue_support.hpp"

namespace pipelab::queues {

template <typename T>
class VyukovMpmcQueue {
  static_assert(kQueueableItem<T>, "items must copy in and move out without throwing");

 public:
  static constexpr std::size_t kMaxCapacity = std::size_t{1} << 30;

  // The smallest legal capacity (see the capacity rule) that holds n items.
  static constexpr std::size_t capacity_at_least(std::size_t n) noexcept {
    std::size_t c = 2;
    while (c < n) c <<= 1;
    return c;
  }

  explicit VyukovMpmcQueue(std::size_t capacity)
      : cells_(new Cell[validated(capacity)]), mask_(capacity - 1) {
    static_assert(offsetof(VyukovMpmcQueue, enqueue_pos_) - offsetof(VyukovMpmcQueue, cells_) >=
                  kPrefetchPairBytes);
    static_assert(offsetof(VyukovMpmcQueue, dequeue_pos_) -
                      offsetof(VyukovMpmcQueue, enqueue_pos_) >=
                  kPrefetchPairBytes);
    for (std::size_t i = 0; i < capacity; ++i) {
      cells_[i].sequence.store(i, std::memory_order_relaxed);
    }
  }

  ~VyukovMpmcQueue() {
    if constexpr (!std::is_trivially_destructible_v<T>) {
      const std::size_t end = enqueue_pos_.load(std::memory_order_relaxed);
      for (std::size_t pos = dequeue_pos_.load(std::memory_order_relaxed); pos != end; ++pos) {
        cells_[pos & mask_].item()->~T();
      }
    }
    delete[] cells_;
  }

  VyukovMpmcQueue(const VyukovMpmcQueue&) = delete;
  VyukovMpmcQueue& operator=(const VyukovMpmcQueue&) = delete;

  std::size_t capacity() const noexcept { return mask_ + 1; }

  // Any thread. Fails when every cell holds an item not yet popped.
  [[nodiscard]] bool try_push(const T& item) noexcept {
    std::size_t pos = enqueue_pos_.load(std::memory_order_relaxed);
    for (;;) {
      Cell& cell = cells_[pos & mask_];
      const std::size_t seq = cell.sequence.load(std::memory_order_acquire);
      const auto lag = static_cast<std::intptr_t>(seq) - static_cast<std::intptr_t>(pos);
      if (lag == 0) {
        // Relaxed: winning the CAS only reserves the cell; the sequence number publishes the item.
        if (enqueue_pos_.compare_exchange_weak(pos, pos + 1, std::memory_order_relaxed)) {
          ::new (static_cast<void*>(cell.storage)) T(item);
          cell.sequence.store(pos + 1, std::memory_order_release);
          return true;
        }
      } else if (lag < 0) {
        return false;  // the cell still holds the item from one lap ago: full
      } else {
        pos = enqueue_pos_.load(std::memory_order_relaxed);  // another producer took pos
      }
    }
  }

  // Any thread. Fails when no pushed item is ready.
  [[nodiscard]] bool try_pop(T& out) noexcept {
    std::size_t pos = dequeue_pos_.load(std::memory_order_relaxed);
    for (;;) {
      Cell& cell = cells_[pos & mask_];
      const std::size_t seq = cell.sequence.load(std::memory_order_acquire);
      const auto lag = static_cast<std::intptr_t>(seq) - static_cast<std::intptr_t>(pos + 1);
      if (lag == 0) {
        if (dequeue_pos_.compare_exchange_weak(pos, pos + 1, std::memory_order_relaxed)) {
          T* const item = cell.item();
          out = std::move(*item);
          item->~T();
          cell.sequence.store(pos + mask_ + 1, std::memory_order_release);
          return true;
        }
      } else if (lag < 0) {
        return false;  // the push for pos has not completed: empty (or a producer is mid-write)
      } else {
        pos = dequeue_pos_.load(std::memory_order_relaxed);  // another consumer took pos
      }
    }
  }

 private:
  struct Cell {
    std::atomic<std::size_t> sequence;
    alignas(T) unsigned char storage[sizeof(T)];
    T* item() noexcept { return std::launder(reinterpret_cast<T*>(storage)); }
  };

  static std::size_t validated(std::size_t capacity) {
    if (capacity < 2 || capacity > kMaxCapacity || (capacity & (capacity - 1)) != 0) {
      throw_bad_capacity("VyukovMpmcQueue", capacity, "a power of two in [2, 1073741824]");
    }
    return capacity;
  }

  // Read-only after construction, shared by all threads. A raw owning pointer keeps the class
  // standard-layout, so offsetof can check the layout above.
  Cell* const cells_;
  const std::size_t mask_;
  // Each counter is hammered by its own side; keep them out of each other's prefetch pair.
  alignas(kPrefetchPairBytes) std::atomic<std::size_t> enqueue_pos_{0};
  alignas(kPrefetchPairBytes) std::atomic<std::size_t> dequeue_pos_{0};
};

}  // namespace pipelab::queues
