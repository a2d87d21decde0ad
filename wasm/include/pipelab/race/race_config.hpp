// What one run of the queue race measures (QueueRace, queue_race.hpp): which queue, what the
// stages do between items, how many stages, for how long — and its JSON form, read with the
// ExperimentSpec field readers so a bad value gets the same kind of message ("semiItems: 12 is
// not a whole number of 64-byte cache lines (allowed: multiples of 8 items, 8..4096)"). The page
// sends this JSON through pl_race_start (wasm/src/bindings.cpp); src/spec/raceConfig.ts
// mirrors the names, defaults and ranges (tests/wasm/race.test.ts checks both sides agree).
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pipelab/pipeline/json.hpp"
#include "pipelab/pipeline/spec_fields.hpp"

namespace pipelab::race {

// The contenders: our queues, padded and unpadded, per item and batched (names as the bench's).
enum class RaceQueue {
  kBatch,
  kBatchUnpadded,
  kLamport,
  kLamportUnpadded,
  kCachedSpsc,
  kCachedSpscBatched,
  kFastForward,
  kVyukovMpmc,
  kMutex,
};

inline const char* to_string(RaceQueue q) noexcept {
  switch (q) {
    case RaceQueue::kBatch:
      return "batch";
    case RaceQueue::kBatchUnpadded:
      return "batch-unpadded";
    case RaceQueue::kLamport:
      return "lamport";
    case RaceQueue::kLamportUnpadded:
      return "lamport-unpadded";
    case RaceQueue::kCachedSpsc:
      return "cached-spsc";
    case RaceQueue::kCachedSpscBatched:
      return "cached-spsc-batched";
    case RaceQueue::kFastForward:
      return "fastforward";
    case RaceQueue::kVyukovMpmc:
      return "vyukov-mpmc";
    case RaceQueue::kMutex:
      return "mutex";
  }
  return "?";
}

inline const std::vector<RaceQueue>& race_queues() {
  static const std::vector<RaceQueue> all = {
      RaceQueue::kBatch,           RaceQueue::kBatchUnpadded, RaceQueue::kLamport,
      RaceQueue::kLamportUnpadded, RaceQueue::kCachedSpsc,    RaceQueue::kCachedSpscBatched,
      RaceQueue::kFastForward,     RaceQueue::kVyukovMpmc,    RaceQueue::kMutex};
  return all;
}

// Queues that hold items back until a batch (semi-buffer) fills or the producer flushes.
inline bool batches(RaceQueue q) noexcept {
  return q == RaceQueue::kBatch || q == RaceQueue::kBatchUnpadded ||
         q == RaceQueue::kCachedSpscBatched;
}

// What each stage does per item: nothing (comm), one row of an L1-sized matrix product (matrix,
// workload/l1_matrix.hpp), or busy work of workUs / stages µs (work: a fixed amount of work split
// over the stages, for the speed-up model of seed 001 §II).
enum class RaceVariant { kComm, kMatrix, kWork };

inline const char* to_string(RaceVariant v) noexcept {
  switch (v) {
    case RaceVariant::kComm:
      return "comm";
    case RaceVariant::kMatrix:
      return "matrix";
    case RaceVariant::kWork:
      return "work";
  }
  return "?";
}

struct RaceConfig {
  RaceQueue queue = RaceQueue::kBatch;
  RaceVariant variant = RaceVariant::kComm;
  std::uint32_t stages = 2;  // threads in the chain; 1 = no queue (the sequential baseline)
  std::uint32_t semi_items =
      512;  // BatchQueue semi-buffer, cached-spsc-batched batch (8-byte items)
  std::uint32_t matrix_size = 32;  // the matrix variant's n
  double work_us = 0;              // the work variant's work per item, split over the stages
  double duration_ms = 300;        // how long the producer makes items
  double offered_per_s = 0;        // > 0: the latency probe, paced at this rate (2 stages)
};

// Limits of the JSON fields (inclusive).
namespace race_limits {
using pipeline::limits::Range;
inline constexpr Range kStages{1, 8};
inline constexpr Range kSemiItems{8, 4096};
inline constexpr Range kMatrixSize{2, 64};
inline constexpr Range kWorkUs{0, 1000};
inline constexpr Range kDurationMs{10, 10000};
inline constexpr Range kOfferedPerS{0, 100000000};
}  // namespace race_limits

// Items of 8 bytes: this many fill one 64-byte cache line.
inline constexpr std::uint32_t kItemsPerLine = 8;
// The per-item queues' capacity (as in the queue benchmark).
inline constexpr std::size_t kPerItemCapacity = 1024;

// Parses and checks a race config; throws pipeline::SpecError naming the field and the problem.
inline RaceConfig parse_race_config(std::string_view text) {
  using namespace pipeline::spec_fields;
  using pipeline::SpecError;
  json::Value root;
  try {
    root = json::Parser(text).parse_document();
  } catch (const json::ParseError& e) {
    throw SpecError(e.what());
  }
  const Value& o = object(root, "",
                          {"queue", "variant", "stages", "semiItems", "matrixSize", "workUs",
                           "durationMs", "offeredPerS"});
  RaceConfig c;
  c.queue = word(require(o, "", "queue"), "queue", race_queues());
  if (const Value* v = o.find("variant")) {
    c.variant = word(
        *v, "variant",
        std::vector<RaceVariant>{RaceVariant::kComm, RaceVariant::kMatrix, RaceVariant::kWork});
  }
  if (const Value* v = o.find("stages"))
    c.stages = std::uint32_t(integer(*v, "stages", race_limits::kStages));
  if (const Value* v = o.find("semiItems")) {
    const double items = integer(*v, "semiItems", race_limits::kSemiItems);
    if (std::fmod(items, kItemsPerLine) != 0) {
      throw SpecError("semiItems", json::number_text(items) +
                                       " is not a whole number of 64-byte cache lines (allowed: "
                                       "multiples of 8 items, 8..4096)");
    }
    c.semi_items = std::uint32_t(items);
  }
  if (const Value* v = o.find("matrixSize"))
    c.matrix_size = std::uint32_t(integer(*v, "matrixSize", race_limits::kMatrixSize));
  if (const Value* v = o.find("workUs")) c.work_us = number(*v, "workUs", race_limits::kWorkUs);
  if (const Value* v = o.find("durationMs"))
    c.duration_ms = number(*v, "durationMs", race_limits::kDurationMs);
  if (const Value* v = o.find("offeredPerS")) {
    c.offered_per_s = number(*v, "offeredPerS", race_limits::kOfferedPerS);
    if (c.offered_per_s > 0 && c.stages != 2) {
      throw SpecError("offeredPerS", "the latency probe runs 2 stages (stages is " +
                                         std::to_string(c.stages) + ")");
    }
  }
  return c;
}

}  // namespace pipelab::race
