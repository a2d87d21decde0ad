// Per-stage counters: one 64-byte line per stage of six u64 words (contracts/telemetry.md):
// itemsIn, itemsOut, queueOccupancy, busyUs, idleUs, blockedUs. Any worker of the stage may add
// (relaxed fetch_add: the values are statistics, nothing is published through them); the page
// or another thread reads them at any time (relaxed loads; a snapshot is not atomic across
// fields). A line per stage keeps two stages' workers from sharing a cache line; neighbouring
// stages do share a prefetch pair, because the format fixes the stride at one line (the page reads
// stage s at 64 * s).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "pipelab/cacheline.hpp"

namespace pipelab::telemetry {

struct alignas(kCacheLineBytes) StageCounters {
  std::atomic<std::uint64_t> items_in{0};
  std::atomic<std::uint64_t> items_out{0};
  std::atomic<std::uint64_t> queue_occupancy{0};  // items in the stage's input queue now
  std::atomic<std::uint64_t> busy_us{0};
  std::atomic<std::uint64_t> idle_us{0};
  std::atomic<std::uint64_t> blocked_us{0};

  void add(std::atomic<std::uint64_t>& field, std::uint64_t v) noexcept {
    field.fetch_add(v, std::memory_order_relaxed);
  }
  void reset() noexcept {
    for (auto* f : {&items_in, &items_out, &queue_occupancy, &busy_us, &idle_us, &blocked_us}) {
      f->store(0, std::memory_order_relaxed);
    }
  }
};

static_assert(sizeof(StageCounters) == kCacheLineBytes && kCacheLineBytes == 64,
              "contracts/telemetry.md: one 64-byte line per stage");
static_assert(offsetof(StageCounters, items_out) == 8 &&
              offsetof(StageCounters, queue_occupancy) == 16 &&
              offsetof(StageCounters, busy_us) == 24 && offsetof(StageCounters, idle_us) == 32 &&
              offsetof(StageCounters, blocked_us) == 40);
static_assert(std::atomic<std::uint64_t>::is_always_lock_free &&
              sizeof(std::atomic<std::uint64_t>) == 8);

}  // namespace pipelab::telemetry
