// Cached-index SPSC ring (FastForward / MCRingBuffer family), per item or with batched publication.
//
// Roles: one producer thread calls try_push and flush, one consumer thread calls try_pop (debug
//   builds abort when a second thread takes either role: role_guard.hpp).
// Invariant: as in the Lamport ring, slots [read_, write_) hold published items and one slot stays
//   empty. Each side keeps a private copy of the other side's index and re-reads the shared one
//   only when the copy says full (producer) or empty (consumer), so a steady stream touches the
//   other side's line about once per lap instead of once per item. With batch B > 1 each side also
//   publishes its own index only every B items (MCRingBuffer's batched control updates); a side
//   about to fail publishes what it holds first, so neither waits on the other's backlog.
// Capacity rule: capacity in [1, 2^30] items; batch in [1, capacity] (1: per-item publication).
// Memory orders: a side publishes its index with a release store after touching the slots, and
//   refreshes its copy of the other's index with an acquire load; its own indices are private.
// Source: Lee, Bu, Chandranmenon, "A Lock-Free, Cache-Efficient Multi-Core Synchronization
//   Mechanism for Line-Rate Network Traffic Monitoring" (MCRingBuffer, IPDPS 2010); Giacomoni,
//   Moseley, Vachharajani, "FastForward for Efficient Pipeline Parallelism" (PPoPP 2008).
#pragma once

#include <atomic>
#include <cstddef>
#include <new>
#include <string>
#include <type_traits>
#include <utility>

#include "pipelab/cacheline.hpp"
#include "pipelab/queues/queue_support.hpp"
#include "pipelab/queues/role_guard.hpp"

namespace pipelab::queues {

template <typename T>
class CachedSpscQueue {
  static_assert(kQueueableItem<T>, "items must copy in and move out without throwing");

 public:
  static constexpr std::size_t kMaxCapacity = std::size_t{1} << 30;

  // Per-item publication, like rigtorp::SPSCQueue.
  explicit CachedSpscQueue(std::size_t capacity) : CachedSpscQueue(capacity, 1) {}

  // Publishes each side's index every `batch` items; the producer's flush() publishes a partial
  // one.
  CachedSpscQueue(std::size_t capacity, std::size_t batch)
      : storage_((validated(capacity, batch) + 1) * sizeof(T)) {
    static_assert(offsetof(CachedSpscQueue, producer_) - offsetof(CachedSpscQueue, write_) >=
                  kPrefetchPairBytes);
    static_assert(offsetof(CachedSpscQueue, read_) - offsetof(CachedSpscQueue, producer_) >=
                  kPrefetchPairBytes);
    static_assert(offsetof(CachedSpscQueue, consumer_) - offsetof(CachedSpscQueue, read_) >=
                  kPrefetchPairBytes);
    T* const slots = reinterpret_cast<T*>(storage_.data());
    producer_ = {slots, capacity + 1, batch, 0, 0, 0};
    consumer_ = {slots, capacity + 1, batch, 0, 0, 0};
  }

  ~CachedSpscQueue() {
    if constexpr (!std::is_trivially_destructible_v<T>) {
      for (std::size_t i = consumer_.next; i != producer_.next; i = consumer_.advance(i)) {
        std::launder(consumer_.slots + i)->~T();
      }
    }
  }

  CachedSpscQueue(const CachedSpscQueue&) = delete;
  CachedSpscQueue& operator=(const CachedSpscQueue&) = delete;

  std::size_t capacity() const noexcept { return producer_.slot_count - 1; }
  std::size_t batch() const noexcept { return producer_.batch; }

  // Producer.
  [[nodiscard]] bool try_push(const T& item) noexcept {
    roles_.producer("CachedSpscQueue");
    Side& p = producer_;
    const std::size_t after = p.advance(p.next);
    if (after == p.other_cached) {
      // Acquire: the consumer's reads of the slots it released finished before we reuse them.
      p.other_cached = read_.load(std::memory_order_acquire);
      if (after == p.other_cached) {
        flush();  // let the consumer drain what we hold, or both sides could wait forever
        return false;
      }
    }
    ::new (static_cast<void*>(p.slots + p.next)) T(item);
    p.next = after;
    if (++p.unpublished == p.batch) flush();
    return true;
  }

  // Producer. Publishes every pushed item at once (never waits).
  void flush() noexcept {
    roles_.producer("CachedSpscQueue");
    producer_.unpublished = 0;
    write_.store(producer_.next, std::memory_order_release);
  }

  // Consumer.
  [[nodiscard]] bool try_pop(T& out) noexcept {
    roles_.consumer("CachedSpscQueue");
    Side& c = consumer_;
    if (c.next == c.other_cached) {
      // Acquire: the producer's writes of the published slots are visible before we read them.
      c.other_cached = write_.load(std::memory_order_acquire);
      if (c.next == c.other_cached) {
        release_read_slots();  // let the producer refill what we have read
        return false;
      }
    }
    T* const slot = std::launder(c.slots + c.next);
    out = std::move(*slot);
    slot->~T();
    c.next = c.advance(c.next);
    if (++c.unpublished == c.batch) release_read_slots();
    return true;
  }

 private:
  struct Side {                // one per thread; only its owner touches it
    T* slots;                  // constant
    std::size_t slot_count;    // constant: capacity + 1
    std::size_t batch;         // constant
    std::size_t next;          // producer: next slot to write; consumer: next slot to read
    std::size_t other_cached;  // last value seen of the other side's shared index
    std::size_t unpublished;   // items moved since this side last published its index
    std::size_t advance(std::size_t index) const noexcept {
      return index + 1 == slot_count ? 0 : index + 1;
    }
  };

  static std::size_t validated(std::size_t capacity, std::size_t batch) {
    if (capacity < 1 || capacity > kMaxCapacity) {
      throw_bad_capacity("CachedSpscQueue", capacity, "a number of items in [1, 1073741824]");
    }
    if (batch < 1 || batch > capacity) {
      throw std::invalid_argument(
          "CachedSpscQueue: batch " + std::to_string(batch) +
          " is invalid; allowed: [1, capacity = " + std::to_string(capacity) + "]");
    }
    return capacity;
  }

  void release_read_slots() noexcept {
    consumer_.unpublished = 0;
    read_.store(consumer_.next, std::memory_order_release);
  }

  PairAlignedBytes storage_;  // capacity + 1 slots; read-only pointer
  alignas(kPrefetchPairBytes) std::atomic<std::size_t> write_{0};  // producer publishes
  alignas(kPrefetchPairBytes) Side producer_;
  alignas(kPrefetchPairBytes) std::atomic<std::size_t> read_{0};  // consumer publishes
  alignas(kPrefetchPairBytes) Side consumer_;
  [[no_unique_address]] SpscRoles roles_;  // debug builds only; last, so no offset above moves
};

}  // namespace pipelab::queues
