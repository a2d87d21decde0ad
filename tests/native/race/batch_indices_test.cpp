// The real BatchQueue indices a static pipeline records as batch-* telemetry (the lesson's
// cache-line view draws them): replaying the events of a run must give a consistent queue — each
// semi-buffer written slot by slot, published once full (or by a flush at the end), read slot by
// slot only after its publish, released after its last read, every item written once and read
// once in order — and a queue kind other than batch records none.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "pipelab/pipeline/runtime_kinds.hpp"
#include "pipelab/telemetry/event.hpp"

namespace pipelab::pipeline {
namespace {

using telemetry::Event;
using telemetry::EventKind;

std::vector<Event> run_and_collect(const ExperimentSpec& spec) {
  RunOptions o;
  o.ring_capacity = 1u << 16;
  auto rt = make_runtime(spec, o);
  rt->run();
  EXPECT_EQ(rt->items_completed(), spec.items);
  std::vector<Event> all;
  for (std::uint32_t w = 0; w < rt->telemetry().workers(); ++w) {
    auto& ring = rt->telemetry().ring(w);
    EXPECT_EQ(ring.dropped(), 0u) << "worker " << w;
    std::vector<Event> ev(1u << 16);
    ev.resize(ring.pop_into(ev.data(), ev.size()));
    all.insert(all.end(), ev.begin(), ev.end());
  }
  return all;
}

ExperimentSpec two_stage_batch(std::uint64_t capacity, std::uint64_t items) {
  ExperimentSpec s;
  s.stages = {StageSpec{"produce", StageMode::kSerialInOrder, 1, ServiceSpec::fixed(0)},
              StageSpec{"consume", StageMode::kSerialInOrder, 1, ServiceSpec::fixed(0)}};
  s.queue = QueueSpec{QueueKind::kBatch, capacity};
  s.items = items;
  return s;
}

struct Half {
  std::uint32_t written = 0;    // slots written since the last release
  std::uint32_t published = 0;  // items handed over (0: not published)
  std::uint32_t read = 0;
};

// Replays one side's events in ring order (each side's ring keeps its own order; the two sides
// are checked against each other through the counts).
TEST(BatchIndices, ProducerAndConsumerEventsDescribeAConsistentQueue) {
  for (std::uint64_t capacity : {2u, 8u, 32u}) {
    // Not a whole number of semi-buffers of 4 or 16 items: their run ends on a flush. Semi-buffers
    // of one item (capacity 2) are always full, so whether the end flushes depends on timing: the
    // producer publishes a full one once the consumer has released the other, else the flush does.
    const std::uint64_t items = 1003;
    const std::uint32_t semi = std::uint32_t(capacity / 2);
    const std::vector<Event> events = run_and_collect(two_stage_batch(capacity, items));
    std::vector<Event> producer, consumer;
    for (const Event& e : events) {
      if (e.kind == EventKind::kBatchWrite || e.kind == EventKind::kBatchPublish) {
        EXPECT_EQ(e.stage, 0) << "producer events come from stage 0";
        producer.push_back(e);
      } else if (e.kind == EventKind::kBatchRead || e.kind == EventKind::kBatchRelease) {
        EXPECT_EQ(e.stage, 1) << "consumer events come from stage 1";
        consumer.push_back(e);
      }
    }
    const std::string what = "capacity " + std::to_string(capacity);
    // Producer: halves alternate; each is written 0..k-1 then published with k items.
    std::uint32_t half = 0, next = 0, written = 0, flushes = 0;
    std::vector<std::uint32_t> published;  // items per publish, in order
    for (const Event& e : producer) {
      const bool h = (e.arg & telemetry::kBatchHalfBit) != 0;
      const std::uint32_t n = e.arg & telemetry::kBatchCountMask;
      ASSERT_EQ(h, half == 1) << what;
      if (e.kind == EventKind::kBatchWrite) {
        ASSERT_EQ(n, next) << what << ": slots are written in order";
        ASSERT_EQ(e.item, written) << what << ": items are written in order";
        ++next;
        ++written;
      } else {
        const bool flush = (e.arg & telemetry::kBatchFlushBit) != 0;
        ASSERT_EQ(n, next) << what << ": a publish hands over what was written";
        ASSERT_TRUE(flush || n == semi) << what << ": only a flush publishes a partial half";
        flushes += flush;
        published.push_back(n);
        half ^= 1;
        next = 0;
      }
    }
    EXPECT_EQ(written, items) << what;
    EXPECT_EQ(next, 0u) << what << ": the last items were flushed";
    if (items % semi != 0) {
      EXPECT_GE(flushes, 1u) << what;
    }
    // Consumer: reads each published semi-buffer in order, releasing it after its last item.
    half = 0;
    next = 0;
    std::uint32_t read = 0;
    std::size_t batch = 0;
    for (const Event& e : consumer) {
      const bool h = (e.arg & telemetry::kBatchHalfBit) != 0;
      const std::uint32_t n = e.arg & telemetry::kBatchCountMask;
      ASSERT_EQ(h, half == 1) << what;
      ASSERT_LT(batch, published.size()) << what << ": a read before any publish";
      if (e.kind == EventKind::kBatchRead) {
        ASSERT_EQ(n, next) << what;
        ASSERT_EQ(e.item, read) << what << ": items are read in order";
        ++next;
        ++read;
      } else {
        ASSERT_EQ(n, published[batch]) << what << ": released after its last item";
        ++batch;
        half ^= 1;
        next = 0;
      }
    }
    EXPECT_EQ(read, items) << what;
    EXPECT_EQ(batch, published.size()) << what << ": every published semi-buffer was released";
  }
}

TEST(BatchIndices, OtherQueueKindsAndRunsWithoutTelemetryRecordNone) {
  ExperimentSpec s = two_stage_batch(8, 200);
  s.queue.kind = QueueKind::kLamport;
  for (const Event& e : run_and_collect(s)) {
    EXPECT_LT(std::uint8_t(e.kind), std::uint8_t(EventKind::kBatchWrite));
  }
  RunOptions quiet;
  quiet.telemetry = false;
  auto rt = make_runtime(two_stage_batch(8, 200), quiet);
  rt->run();
  EXPECT_EQ(rt->items_completed(), 200u);
}

}  // namespace
}  // namespace pipelab::pipeline
