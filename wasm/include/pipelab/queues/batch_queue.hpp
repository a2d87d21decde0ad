// BatchQueue: single-producer single-consumer queue that hands over whole semi-buffers.
//
// Roles: one producer thread calls try_push / try_push_n / try_flush / flush; one consumer thread
//   calls try_pop / try_pop_n. Construction and destruction happen with no concurrent caller. Debug
//   builds abort when a second thread takes either role (role_guard.hpp).
// Invariant: the buffer is two semi-buffers, each a whole number of 64-byte lines. At any time the
//   producer owns one of them; the other is either empty or published to the consumer. One shared
//   flag `status_` says "a published semi-buffer is waiting or being read": only the producer flips
//   it false->true (publish), only the consumer flips it true->false (release, after its last pop).
// Capacity rule: an even number of items in [2, 2^30]; each semi-buffer holds capacity/2 items and
//   its storage is rounded up to whole cache lines (capacity_for_lines() gives exact-fit sizes).
// Memory orders: the publish is a release store after the slots (and the item count) are written,
//   matched by the consumer's acquire load; the release is a release store after the consumer's
//   last read of the semi-buffer, matched by the producer's acquire load before it refills that
//   buffer. Between exchanges neither side touches shared state: one flag transfer per semi-buffer.
// Source: Preud'homme, Sopena, Thomas, Folliot, "BatchQueue: Fast and Memory-Thrifty Core to Core
//   Communication" (SBAC-PAD 2010). Departure: flush() publishes a partial semi-buffer, whose item
//   count travels next to the flag (written only while the producer owns the flag's `false` state).
//
// Throughput vs latency: a bigger semi-buffer amortises the one cache-line transfer of `status_`
// (and the consumer's first miss on each line) over more items, so items/s rise with the size until
// the two semi-buffers stop fitting in L1. But an item becomes visible only when its semi-buffer is
// full or flushed, so its latency grows with the size: at a steady rate r items/s an item waits up
// to (capacity/2)/r before the consumer can see it. Streams that care about latency flush() at the
// end of each burst; the benchmark reports push-to-pop latency for each semi-buffer size.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

#include "pipelab/cacheline.hpp"
#include "pipelab/queues/queue_support.hpp"
#include "pipelab/queues/role_guard.hpp"
#include "pipelab/queues/wait_policy.hpp"

