// Lamport ring: the classic single-producer single-consumer ring, synchronising on every item.
//
// Roles: one producer thread calls try_push, one consumer thread calls try_pop (debug builds abort
//   when a second thread takes either role: role_guard.hpp).
// Invariant: slots [head_, tail_) hold items; one slot always stays empty so that head_ == tail_
//   means empty and tail_ + 1 == head_ (mod slots) means full. Only the producer writes tail_, only
//   the consumer writes head_, and each reads the other's index on EVERY operation: that read of a
//   line the other core keeps writing is the per-item coherence cost the later designs remove.
// Capacity rule: any number of items in [1, 2^30] (capacity + 1 slots).
// Memory orders: each side publishes its index with a release store after touching the slot and
//   reads the other's with an acquire load before touching it; its own index is read relaxed.
// Source: Leslie Lamport, "Specifying Concurrent Program Modules" (TOPLAS 1983), the wait-free
//   ring later used as the baseline of FastForward, MCRingBuffer and BatchQueue.
#pragma once

#include <atomic>
#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

#include "pipelab/cacheline.hpp"
#include "pipelab/queues/queue_support.hpp"
#include "pipelab/queues/role_guard.hpp"

namespace pipelab::queues {

// kIndexAlignBytes separates head_ from tail_: a prefetch pair in LamportQueue, packed in
// UnpaddedLamportQueue (lamport_queue_unpadded.hpp), which shows what padding does to indices
// that are truly shared (each side reads the other's on every call).
// The object starts a cache line in both layouts, so its field offsets say which lines they use.
template <typename T, std::size_t kIndexAlignBytes>
class alignas(kIndexAlignBytes > kCacheLineBytes ? kIndexAlignBytes
                                                 : kCacheLineBytes) BasicLamportQueue {
  static_assert(kQueueableItem<T>, "items must copy in and move out without throwing");

 public:
  static constexpr std::size_t kMaxCapacity = std::size_t{1} << 30;

  explicit BasicLamportQueue(std::size_t capacity)
      : slot_count_(validated(capacity) + 1), storage_(slot_count_ * sizeof(T)) {
    static_assert(offsetof(BasicLamportQueue, head_) - offsetof(BasicLamportQueue, tail_) >=
                  kIndexAlignBytes);
    slots_ = reinterpret_cast<T*>(storage_.data());
  }

  ~BasicLamportQueue() {
    if constexpr (!std::is_trivially_destructible_v<T>) {
      const std::size_t tail = tail_.load(std::memory_order_relaxed);
      for (std::size_t i = head_.load(std::memory_order_relaxed); i != tail; i = advance(i)) {
        std::launder(slots_ + i)->~T();
      }
    }
  }

  BasicLamportQueue(const BasicLamportQueue&) = delete;
  BasicLamportQueue& operator=(const BasicLamportQueue&) = delete;

  std::size_t capacity() const noexcept { return slot_count_ - 1; }

  // Where each part of the state sits in the object (bytes), for the lesson's false-sharing view:
  // the read-only slot count and pointer, and the two indices.
  struct Layout {
    std::size_t object_bytes, read_only, read_only_bytes, tail, head;
  };
  static Layout layout() noexcept {
    return {
        sizeof(BasicLamportQueue), offsetof(BasicLamportQueue, slot_count_),
        offsetof(BasicLamportQueue, slots_) + sizeof(T*) - offsetof(BasicLamportQueue, slot_count_),
        offsetof(BasicLamportQueue, tail_), offsetof(BasicLamportQueue, head_)};
  }

  [[nodiscard]] bool try_push(const T& item) noexcept {
    roles_.producer("LamportQueue");
    const std::size_t tail = tail_.load(std::memory_order_relaxed);
    const std::size_t next = advance(tail);
    // Acquire: the consumer's read of this slot finished before we overwrite it.
    if (next == head_.load(std::memory_order_acquire)) return false;
    ::new (static_cast<void*>(slots_ + tail)) T(item);
    tail_.store(next, std::memory_order_release);
    return true;
  }

  [[nodiscard]] bool try_pop(T& out) noexcept {
    roles_.consumer("LamportQueue");
    const std::size_t head = head_.load(std::memory_order_relaxed);
    // Acquire: the producer's write of this slot is visible before we read it.
    if (head == tail_.load(std::memory_order_acquire)) return false;
    T* const slot = std::launder(slots_ + head);
    out = std::move(*slot);
    slot->~T();
    head_.store(advance(head), std::memory_order_release);
    return true;
  }

 private:
  static std::size_t validated(std::size_t capacity) {
    if (capacity < 1 || capacity > kMaxCapacity) {
      throw_bad_capacity("LamportQueue", capacity, "a number of items in [1, 1073741824]");
    }
    return capacity;
  }

  std::size_t advance(std::size_t index) const noexcept {
    return index + 1 == slot_count_ ? 0 : index + 1;
  }

  // Read-only after construction.
  const std::size_t slot_count_;
  PairAlignedBytes storage_;
  T* slots_ = nullptr;
  alignas(kIndexAlignBytes) std::atomic<std::size_t> tail_{0};  // written by the producer
  alignas(kIndexAlignBytes) std::atomic<std::size_t> head_{0};  // written by the consumer
  [[no_unique_address]] SpscRoles roles_;  // debug builds only; last, so no offset above moves
};

template <typename T>
using LamportQueue = BasicLamportQueue<T, kPrefetchPairBytes>;

}  // namespace pipelab::queues
