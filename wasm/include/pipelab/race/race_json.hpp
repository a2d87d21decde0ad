// The race's answers to the page as JSON text (pl_race_result, pl_queue_layout in
// wasm/src/bindings.cpp; typed in src/spec/raceConfig.ts): a run's numbers, and where the
// parts of a queue object sit in memory — the real offsets the false-sharing view draws.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pipelab/pipeline/json_write.hpp"
#include "pipelab/pipeline/spec.hpp"
#include "pipelab/queues/batch_queue.hpp"
#include "pipelab/queues/batch_queue_unpadded.hpp"
#include "pipelab/queues/lamport_queue.hpp"
#include "pipelab/queues/lamport_queue_unpadded.hpp"
#include "pipelab/race/queue_race.hpp"

namespace pipelab::race {

namespace json_detail {
// {"k":v,...} from (key, already-written JSON value) pairs.
inline std::string object(const std::vector<std::pair<const char*, std::string>>& members) {
  std::string out = "{";
  for (const auto& [key, value] : members) {
    out += (out.size() > 1 ? "," : "") + json::quote(key) + ":" + value;
  }
  return out + "}";
}
inline std::string num(double x) { return json::number_text(x); }
inline std::string str(const char* s) { return json::quote(s); }
}  // namespace json_detail

inline std::string to_json(const RaceConfig& c) {
  using namespace json_detail;
  return object({{"queue", str(to_string(c.queue))},
                 {"variant", str(to_string(c.variant))},
                 {"stages", num(c.stages)},
                 {"semiItems", num(c.semi_items)},
                 {"matrixSize", num(c.matrix_size)},
                 {"workUs", num(c.work_us)},
                 {"durationMs", num(c.duration_ms)},
                 {"offeredPerS", num(c.offered_per_s)}});
}

inline std::string to_json(const RaceResult& r) {
  using namespace json_detail;
  return object({{"config", to_json(r.config)},
                 {"cancelled", r.cancelled ? "true" : "false"},
                 {"made", num(double(r.made))},
                 {"received", num(double(r.received))},
                 {"outOfOrder", num(double(r.out_of_order))},
                 {"timedItems", num(double(r.timed_items))},
                 {"timedUs", num(r.timed_us)},
                 {"itemsPerS", num(r.items_per_s())},
                 {"latencySamples", num(double(r.latency_samples))},
                 {"latencyMeanNs", num(r.latency_mean_ns)},
                 {"latencyMedianNs", num(r.latency_median_ns)},
                 {"latencyP99Ns", num(r.latency_p99_ns)},
                 {"tailItems", num(double(r.tail_items))},
                 {"tailLatencyNs", num(r.tail_latency_ns)},
                 {"clockOffsetNs", num(r.clock_offset_ns)},
                 {"clockRoundTripNs", num(r.clock_round_trip_ns)}});
}

// The fields of a queue object: name, byte offset, bytes, and which thread writes it.
struct Field {
  const char* name;
  std::size_t offset, bytes;
  const char* writer;  // "producer", "consumer", "both" or "none" (read-only after construction)
};

inline std::string fields_json(std::size_t object_bytes, const std::vector<Field>& fields) {
  using namespace json_detail;
  std::string list = "[";
  for (const Field& f : fields) {
    list += (list.size() > 1 ? "," : "") + object({{"name", str(f.name)},
                                                   {"offset", num(double(f.offset))},
                                                   {"bytes", num(double(f.bytes))},
                                                   {"writer", str(f.writer)}});
  }
  return object({{"objectBytes", num(double(object_bytes))},
                 {"lineBytes", num(double(kCacheLineBytes))},
                 {"fields", list + "]"}});
}

template <typename Q>
std::string batch_layout_json() {
  const auto l = Q::layout();
  return fields_json(
      l.object_bytes,
      {{"buffer pointer", l.buffer, sizeof(void*), "none"},
       {"producer state (fill index)", l.producer, l.producer_bytes, "producer"},
       {"consumer state (read index)", l.consumer, l.consumer_bytes, "consumer"},
       {"status flag", l.status, sizeof(bool), "both"},
       {"published item count", l.published_items, sizeof(std::size_t), "producer"}});
}

template <typename Q>
std::string lamport_layout_json() {
  const auto l = Q::layout();
  return fields_json(l.object_bytes,
                     {{"slot count and pointer", l.read_only, l.read_only_bytes, "none"},
                      {"tail (write index)", l.tail, sizeof(std::size_t), "producer"},
                      {"head (read index)", l.head, sizeof(std::size_t), "consumer"}});
}

// The layout of one of the queues whose padding the lesson compares; throws SpecError naming the
// queue otherwise.
inline std::string queue_layout_json(std::string_view queue) {
  using Item = std::uint64_t;
  if (queue == "batch") return batch_layout_json<queues::BatchQueue<Item>>();
  if (queue == "batch-unpadded") return batch_layout_json<queues::UnpaddedBatchQueue<Item>>();
  if (queue == "lamport") return lamport_layout_json<queues::LamportQueue<Item>>();
  if (queue == "lamport-unpadded") return lamport_layout_json<queues::UnpaddedLamportQueue<Item>>();
  throw pipeline::SpecError("queue", json::quote(queue) +
                                         " is not one of batch | batch-unpadded | lamport | "
                                         "lamport-unpadded");
}

}  // namespace pipelab::race