namespace pipelab::queues {

// kStateAlignBytes separates producer state, consumer state and the shared flag. BatchQueue uses
// the prefetch-pair distance (kPrefetchPairBytes); UnpaddedBatchQueue (batch_queue_unpadded.hpp)
// packs them.
// The object starts a cache line in both layouts, so its field offsets say which lines they use.
// kTouch (a measured experiment, bench/README.md; 0 = off in BatchQueue and every runtime):
// kTouchOnTake makes the consumer's try_pop read one byte of every line of a semi-buffer as it
// takes it, kTouchOnRefill makes the producer write one byte of every line of the semi-buffer it
// starts to fill, so the cache-line transfers between the cores start together instead of one at
// a time as a per-item loop reaches each line (WebAssembly has no prefetch instruction).
inline constexpr unsigned kTouchOnTake = 1;
inline constexpr unsigned kTouchOnRefill = 2;

template <typename T, std::size_t kStateAlignBytes, unsigned kTouch = 0>
class alignas(kStateAlignBytes > kCacheLineBytes ? kStateAlignBytes
                                                 : kCacheLineBytes) BasicBatchQueue {
  static_assert(kQueueableItem<T>, "items must copy in and move out without throwing");
  static_assert(alignof(T) <= kCacheLineBytes, "semi-buffers are aligned to cache lines only");

 public:
  static constexpr std::size_t kMaxCapacity = std::size_t{1} << 30;

  // The capacity whose semi-buffers are exactly `lines` cache lines of packed items.
  static constexpr std::size_t capacity_for_lines(std::size_t lines) noexcept {
    return 2 * (lines * kCacheLineBytes / sizeof(T));
  }

  explicit BasicBatchQueue(std::size_t capacity)
      : slots_(2 * round_up_to_lines(validated(capacity) / 2 * sizeof(T))) {
    static_assert(alignof(BasicBatchQueue) >= kStateAlignBytes);
    static_assert(offsetof(BasicBatchQueue, consumer_) - offsetof(BasicBatchQueue, producer_) >=
                  kStateAlignBytes);
    static_assert(offsetof(BasicBatchQueue, status_) - offsetof(BasicBatchQueue, consumer_) >=
                  kStateAlignBytes);
    const std::size_t semi_items = capacity / 2;
    const std::size_t stride_bytes = round_up_to_lines(semi_items * sizeof(T));
    T* const first = reinterpret_cast<T*>(slots_.data());
    T* const second = reinterpret_cast<T*>(slots_.data() + stride_bytes);
    producer_ = {{first, second}, semi_items, 0, 0};
    consumer_ = {{first, second}, 0, 0, 0};
  }

  ~BasicBatchQueue() {
    if constexpr (!std::is_trivially_destructible_v<T>) {
      if (status_.load(std::memory_order_relaxed)) {
        destroy(consumer_.halves[consumer_.half], consumer_.next, published_items_);
      }
      destroy(producer_.halves[producer_.half], 0, producer_.next);
    }
  }

  BasicBatchQueue(const BasicBatchQueue&) = delete;
  BasicBatchQueue& operator=(const BasicBatchQueue&) = delete;

  std::size_t capacity() const noexcept { return 2 * producer_.semi_items; }
  std::size_t semi_buffer_items() const noexcept { return producer_.semi_items; }

  // The real indices, for telemetry (the lesson's cache-line view). Each side reads only its own
  // private state, so each is callable only from that side's thread, between its own calls.
  struct ProducerPosition {
    std::size_t half;  // the semi-buffer being filled
    std::size_t next;  // items written into it
  };
  struct ConsumerPosition {
    std::size_t half;  // the semi-buffer to read (or being read)
    std::size_t next;  // items read from it
    std::size_t end;   // items it holds; next == end: none held (waiting for a publish)
  };
  ProducerPosition producer_position() const noexcept { return {producer_.half, producer_.next}; }
  ConsumerPosition consumer_position() const noexcept {
    return {consumer_.half, consumer_.next, consumer_.end};
  }

  // Where each part of the state sits in the object (bytes), for the lesson's false-sharing view.
  struct Layout {
    std::size_t object_bytes, buffer, producer, producer_bytes, consumer, consumer_bytes, status,
        published_items;
  };
  static Layout layout() noexcept {
    return {sizeof(BasicBatchQueue),
            offsetof(BasicBatchQueue, slots_),
            offsetof(BasicBatchQueue, producer_),
            sizeof(ProducerState),
            offsetof(BasicBatchQueue, consumer_),
            sizeof(ConsumerState),
            offsetof(BasicBatchQueue, status_),
            offsetof(BasicBatchQueue, published_items_)};
  }

  // Producer. Fails only when both semi-buffers are full (the consumer still holds one).
  [[nodiscard]] bool try_push(const T& item) noexcept {
    roles_.producer("BatchQueue");
    ProducerState& p = producer_;
    if (p.next == p.semi_items && !try_publish()) return false;
    ::new (static_cast<void*>(p.halves[p.half] + p.next)) T(item);
    // Hand a full semi-buffer over at once when the consumer is free: lower latency, same cost.
    if (++p.next == p.semi_items) (void)try_publish();
    return true;
  }

  // Producer. Pushes up to n items from `items`, copying runs of them into the semi-buffer at once
  // (memcpy for trivially copyable T, as the paper's consumer copies the rest of a cache line in
  // one go); returns how many it pushed (fewer when both semi-buffers are full).
  [[nodiscard]] std::size_t try_push_n(const T* items, std::size_t n) noexcept {
    roles_.producer("BatchQueue");
    ProducerState& p = producer_;
    std::size_t done = 0;
    while (done < n) {
      if (p.next == p.semi_items && !try_publish()) break;
      const std::size_t k = std::min(n - done, p.semi_items - p.next);
      T* const to = p.halves[p.half] + p.next;
      if constexpr (std::is_trivially_copyable_v<T>) {
        std::memcpy(static_cast<void*>(to), items + done, k * sizeof(T));
      } else {
        for (std::size_t i = 0; i < k; ++i) ::new (static_cast<void*>(to + i)) T(items[done + i]);
      }
      done += k;
      if ((p.next += k) == p.semi_items) (void)try_publish();
    }
    return done;
  }

  // Producer. Publishes a partial semi-buffer; false if the consumer still holds the other one.
  [[nodiscard]] bool try_flush() noexcept {
    roles_.producer("BatchQueue");
    return producer_.next == 0 || try_publish();
  }

  // Producer. Makes every pushed item visible to the consumer, waiting (ParkWait: spin, yield,
  // sleep) until the consumer has released the other semi-buffer: at most one semi-buffer of pops.
  void flush() noexcept {
    ParkWait wait;
    while (!try_flush()) wait.wait();
  }

  // Consumer. Pops up to n items into `out`, copying runs of them out of the semi-buffer at once;
  // returns how many it popped (0 when no published semi-buffer is waiting).
  [[nodiscard]] std::size_t try_pop_n(T* out, std::size_t n) noexcept {
    roles_.consumer("BatchQueue");
    ConsumerState& c = consumer_;
    std::size_t done = 0;
    while (done < n) {
      if (c.next == c.end) {
        if (!status_.load(std::memory_order_acquire)) break;
        c.next = 0;
        c.end = published_items_;
      }
      const std::size_t k = std::min(n - done, c.end - c.next);
      T* const from = std::launder(c.halves[c.half] + c.next);
      if constexpr (std::is_trivially_copyable_v<T>) {
        std::memcpy(static_cast<void*>(out + done), from, k * sizeof(T));
      } else {
        for (std::size_t i = 0; i < k; ++i) {
          out[done + i] = std::move(from[i]);
          from[i].~T();
        }
      }
      done += k;
      if ((c.next += k) == c.end) {
        c.next = c.end = 0;
        c.half ^= 1;
        status_.store(false, std::memory_order_release);
      }
    }
    return done;
  }

  // Consumer. Fails when no published semi-buffer is waiting.
  [[nodiscard]] bool try_pop(T& out) noexcept {
    roles_.consumer("BatchQueue");
    ConsumerState& c = consumer_;
    if (c.next == c.end) {
      if (!status_.load(std::memory_order_acquire)) return false;
      c.next = 0;
      c.end = published_items_;
      if constexpr ((kTouch & kTouchOnTake) != 0) read_lines(c.halves[c.half], c.end);
    }
    T* const slot = std::launder(c.halves[c.half] + c.next);
    out = std::move(*slot);
    slot->~T();
    if (++c.next == c.end) {
      c.next = c.end = 0;
      c.half ^= 1;
      status_.store(false, std::memory_order_release);
    }
    return true;
  }

 private:
  struct ProducerState {
    T* halves[2];            // semi-buffer starts; constant after construction
    std::size_t semi_items;  // items per semi-buffer; constant
    std::size_t half;        // the semi-buffer being filled
    std::size_t next;        // items written into it so far
  };
  struct ConsumerState {
    T* halves[2];
    std::size_t half;  // the semi-buffer to read next (the producer publishes them alternately)
    std::size_t next;  // next slot to read in it
    std::size_t end;   // items in the semi-buffer held; next == end means none held
  };

  static std::size_t validated(std::size_t capacity) {
    if (capacity < 2 || capacity > kMaxCapacity || capacity % 2 != 0) {
      throw_bad_capacity("BatchQueue", capacity, "an even number of items in [2, 1073741824]");
    }
    return capacity;
  }

  bool try_publish() noexcept {
    // Acquire: the consumer's reads of the other semi-buffer finish before we refill it.
    if (status_.load(std::memory_order_acquire)) return false;
    published_items_ = producer_.next;
    // Release: the slots and the count are visible before the consumer can see the flag.
    status_.store(true, std::memory_order_release);
    producer_.half ^= 1;
    producer_.next = 0;
    if constexpr ((kTouch & kTouchOnRefill) != 0) {
      write_lines(producer_.halves[producer_.half], producer_.semi_items);
    }
    return true;
  }

  // Volatile, so the compiler keeps one access per line. The consumer's reads leave the items as
  // they are; the producer's writes go to storage it owns and holds no live item (it is about to
  // construct them there).
  static void read_lines(const T* half, std::size_t items) noexcept {
    const volatile unsigned char* p = reinterpret_cast<const volatile unsigned char*>(half);
    for (std::size_t at = 0; at < items * sizeof(T); at += kCacheLineBytes) (void)p[at];
  }
  static void write_lines(T* half, std::size_t items) noexcept {
    volatile unsigned char* p = reinterpret_cast<volatile unsigned char*>(half);
    for (std::size_t at = 0; at < items * sizeof(T); at += kCacheLineBytes) p[at] = 0;
  }

  static void destroy(T* half, std::size_t from, std::size_t to) noexcept {
    for (std::size_t i = from; i < to; ++i) std::launder(half + i)->~T();
  }

  PairAlignedBytes slots_;  // both semi-buffers, back to back, each padded to whole lines
  alignas(kStateAlignBytes) ProducerState producer_;
  alignas(kStateAlignBytes) ConsumerState consumer_;
  alignas(kStateAlignBytes) std::atomic<bool> status_{false};
  std::size_t published_items_ = 0;        // items in the published semi-buffer; guarded by status_
  [[no_unique_address]] SpscRoles roles_;  // debug builds only; last, so no offset above moves
};

template <typename T>
using BatchQueue = BasicBatchQueue<T, kPrefetchPairBytes>;

}  // namespace pipelab::queues
