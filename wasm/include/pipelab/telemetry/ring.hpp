// Ring: one worker's telemetry events, a single-producer single-consumer ring in shared memory.
//
// Roles: the worker (producer) calls push(); one reader (consumer: a reader thread, or the page
//   reading wasm memory through Atomics with the same protocol) calls pop_into(). reset() only
//   between runs, with neither running; it also hands both roles to whichever threads come next
//   (debug builds abort when a second thread takes a role before that: queues/role_guard.hpp).
// Invariant: records [readCount, writeCount) (32-bit wrapping counters) are written and unread;
//   writeCount - readCount <= capacity. The worker never blocks: when the ring is full it counts a
//   drop and returns, and each record's seq (writes + drops before it) makes the gaps visible.
// Capacity rule: a power of two in [1, 2^24] records; record i lives at 128 + (i % capacity) * 24.
// Memory orders: the record bytes are plain stores published by a release store of writeCount
//   (acquired by the reader); the writer's acquire load of readCount orders the reader's copy-out
//   before any overwrite of those records.
// Layout (contracts/telemetry.md, a contract with the TypeScript decoder): a 128-byte header,
//   writer line at 0 (writeCount, capacity, dropped, worker), reader line at 64 (readCount), then
//   the records. The two header lines share one prefetch pair because the format says so; the
//   reader writes its line about once per animation frame, so that costs a transfer per frame,
//   not per event. Each ring's memory starts and ends on a prefetch pair (pipelab/cacheline.hpp),
//   so two workers' rings never share one.
// Source: Lamport's single-producer single-consumer ring (lamport_queue.hpp), with counters
//   instead of indices.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

#include "pipelab/cacheline.hpp"
#include "pipelab/queues/role_guard.hpp"
#include "pipelab/telemetry/event.hpp"

namespace pipelab::telemetry {

inline constexpr std::size_t kRingHeaderBytes = 2 * kCacheLineBytes;

// The header as it sits at the start of the ring's memory block.
struct alignas(kCacheLineBytes) RingHeader {
  std::atomic<std::uint32_t> write_count;  // offset 0, written by the worker only
  std::uint32_t capacity;                  // offset 4, fixed at creation
  std::atomic<std::uint32_t> dropped;      // offset 8, written by the worker only
  std::uint32_t worker;                    // offset 12, fixed at creation
  char pad0[kCacheLineBytes - 16];
  std::atomic<std::uint32_t> read_count;  // offset 64, written by the reader only
  char pad1[kCacheLineBytes - 4];
};
static_assert(sizeof(RingHeader) == kRingHeaderBytes);
static_assert(offsetof(RingHeader, capacity) == 4 && offsetof(RingHeader, dropped) == 8 &&
              offsetof(RingHeader, worker) == 12 && offsetof(RingHeader, read_count) == 64);
static_assert(std::atomic<std::uint32_t>::is_always_lock_free &&
                  sizeof(std::atomic<std::uint32_t>) == 4,
              "the page reads these words with Atomics.load");

class Ring {
 public:
  // capacity: records, a power of two (1..2^24).
  Ring(std::uint32_t capacity, std::uint32_t worker)
      : bytes_(kRingHeaderBytes + std::size_t(validated(capacity)) * sizeof(Event)),
        memory_(bytes_),
        base_(reinterpret_cast<unsigned char*>(memory_.data())) {
    std::memset(base_, 0, bytes_);
    header_ = new (base_) RingHeader{};
    header_->capacity = capacity;
    header_->worker = worker;
    mask_ = capacity - 1;
  }
  ~Ring() { header_->~RingHeader(); }
  Ring(const Ring&) = delete;
  Ring& operator=(const Ring&) = delete;

  // Worker only. Returns false (and counts a drop) when the ring is full; never waits.
  bool push(Event e) noexcept {
    roles_.producer("telemetry Ring");
    const std::uint32_t w = header_->write_count.load(std::memory_order_relaxed);
    const std::uint32_t r = header_->read_count.load(std::memory_order_acquire);
    const std::uint32_t dropped = header_->dropped.load(std::memory_order_relaxed);
    if (w - r == mask_ + 1) {
      header_->dropped.store(dropped + 1, std::memory_order_relaxed);
      return false;
    }
    e.seq = w + dropped;
    std::memcpy(record(w), &e, sizeof(Event));
    header_->write_count.store(w + 1, std::memory_order_release);
    return true;
  }

  // Reader only: copies out up to `max` records, returns how many.
  std::size_t pop_into(Event* out, std::size_t max) noexcept {
    roles_.consumer("telemetry Ring");
    const std::uint32_t r = header_->read_count.load(std::memory_order_relaxed);
    const std::uint32_t w = header_->write_count.load(std::memory_order_acquire);
    std::size_t n = 0;
    for (; n < max && r + std::uint32_t(n) != w; ++n) {
      std::memcpy(&out[n], record(r + std::uint32_t(n)), sizeof(Event));
    }
    header_->read_count.store(r + std::uint32_t(n), std::memory_order_release);
    return n;
  }

  // Not concurrent with push or pop: between runs only.
  void reset() noexcept {
    roles_.release();
    header_->write_count.store(0, std::memory_order_relaxed);
    header_->read_count.store(0, std::memory_order_relaxed);
    header_->dropped.store(0, std::memory_order_relaxed);
  }

  std::uint32_t capacity() const noexcept { return mask_ + 1; }
  std::uint32_t dropped() const noexcept {
    return header_->dropped.load(std::memory_order_relaxed);
  }
  std::uint32_t written() const noexcept {
    return header_->write_count.load(std::memory_order_acquire);
  }
  // Start of the header; the page decodes from here (contracts/telemetry.md layout).
  const void* data() const noexcept { return base_; }
  void* data() noexcept { return base_; }
  std::size_t size_bytes() const noexcept { return bytes_; }

 private:
  static std::uint32_t validated(std::uint32_t capacity) {
    if (capacity == 0 || (capacity & (capacity - 1)) != 0 || capacity > (1u << 24)) {
      throw std::invalid_argument("telemetry ring capacity " + std::to_string(capacity) +
                                  " must be a power of two in 1..16777216");
    }
    return capacity;
  }

  unsigned char* record(std::uint32_t i) const noexcept {
    return base_ + kRingHeaderBytes + std::size_t(i & mask_) * sizeof(Event);
  }

  std::size_t bytes_;
  PairAlignedBytes memory_;
  unsigned char* base_;
  RingHeader* header_ = nullptr;
  std::uint32_t mask_ = 0;
  [[no_unique_address]] queues::SpscRoles roles_;  // debug builds only
};

}  // namespace pipelab::telemetry
