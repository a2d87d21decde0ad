// FastForward: single-producer single-consumer ring where the slot itself says whether it is full.
//
// Roles: one producer thread calls try_push, one consumer thread calls try_pop (debug builds abort
//   when a second thread takes either role: role_guard.hpp). Construction and destruction happen
//   with no concurrent caller.
// Invariant: each slot carries a `full` flag. The producer writes slot `head` only when its flag
//   is clear, then sets it; the consumer reads slot `tail` only when its flag is set, then clears
//   it. Neither index is shared: each side reads only its own index and the flag of the slot it
//   is about to use, so a steady stream moves no index line between the cores — the cost left is
//   the slot line itself, which both cores touch when they work on nearby slots.
// Capacity rule: any number of items in [1, 2^30]; every slot is usable (no slot is kept empty,
//   unlike Lamport's ring, because "empty" is read from the slot, not from the two indices).
// Memory orders: the producer's release store of `full` after constructing the item pairs with
//   the consumer's acquire load before reading it; the consumer's release store clearing `full`
//   after moving the item out pairs with the producer's acquire load before reusing the slot.
// Source: Giacomoni, Moseley, Vachharajani, "FastForward for Efficient Pipeline Parallelism: A
//   Cache-Optimized Concurrent Lock-Free Queue" (PPoPP 2008). Departures: the paper marks an empty
//   slot with a NULL pointer (its items are pointers); a generic T needs the flag beside it, so a
//   slot of 8-byte items is 16 bytes and four share a line. The paper's "temporal slipping" (the
//   consumer delays itself to stay a few lines behind the producer) is not done: near empty, the
//   two threads share the line they work on, which is exactly what the BatchQueue paper (seed 001,
//   §V) holds against it and what the benchmark and the lesson's race show.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>

#include "pipelab/cacheline.hpp"
#include "pipelab/queues/queue_support.hpp"
#include "pipelab/queues/role_guard.hpp"

namespace pipelab::queues {

template <typename T>
class FastForwardQueue {
  static_assert(kQueueableItem<T>, "items must copy in and move out without throwing");
  static_assert(alignof(T) <= kPrefetchPairBytes, "slots are aligned to prefetch pairs only");

 public:
  static constexpr std::size_t kMaxCapacity = std::size_t{1} << 30;

  explicit FastForwardQueue(std::size_t capacity)
      : slot_count_(validated(capacity)), storage_(slot_count_ * sizeof(Slot)) {
    static_assert(offsetof(FastForwardQueue, consumer_) - offsetof(FastForwardQueue, producer_) >=
                  kPrefetchPairBytes);
    slots_ = reinterpret_cast<Slot*>(storage_.data());
    for (std::size_t i = 0; i < slot_count_; ++i) ::new (static_cast<void*>(slots_ + i)) Slot();
  }

  ~FastForwardQueue() {
    for (std::size_t i = 0; i < slot_count_; ++i) {
      if constexpr (!std::is_trivially_destructible_v<T>) {
        if (slots_[i].full.load(std::memory_order_relaxed)) slots_[i].item()->~T();
      }
      slots_[i].~Slot();
    }
  }

  FastForwardQueue(const FastForwardQueue&) = delete;
  FastForwardQueue& operator=(const FastForwardQueue&) = delete;

  std::size_t capacity() const noexcept { return slot_count_; }

  // Producer. Fails when the slot at head still holds an item: the ring is full.
  [[nodiscard]] bool try_push(const T& item) noexcept {
    roles_.producer("FastForwardQueue");
    Slot& slot = slots_[producer_.head];
    // Acquire: the consumer's move out of this slot finished before we construct into it.
    if (slot.full.load(std::memory_order_acquire)) return false;
    ::new (static_cast<void*>(slot.storage)) T(item);
    slot.full.store(1, std::memory_order_release);
    producer_.head = advance(producer_.head);
    return true;
  }

  // Consumer. Fails when the slot at tail is empty.
  [[nodiscard]] bool try_pop(T& out) noexcept {
    roles_.consumer("FastForwardQueue");
    Slot& slot = slots_[consumer_.tail];
    // Acquire: the producer's construction of the item is visible before we read it.
    if (!slot.full.load(std::memory_order_acquire)) return false;
    T* const item = slot.item();
    out = std::move(*item);
    item->~T();
    slot.full.store(0, std::memory_order_release);
    consumer_.tail = advance(consumer_.tail);
    return true;
  }

 private:
  struct Slot {
    std::atomic<std::uint32_t> full{0};  // 1: holds an item the consumer has not taken yet
    alignas(T) unsigned char storage[sizeof(T)];
    T* item() noexcept { return std::launder(reinterpret_cast<T*>(storage)); }
  };
  // Each side's index, on its own prefetch pair: private to its thread, never read by the other.
  struct alignas(kPrefetchPairBytes) ProducerIndex {
    std::size_t head = 0;  // next slot to fill
  };
  struct alignas(kPrefetchPairBytes) ConsumerIndex {
    std::size_t tail = 0;  // next slot to empty
  };

  static std::size_t validated(std::size_t capacity) {
    if (capacity < 1 || capacity > kMaxCapacity) {
      throw_bad_capacity("FastForwardQueue", capacity, "a number of items in [1, 1073741824]");
    }
    return capacity;
  }

  std::size_t advance(std::size_t index) const noexcept {
    return index + 1 == slot_count_ ? 0 : index + 1;
  }

  // Read-only after construction.
  const std::size_t slot_count_;
  PairAlignedBytes storage_;
  Slot* slots_ = nullptr;
  ProducerIndex producer_;
  ConsumerIndex consumer_;
  [[no_unique_address]] SpscRoles roles_;  // debug builds only; last, so no offset above moves
};

}  // namespace pipelab::queues
