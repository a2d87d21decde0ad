// Telemetry event record: 24 bytes, little-endian, the layout of contracts/telemetry.md.
//
// Defined once here; the TypeScript decoder (src/telemetry/decode.ts) and the simulation twin
// read and write the same bytes, and tests/wasm/telemetry-layout.test.ts checks that contract
// against this struct compiled to wasm. Plain data: a worker fills one and copies it into its
// own ring (ring.hpp), which publishes it with a release store of writeCount.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace pipelab::telemetry {

enum class EventKind : std::uint8_t {
  kStart = 0,         // service of an item (batch runtimes: a batch, arg = its items) begins
  kEnd = 1,           // service ends (batch runtimes: arg = the batch's items)
  kIdle = 2,          // worker found no work and starts waiting
  kStealAttempt = 3,  // arg = victim worker
  kStealSuccess = 4,  // arg = victim worker
  kEnqueue = 5,       // arg = queue occupancy after the push
  kDequeue = 6,       // arg = queue occupancy after the pop
  kBlockedFull = 7,   // producer found the next queue full
  kBlockedEmpty = 8,  // consumer found its input queue empty
  // The real indices of a BatchQueue link (the lesson's cache-line view); arg = batch_arg() below.
  kBatchWrite = 9,     // producer wrote an item: arg = half | slot index written
  kBatchPublish = 10,  // producer flipped `status` false -> true: arg = half | flush | items
  kBatchRead = 11,     // consumer read an item: arg = half | slot index read
  kBatchRelease = 12,  // consumer flipped `status` true -> false: arg = half | items read
  // The two-stage output's buffer pool (item = batch, arg = buffer index):
  kBufferTake = 13,   // a formatter took the buffer from the pool for the batch
  kBufferReady = 14,  // the batch is formatted in the buffer and waits for the writer
  kBufferFree = 15,   // the writer wrote the batch and put the buffer back in the pool
  // Barrier runtime (item = interval, arg = core of the packed schedule or kNoCore):
  kBarrierArrive = 16,  // the thread finished its interval's work and arrived at the barrier
  kBarrierPass = 17,    // every thread had arrived: this one passed the barrier
};
inline constexpr std::uint32_t kEventKindCount = 18;

// The names of contracts/telemetry.md (src/telemetry/layout.ts EVENT_KINDS, same order).
inline const char* to_string(EventKind k) noexcept {
  switch (k) {
    case EventKind::kStart:
      return "start";
    case EventKind::kEnd:
      return "end";
    case EventKind::kIdle:
      return "idle";
    case EventKind::kStealAttempt:
      return "steal-attempt";
    case EventKind::kStealSuccess:
      return "steal-success";
    case EventKind::kEnqueue:
      return "enqueue";
    case EventKind::kDequeue:
      return "dequeue";
    case EventKind::kBlockedFull:
      return "blocked-full";
    case EventKind::kBlockedEmpty:
      return "blocked-empty";
    case EventKind::kBatchWrite:
      return "batch-write";
    case EventKind::kBatchPublish:
      return "batch-publish";
    case EventKind::kBatchRead:
      return "batch-read";
    case EventKind::kBatchRelease:
      return "batch-release";
    case EventKind::kBufferTake:
      return "buffer-take";
    case EventKind::kBufferReady:
      return "buffer-ready";
    case EventKind::kBufferFree:
      return "buffer-free";
    case EventKind::kBarrierArrive:
      return "barrier-arrive";
    case EventKind::kBarrierPass:
      return "barrier-pass";
  }
  return "?";
}

// The arg of the batch-* kinds: bit 31 = semi-buffer (0 or 1), bit 30 = the publish was a flush
// of a partial semi-buffer (batch-publish only), bits 0..29 = slot index or item count.
inline constexpr std::uint32_t kBatchHalfBit = 0x80000000u;
inline constexpr std::uint32_t kBatchFlushBit = 0x40000000u;
inline constexpr std::uint32_t kBatchCountMask = 0x3FFFFFFFu;

constexpr std::uint32_t batch_arg(std::size_t half, std::size_t count,
                                  bool flush = false) noexcept {
  return (half ? kBatchHalfBit : 0u) | (flush ? kBatchFlushBit : 0u) |
         (std::uint32_t(count) & kBatchCountMask);
}

inline constexpr std::uint32_t kNoItem = 0xFFFFFFFFu;
inline constexpr std::uint8_t kNoStage = 0xFF;
// arg of barrier-runtime events under the os schedule: the OS chose the core, and the browser
// cannot tell which.
inline constexpr std::uint32_t kNoCore = 0xFFFFFFFFu;

struct Event {
  double time_us;      // µs since the run started (steady clock)
  std::uint32_t item;  // sequence number in input order, or kNoItem
  std::uint32_t arg;   // kind-specific (see EventKind)
  std::uint16_t worker;
  std::uint8_t stage;  // or kNoStage
  EventKind kind;
  std::uint32_t seq;  // per-ring sequence number; gaps reveal drops
};

static_assert(sizeof(Event) == 24, "contracts/telemetry.md: an event is 24 bytes");
static_assert(std::is_trivially_copyable_v<Event>);
static_assert(offsetof(Event, time_us) == 0 && offsetof(Event, item) == 8 &&
                  offsetof(Event, arg) == 12 && offsetof(Event, worker) == 16 &&
                  offsetof(Event, stage) == 18 && offsetof(Event, kind) == 19 &&
                  offsetof(Event, seq) == 20,
              "contracts/telemetry.md field offsets");

}  // namespace pipelab::telemetry
