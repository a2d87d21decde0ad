// Telemetry ring: contracts/telemetry.md layout, drop-and-count when full (never blocks), sequence
// numbers that reveal drops, and a two-thread writer/reader run that loses or reorders nothing.
#include "pipelab/telemetry/ring.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

#include "pipelab/telemetry/run_telemetry.hpp"
#include "support/thread_sanitizer.hpp"

namespace pipelab::telemetry {
namespace {

std::uint32_t word_at(const Ring& r, std::size_t offset) {
  std::uint32_t v;
  std::memcpy(&v, static_cast<const unsigned char*>(r.data()) + offset, 4);
  return v;
}

TEST(Ring, HeaderAndRecordLayoutFollowFormat) {
  Ring r(8, 3);
  EXPECT_EQ(r.size_bytes(), 128u + 8u * 24u);
  EXPECT_EQ(word_at(r, 4), 8u);   // capacity
  EXPECT_EQ(word_at(r, 12), 3u);  // worker
  ASSERT_TRUE(r.push(Event{1.5, 7, 9, 3, 2, EventKind::kEnd, 0}));
  EXPECT_EQ(word_at(r, 0), 1u);  // writeCount
  const auto* rec = static_cast<const unsigned char*>(r.data()) + 128;
  double t;
  std::memcpy(&t, rec, 8);
  EXPECT_EQ(t, 1.5);
  EXPECT_EQ(word_at(r, 128 + 8), 7u);
  EXPECT_EQ(word_at(r, 128 + 12), 9u);
  EXPECT_EQ(rec[16] | (rec[17] << 8), 3);
  EXPECT_EQ(rec[18], 2);
  EXPECT_EQ(rec[19], 1);  // kEnd
  EXPECT_EQ(word_at(r, 128 + 20), 0u);
}

TEST(Ring, DropsAndCountsWhenFullWithSeqGaps) {
  Ring r(4, 0);
  for (int i = 0; i < 6; ++i)
    r.push(Event{double(i), std::uint32_t(i), 0, 0, 0, EventKind::kStart, 0});
  EXPECT_EQ(r.dropped(), 2u);
  EXPECT_EQ(word_at(r, 8), 2u);
  Event out[8];
  ASSERT_EQ(r.pop_into(out, 8), 4u);
  EXPECT_EQ(word_at(r, 64), 4u);  // readCount
  ASSERT_TRUE(r.push(Event{9, 9, 0, 0, 0, EventKind::kStart, 0}));
  ASSERT_EQ(r.pop_into(out, 8), 1u);
  EXPECT_EQ(out[0].item, 9u);
  EXPECT_EQ(out[0].seq, 6u);  // 4 written + 2 dropped before it
}

TEST(Ring, WriterAndReaderThreadsLoseNothingUnreported) {
#if defined(PIPELAB_TEST_TSAN)
  constexpr std::uint32_t kEvents = 50000;
#else
  constexpr std::uint32_t kEvents = 500000;
#endif
  Ring r(256, 1);
  std::thread writer([&] {
    for (std::uint32_t i = 0; i < kEvents; ++i) {
      r.push(Event{double(i), i, 0, 1, 0, EventKind::kEnqueue, 0});
    }
  });
  std::vector<Event> got;
  Event buf[64];
  std::uint32_t last_seq = 0;
  bool ordered = true;
  while (true) {
    const bool writer_done = r.written() + r.dropped() == kEvents;
    const std::size_t n = r.pop_into(buf, 64);
    for (std::size_t i = 0; i < n; ++i) {
      ordered = ordered && (got.empty() || buf[i].seq > last_seq) && buf[i].item == buf[i].seq;
      last_seq = buf[i].seq;
      got.push_back(buf[i]);
    }
    if (writer_done && n == 0) break;
  }
  writer.join();
  EXPECT_TRUE(ordered);
  EXPECT_EQ(got.size() + r.dropped(), kEvents);
}

TEST(RunTelemetry, CountersAreOneLinePerStageAndStable) {
  RunTelemetry t(2, 3, 16, true);
  const auto* base = reinterpret_cast<const unsigned char*>(t.counters_data());
  EXPECT_EQ(reinterpret_cast<const unsigned char*>(&t.counters(2)) - base, 128);
  t.counters(1).add(t.counters(1).busy_us, 5);
  std::uint64_t v;
  std::memcpy(&v, base + 64 + 24, 8);
  EXPECT_EQ(v, 5u);
  const void* ring0 = t.ring(0).data();
  t.reset();
  EXPECT_EQ(t.ring(0).data(), ring0);
  EXPECT_EQ(t.counters(1).busy_us.load(), 0u);
}

// Tallies stay private until flushed (or kTallyFlushUs passes), then reach the stage counters
// exactly, keeping sub-µs busy time for the next flush.
TEST(RunTelemetry, TalliesReachTheCountersWhenFlushed) {
  RunTelemetry t(2, 3, 16, true);
  t.tally_service(0, 1, 2.5, 10);
  t.tally_service(1, 1, 1.0, 10);
  t.tally_service(1, 2, 0.75, 10);
  EXPECT_EQ(t.counters(1).items_out.load(), 0u) << "flushed before kTallyFlushUs";
  t.flush_tally(0);
  t.flush_tally(1);
  EXPECT_EQ(t.counters(1).items_in.load(), 2u);
  EXPECT_EQ(t.counters(1).items_out.load(), 2u);
  EXPECT_EQ(t.counters(1).busy_us.load(), 3u);  // 2 from worker 0, 1 from worker 1
  EXPECT_EQ(t.counters(2).items_out.load(), 1u);
  EXPECT_EQ(t.counters(2).busy_us.load(), 0u) << "0.75 µs waits for the next flush";
  // A flush is due again kTallyFlushUs after the last one: the tally flushes itself.
  t.tally_service(1, 2, 0.5, t.now_us() + RunTelemetry::kTallyFlushUs);
  EXPECT_EQ(t.counters(2).items_out.load(), 2u);
  EXPECT_EQ(t.counters(2).busy_us.load(), 1u);
}

TEST(RunTelemetry, StagesBeyondTheTallyRejectedNamingTheValue) {
  try {
    RunTelemetry t(1, RunTelemetry::kMaxStages + 1, 16, true);
    FAIL() << "accepted " << RunTelemetry::kMaxStages + 1 << " stages";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "telemetry stages: 17 is out of range (allowed 1..16)");
  }
}

TEST(RunTelemetry, OffRecordsNothing) {
  RunTelemetry t(1, 1, 16, false);
  t.record(0, EventKind::kStart, 0, 1);
  EXPECT_EQ(t.ring(0).written(), 0u);
}

}  // namespace
}  // namespace pipelab::telemetry
