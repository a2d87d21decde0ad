// Two-stage I/O runtimes (Dempsey, seed 002: Parts 2 and 1): the output text is byte-identical to a
// one-thread reference for every thread count and batch size (so the writer wrote in order), the
// buffer pool never exceeds threads + 2, the dual-thread version writes the same bytes, the input
// side parses every record exactly once, cancel stops every thread within 50 ms and the runtime
// starts again, and bad configuration is rejected naming the value and its range.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "pipelab/pipeline/two_stage_io/input_runtime.hpp"
#include "pipelab/pipeline/two_stage_io/output_runtime.hpp"
#include "pipeline_test_support.hpp"

namespace pipelab::pipeline {
namespace {

using Clock = std::chrono::steady_clock;

#if defined(PIPELAB_TEST_TSAN)
constexpr std::uint64_t kItems = 700;
constexpr std::uint64_t kRecords = 3000;
constexpr std::uint64_t kCancelRecords = 300000;
#elif defined(__EMSCRIPTEN__)
constexpr std::uint64_t kItems = 1500;
constexpr std::uint64_t kRecords = 10000;
constexpr std::uint64_t kCancelRecords = 400000;
#else
constexpr std::uint64_t kItems = 3000;
constexpr std::uint64_t kRecords = 30000;
constexpr std::uint64_t kCancelRecords = 1500000;
#endif
constexpr std::uint32_t kMaxTestThreads = 8;  // also the wasm cap here (pool of 20 Workers)

TwoStageOutputConfig output_config(std::uint32_t threads, std::uint32_t batch,
                                   std::uint64_t items = kItems) {
  TwoStageOutputConfig c;
  c.threads = threads;
  c.batch_items = batch;
  c.items = items;
  c.seed = 2;
  c.keep_text = true;
  return c;
}

TEST(TwoStageOutput, TextIsByteIdenticalToSequentialForEveryThreadCountAndBatch) {
  const std::string reference = io_text::sequential_output(2, kItems);
  for (std::uint32_t batch : {1u, 7u, 1024u}) {
    for (std::uint32_t threads = 1; threads <= kMaxTestThreads; ++threads) {
      TwoStageOutputRuntime rt(output_config(threads, batch));
      rt.run();
      const std::string label =
          std::to_string(threads) + " threads, batch " + std::to_string(batch);
      EXPECT_EQ(rt.text(), reference) << label;
      EXPECT_EQ(rt.bytes_written(), reference.size()) << label;
      EXPECT_EQ(rt.checksum(),
                io_text::checksum(reference.data(), reference.size(), io_text::kChecksumSeed))
          << label;
      EXPECT_EQ(rt.out_of_sequence(), 0u) << label << ": writer took a batch out of sequence";
      EXPECT_EQ(rt.batches_written(), (kItems + batch - 1) / batch) << label;
      EXPECT_EQ(rt.items_completed(), kItems) << label;
      EXPECT_GE(rt.max_buffers_in_use(), 1u) << label;
      EXPECT_LE(rt.max_buffers_in_use(), threads + 2) << label << ": buffers = threads + 2";
      EXPECT_EQ(rt.buffer_count(), threads + 2) << label;
    }
  }
}

TEST(TwoStageOutput, DualThreadVersionWritesTheSameBytes) {
  const std::string reference = io_text::sequential_output(2, kItems);
  for (std::uint32_t batch : {1u, 7u, 1024u}) {
    TwoStageOutputConfig c = TwoStageOutputRuntime::dual_thread(kItems, batch, 2);
    c.keep_text = true;
    TwoStageOutputRuntime rt(c);
    EXPECT_EQ(rt.thread_count(), 2u);
    EXPECT_EQ(rt.buffer_count(), 3u);
    rt.run();
    EXPECT_EQ(rt.text(), reference) << "batch " << batch;
    EXPECT_LE(rt.max_buffers_in_use(), 3u);
    EXPECT_EQ(rt.out_of_sequence(), 0u);
  }
}

// The page draws the writer's lane from its ring: start/end per batch in batch order.
TEST(TwoStageOutput, TelemetryShowsWriterBatchesInOrder) {
  RunOptions o;
  o.ring_capacity = 1024;
  TwoStageOutputRuntime rt(output_config(3, 7, 7 * 40), o);
  rt.run();
  std::vector<telemetry::Event> events(1024);
  const std::size_t n = rt.telemetry().ring(3).pop_into(events.data(), events.size());
  std::vector<std::uint32_t> starts;
  for (std::size_t i = 0; i < n; ++i) {
    if (events[i].kind == telemetry::EventKind::kStart) {
      EXPECT_EQ(events[i].stage, 1u);
      starts.push_back(events[i].item);
    }
  }
  ASSERT_EQ(starts.size(), 40u);
  for (std::uint32_t b = 0; b < 40; ++b) EXPECT_EQ(starts[b], b);
  std::uint64_t formatted = 0;
  for (std::uint32_t w = 0; w < 3; ++w) {
    const std::size_t m = rt.telemetry().ring(w).pop_into(events.data(), events.size());
    for (std::size_t i = 0; i < m; ++i) {
      formatted += events[i].kind == telemetry::EventKind::kEnd && events[i].stage == 0;
    }
  }
  EXPECT_EQ(formatted, 40u);
}

TwoStageInputConfig input_config(std::uint32_t threads, std::uint32_t batch,
                                 std::uint64_t records = kRecords) {
  TwoStageInputConfig c;
  c.threads = threads;
  c.batch_records = batch;
  c.records = records;
  c.seed = 0;
  return c;
}

TEST(TwoStageInput, ParsesEveryRecordExactlyOnce) {
  const io_text::InputTotals reference =
      io_text::sequential_parse(io_text::input_text(0, kRecords));
  ASSERT_EQ(reference.records, kRecords);
  ASSERT_EQ(reference.bad, 0u);
  for (std::uint32_t batch : {1u, 7u, 1024u}) {
    for (std::uint32_t threads = 1; threads <= kMaxTestThreads; threads += batch == 1 ? 3 : 1) {
      TwoStageInputRuntime rt(input_config(threads, batch), testing::checking());
      rt.run();
      const std::string label =
          std::to_string(threads) + " threads, batch " + std::to_string(batch);
      EXPECT_EQ(rt.checks().count_delivered(1), kRecords)
          << label << ": each record parsed exactly once";
      EXPECT_EQ(rt.sum(), reference.sum) << label;
      EXPECT_EQ(rt.bad_records(), 0u) << label;
      EXPECT_EQ(rt.misplaced(), 0u) << label << ": a span's records and positions disagree";
      EXPECT_EQ(rt.records_scanned(), kRecords) << label;
      EXPECT_EQ(rt.items_completed(), kRecords) << label;
    }
  }
}

// Starts, waits for progress, cancels; returns ms from the request until every thread exited.
double cancel_latency_ms(Runtime& rt) {
  rt.start();
  const auto started = Clock::now();
  while (rt.items_completed() == 0 && !rt.finished() &&
         Clock::now() - started < std::chrono::seconds(10)) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return testing::cancel_and_time_exit_ms(rt);
}

// As in cancel_test.cpp: a saturated 2-core machine may delay any thread tens of ms, so a round
// over 50 ms is retried (up to 3 tries); every try must end within 1 s.
void expect_cancel_within_50ms(Runtime& rt, std::uint64_t total, const char* label) {
  for (int round = 0; round < 2; ++round) {
    double best = 1e9;
    for (int attempt = 0; attempt < 3 && best >= 50.0; ++attempt) {
      const double ms = cancel_latency_ms(rt);
      std::printf("cancel %s round %d: all threads exited %.2f ms after the request\n", label,
                  round, ms);
      EXPECT_LT(ms, 1000.0) << label;
      EXPECT_GT(rt.items_completed(), 0u) << label;
      EXPECT_LT(rt.items_completed(), total) << label << ": the run ended before the cancel";
      best = std::min(best, ms);
    }
    EXPECT_LT(best, 50.0) << label << " round " << round;
  }
}

TEST(TwoStageCancel, EveryThreadExitsWithin50msAndRestartWorks) {
  {
    TwoStageOutputConfig c = output_config(3, 1024, 50000000);
    c.keep_text = false;
    TwoStageOutputRuntime rt(c);
    expect_cancel_within_50ms(rt, c.items, "two-stage output");
  }
  {
    TwoStageInputRuntime rt(input_config(2, 16, kCancelRecords));
    expect_cancel_within_50ms(rt, kCancelRecords, "two-stage input");
  }
  // After a cancelled run the same object completes a full run with the reference result.
  TwoStageOutputRuntime out(output_config(4, 7));
  out.start();
  out.request_cancel();
  out.join();
  out.run();
  EXPECT_EQ(out.text(), io_text::sequential_output(2, kItems));
  TwoStageInputRuntime in(input_config(3, 7), testing::checking());
  in.start();
  in.request_cancel();
  in.join();
  in.run();
  EXPECT_EQ(in.checks().count_delivered(1), kRecords);
}

template <typename F>
std::string error_of(F make) {
  try {
    make();
  } catch (const SpecError& e) {
    return e.what();
  }
  return "no error";
}

// The largest batch and thread counts are accepted and run (one batch holds every item).
TEST(TwoStageConfig, LimitsAreAccepted) {
#if defined(__EMSCRIPTEN__)
  const std::uint32_t run_threads = 15;  // never more than 16 threads in wasm (pool of 20)
#else
  const std::uint32_t run_threads = TwoStageOutputRuntime::kMaxComputeThreads;
#endif
  TwoStageOutputRuntime big(output_config(run_threads, 65536, 1000));
  big.run();
  EXPECT_EQ(big.text(), io_text::sequential_output(2, 1000));
  TwoStageInputRuntime in(input_config(run_threads, 65536, 1000), testing::checking());
  in.run();
  EXPECT_EQ(in.checks().count_delivered(1), 1000u);
}

TEST(TwoStageConfig, BadConfigurationIsRejectedNamingTheValue) {
  EXPECT_EQ(error_of([] { TwoStageOutputRuntime rt(output_config(2, 0)); }),
            "batch_items: 0 is out of range (allowed 1..65536)");
  EXPECT_EQ(error_of([] { TwoStageOutputRuntime rt(output_config(0, 8)); }),
            "threads: 0 is out of range (allowed 1..63; the writer is thread 64)");
  EXPECT_EQ(error_of([] { TwoStageOutputRuntime rt(output_config(65, 8)); }),
            "threads: 65 is out of range (allowed 1..63; the writer is thread 64)");
  EXPECT_EQ(error_of([] { TwoStageOutputRuntime rt(output_config(64, 8)); }),
            "threads: 64 is out of range (allowed 1..63; the writer is thread 64)");
  EXPECT_EQ(error_of([] { TwoStageOutputRuntime rt(output_config(2, 8, 0)); }),
            "items: 0 is out of range (allowed 1..100000000)");
  EXPECT_EQ(error_of([] { TwoStageOutputRuntime rt(output_config(2, 65537)); }),
            "batch_items: 65537 is out of range (allowed 1..65536)");
  EXPECT_EQ(error_of([] { TwoStageInputRuntime rt(input_config(2, 65537)); }),
            "batch_records: 65537 is out of range (allowed 1..65536)");
  EXPECT_EQ(error_of([] { TwoStageInputRuntime rt(input_config(2, 0)); }),
            "batch_records: 0 is out of range (allowed 1..65536)");
  EXPECT_EQ(error_of([] { TwoStageInputRuntime rt(input_config(0, 8)); }),
            "threads: 0 is out of range (allowed 1..63; the scanner is thread 64)");
  EXPECT_EQ(error_of([] { TwoStageInputRuntime rt(input_config(65, 8)); }),
            "threads: 65 is out of range (allowed 1..63; the scanner is thread 64)");
}

}  // namespace
}  // namespace pipelab::pipeline
