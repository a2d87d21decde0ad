// The lesson's queue race (race/queue_race.hpp): every queue moves every item exactly once and in
// order through chains of 1, 2 and 4 threads (and more threads than cores), in each variant; the
// latency probe stamps every item and ends on a partial semi-buffer that the final flush
// publishes; cancel ends every thread; bad configs are named. And the L1 matrix work's bounds.
#include "pipelab/race/queue_race.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "support/thread_sanitizer.hpp"

namespace pipelab::race {
namespace {

using test_build::kUnderTsan;

// Short runs: the tests check what arrives, never how fast.
constexpr double kRunMs = kUnderTsan ? 15 : 25;

std::string label(const RaceConfig& c) {
  return std::string(to_string(c.queue)) + " " + to_string(c.variant) +
         " stages=" + std::to_string(c.stages);
}

void expect_every_item_once_in_order(const RaceResult& r) {
  const std::string what = label(r.config);
  EXPECT_FALSE(r.cancelled) << what;
  EXPECT_GT(r.made, 0u) << what;
  EXPECT_EQ(r.received, r.made) << what << ": items lost or duplicated";
  EXPECT_EQ(r.out_of_order, 0u) << what;
  EXPECT_GT(r.timed_items, 0u) << what;
  EXPECT_LE(r.timed_items, r.received) << what;
  EXPECT_GT(r.timed_us, 0) << what;
}

TEST(QueueRace, EveryQueueDeliversEveryItemOnceInOrderInEveryVariant) {
  for (RaceQueue q : race_queues()) {
    for (RaceVariant v : {RaceVariant::kComm, RaceVariant::kMatrix, RaceVariant::kWork}) {
      RaceConfig c;
      c.queue = q;
      c.variant = v;
      c.duration_ms = kRunMs;
      c.work_us = 2;
      c.matrix_size = 8;
      c.semi_items = 64;
      expect_every_item_once_in_order(QueueRace::run(c));
    }
  }
}

TEST(QueueRace, ChainsOfOneFourAndMoreThreadsThanCores) {
  for (RaceQueue q :
       {RaceQueue::kBatch, RaceQueue::kFastForward, RaceQueue::kVyukovMpmc, RaceQueue::kMutex}) {
    for (std::uint32_t stages : {1u, 4u, 8u}) {
      RaceConfig c;
      c.queue = q;
      c.stages = stages;
      c.duration_ms = kRunMs;
      c.semi_items = 8;  // small semi-buffers: many hand-overs along the chain
      expect_every_item_once_in_order(QueueRace::run(c));
    }
  }
}

TEST(QueueRace, LatencyProbeStampsEveryItemAndFlushPublishesTheLastPartialSemiBuffer) {
  for (RaceQueue q : {RaceQueue::kBatch, RaceQueue::kCachedSpscBatched, RaceQueue::kLamport}) {
    RaceConfig c;
    c.queue = q;
    c.semi_items = 64;
    c.offered_per_s = 200'000;
    c.duration_ms = kRunMs;
    const RaceResult r = QueueRace::run(c);
    expect_every_item_once_in_order(r);
    EXPECT_EQ(r.latency_samples, r.made) << label(c);
    EXPECT_GE(r.latency_median_ns, 0) << label(c);
    EXPECT_GE(r.latency_p99_ns, r.latency_median_ns) << label(c);
    if (batches(q)) {
      // The stream is whole semi-buffers plus 33 items: only the final flush publishes those.
      EXPECT_EQ(r.made % c.semi_items, c.semi_items / 2 + 1) << label(c);
      EXPECT_EQ(r.tail_items, c.semi_items / 2 + 1) << label(c);
    } else {
      EXPECT_EQ(r.tail_items, 0u) << label(c);
    }
  }
}

TEST(QueueRace, CancelEndsEveryThreadAndSaysSo) {
  for (RaceQueue q : {RaceQueue::kBatch, RaceQueue::kMutex}) {
    for (std::uint32_t stages : {2u, 4u}) {
      RaceConfig c;
      c.queue = q;
      c.stages = stages;
      c.duration_ms = 10'000;  // far longer than the test waits
      QueueRace race;
      race.start(c);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      race.request_cancel();
      // Bounded: a thread that never exits fails the test instead of hanging it.
      const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(30);
      while (race.alive() > 0 && std::chrono::steady_clock::now() < limit)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      ASSERT_EQ(race.alive(), 0u) << label(c) << ": threads still running after cancel";
      race.join();
      const RaceResult r = race.result();
      EXPECT_TRUE(r.cancelled) << label(c);
      EXPECT_LE(r.received, r.made) << label(c);
      EXPECT_EQ(r.out_of_order, 0u) << label(c);
    }
  }
}

TEST(QueueRace, OneRunAtATime) {
  RaceConfig c;
  c.duration_ms = 10'000;
  QueueRace race;
  race.start(c);
  EXPECT_THROW(race.start(c), std::logic_error);
  EXPECT_THROW((void)race.result(), std::logic_error) << "no result before the join";
  race.request_cancel();
  race.join();
  EXPECT_TRUE(race.result().cancelled);
  c.duration_ms = kRunMs;
  race.start(c);  // the next run after a join
  race.join();
  expect_every_item_once_in_order(race.result());
}

TEST(RaceConfig, DefaultsAndEveryField) {
  const RaceConfig d = parse_race_config(R"({"queue":"fastforward"})");
  EXPECT_EQ(d.queue, RaceQueue::kFastForward);
  EXPECT_EQ(d.variant, RaceVariant::kComm);
  EXPECT_EQ(d.stages, 2u);
  EXPECT_EQ(d.semi_items, 512u);
  EXPECT_EQ(d.matrix_size, 32u);
  EXPECT_EQ(d.offered_per_s, 0);
  const RaceConfig c =
      parse_race_config(R"({"queue":"batch-unpadded","variant":"matrix","stages":4,"semiItems":64,)"
                        R"("matrixSize":64,"workUs":3.5,"durationMs":120,"offeredPerS":0})");
  EXPECT_EQ(c.queue, RaceQueue::kBatchUnpadded);
  EXPECT_EQ(c.variant, RaceVariant::kMatrix);
  EXPECT_EQ(c.stages, 4u);
  EXPECT_EQ(c.semi_items, 64u);
  EXPECT_EQ(c.matrix_size, 64u);
  EXPECT_EQ(c.work_us, 3.5);
  EXPECT_EQ(c.duration_ms, 120);
  for (RaceQueue q : race_queues()) {
    EXPECT_EQ(parse_race_config(std::string(R"({"queue":")") + to_string(q) + "\"}").queue, q);
  }
}

TEST(RaceConfig, BadValuesAreNamedWithWhatIsAllowed) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"queue":"ring"})",
       "queue: \"ring\" is not one of batch | batch-unpadded | lamport | lamport-unpadded | "
       "cached-spsc | cached-spsc-batched | fastforward | vyukov-mpmc | mutex"},
      {R"({})", "queue: missing (required)"},
      {R"({"queue":"batch","semiItems":12})",
       "semiItems: 12 is not a whole number of 64-byte cache lines (allowed: multiples of 8 "
       "items, 8..4096)"},
      {R"({"queue":"batch","semiItems":4})", "semiItems: 4 is out of range (allowed 8..4096)"},
      {R"({"queue":"batch","matrixSize":65})", "matrixSize: 65 is out of range (allowed 2..64)"},
      {R"({"queue":"batch","stages":9})", "stages: 9 is out of range (allowed 1..8)"},
      {R"({"queue":"batch","stages":1.5})", "stages: 1.5 is not an integer (allowed 1..8)"},
      {R"({"queue":"batch","variant":"fast"})",
       "variant: \"fast\" is not one of comm | matrix | work"},
      {R"({"queue":"batch","durationMs":5})", "durationMs: 5 is out of range (allowed 10..10000)"},
      {R"({"queue":"batch","stages":4,"offeredPerS":1000})",
       "offeredPerS: the latency probe runs 2 stages (stages is 4)"},
      {R"({"queue":"batch","speed":1})",
       "speed: unknown field (allowed: queue, variant, stages, semiItems, matrixSize, workUs, "
       "durationMs, offeredPerS)"},
      {R"({"queue":)", "invalid JSON at offset 9: expected a value"},
  };
  for (const auto& [text, message] : cases) {
    try {
      (void)parse_race_config(text);
      ADD_FAILURE() << text << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), message) << text;
    }
  }
}

TEST(L1MatrixWork, SizesOutsideTheCapAreNamedAndTheDefaultFillsMostOfAnL1) {
  for (std::uint32_t bad : {0u, 1u, 65u, 4096u}) {
    try {
      workload::L1MatrixWork work(bad);
      ADD_FAILURE() << "size " << bad << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()),
                "matrix size " + std::to_string(bad) + " is out of range (allowed 2..64)");
    }
  }
  workload::L1MatrixWork work;
  EXPECT_EQ(work.size(), 32u);
  EXPECT_EQ(work.bytes(), 3u * 32 * 32 * sizeof(double));  // 24 KiB of a 32 KiB L1
  // Each item's row depends on the item: the work cannot be hoisted or skipped.
  workload::L1MatrixWork a(8), b(8);
  EXPECT_EQ(a.run(5), b.run(5));
  EXPECT_NE(a.run(6), b.run(7));
}

}  // namespace
}  // namespace pipelab::race
