// Two-stage I/O runtimes (Dempsey, seed 002: Parts 2 and 1): the output text is byte-identical to a
// one-thread reference for every thread count and batch size (so the writer wrote in order); the
// buffers in use, counted from outside the runtime (a BufferPoolObserver), never exceed the pool
// of threads + 2, no buffer is reused before its batch is written, and with too few buffers for a
// slow writer the formatters really wait; the dual-thread version writes the same bytes; the input
// side parses every record exactly once; cancel stops every thread within 50 ms and the runtime
// starts again; and bad configuration is rejected naming the value and its range.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
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

// Watches the output runtime's buffer pool from outside: the most buffers held at once, misuse (a
// buffer taken while it still holds an unwritten batch, returned with another batch than it was
// taken for, or out of range), and whether every batch was taken and returned exactly once.
// `write_delay` slows the writer down (returned() runs on the writer thread, before the buffer
// goes back to the pool).
class PoolWatch final : public BufferPoolObserver {
 public:
  PoolWatch(std::uint32_t buffers, std::uint64_t batches,
            std::chrono::microseconds write_delay = std::chrono::microseconds(0))
      : holder_(buffers), taken_(batches), returned_(batches), write_delay_(write_delay) {
    for (auto& h : holder_) h.store(kFree, std::memory_order_relaxed);
  }

  void taken(std::uint32_t buffer, std::uint64_t batch) noexcept override {
    const std::uint32_t now = in_use_.fetch_add(1, std::memory_order_acq_rel) + 1;
    std::uint32_t seen = max_in_use_.load(std::memory_order_relaxed);
    while (now > seen && !max_in_use_.compare_exchange_weak(seen, now)) {
    }
    if (!known(buffer, batch) || holder_[buffer].exchange(batch) != kFree) misuse_.fetch_add(1);
    if (batch < taken_.size()) taken_[batch].fetch_add(1);
  }
  void returned(std::uint32_t buffer, std::uint64_t batch) noexcept override {
    if (write_delay_.count() > 0) std::this_thread::sleep_for(write_delay_);
    if (!known(buffer, batch) || holder_[buffer].exchange(kFree) != batch) misuse_.fetch_add(1);
    if (batch < returned_.size()) returned_[batch].fetch_add(1);
    in_use_.fetch_sub(1, std::memory_order_acq_rel);
  }

  std::uint32_t max_in_use() const { return max_in_use_.load(); }
  std::uint64_t misuse() const { return misuse_.load(); }
  std::uint64_t batches_once() const {
    std::uint64_t n = 0;
    for (std::size_t b = 0; b < taken_.size(); ++b) n += taken_[b] == 1 && returned_[b] == 1;
    return n;
  }

 private:
  static constexpr std::uint64_t kFree = ~std::uint64_t{0};
  bool known(std::uint32_t buffer, std::uint64_t batch) const {
    return buffer < holder_.size() && batch < taken_.size();
  }

  std::vector<std::atomic<std::uint64_t>> holder_;  // the batch each buffer holds, or kFree
  std::vector<std::atomic<std::uint32_t>> taken_, returned_;
  std::chrono::microseconds write_delay_;
  std::atomic<std::uint32_t> in_use_{0}, max_in_use_{0};
  std::atomic<std::uint64_t> misuse_{0};
};

// The pool as seen from outside: never more than the runtime's buffers, each reused only after
// its batch was written, every batch through exactly once.
void expect_pool_kept(const PoolWatch& watch, const TwoStageOutputRuntime& rt,
                      std::uint64_t batches, const std::string& label) {
  EXPECT_GE(watch.max_in_use(), 1u) << label;
  EXPECT_LE(watch.max_in_use(), rt.buffer_count()) << label << ": more buffers held than pooled";
  EXPECT_EQ(watch.misuse(), 0u) << label << ": a buffer reused before its batch was written";
  EXPECT_EQ(watch.batches_once(), batches) << label << ": batches not taken/returned once each";
}

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
      const std::uint64_t batches = (kItems + batch - 1) / batch;
      PoolWatch watch(rt.buffer_count(), batches);
      rt.observe_buffers(&watch);
      rt.run();
      const std::string label =
          std::to_string(threads) + " threads, batch " + std::to_string(batch);
      EXPECT_EQ(rt.text(), reference) << label;
      EXPECT_EQ(rt.bytes_written(), reference.size()) << label;
      EXPECT_EQ(rt.checksum(),
                io_text::checksum(reference.data(), reference.size(), io_text::kChecksumSeed))
          << label;
      EXPECT_EQ(rt.out_of_sequence(), 0u) << label << ": writer took a batch out of sequence";
      EXPECT_EQ(rt.batches_written(), batches) << label;
      EXPECT_EQ(rt.items_completed(), kItems) << label;
      EXPECT_EQ(rt.buffer_count(), threads + 2) << label << ": buffers = threads + 2";
      expect_pool_kept(watch, rt, batches, label);
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
    const std::uint64_t batches = (kItems + batch - 1) / batch;
    PoolWatch watch(rt.buffer_count(), batches);
    rt.observe_buffers(&watch);
    rt.run();
    EXPECT_EQ(rt.text(), reference) << "batch " << batch;
    EXPECT_EQ(rt.out_of_sequence(), 0u);
    expect_pool_kept(watch, rt, batches, "dual-thread, batch " + std::to_string(batch));
  }
}

// A writer slower than the formatters (0.3 ms per buffer, against microseconds to format one)
// leaves them too few buffers: they fill the whole pool, then wait (blocked-full events on their
// lanes) instead of formatting into anything else, and the text still comes out right.
TEST(TwoStageOutput, TooFewBuffersForASlowWriterMakeFormattersWait) {
  constexpr std::uint32_t kThreads = 4;
  constexpr std::uint32_t kBatch = 7;
  constexpr std::uint64_t kBatches = 60;
  RunOptions o;
  o.ring_capacity = 4096;
  TwoStageOutputRuntime rt(output_config(kThreads, kBatch, kBatch * kBatches), o);
  PoolWatch watch(rt.buffer_count(), kBatches, std::chrono::microseconds(300));
  rt.observe_buffers(&watch);
  rt.run();
  EXPECT_EQ(rt.text(), io_text::sequential_output(2, kBatch * kBatches));
  expect_pool_kept(watch, rt, kBatches, "slow writer");
  EXPECT_EQ(watch.max_in_use(), rt.buffer_count()) << "the formatters never filled the pool";
  std::vector<telemetry::Event> events(o.ring_capacity);
  std::uint64_t waits = 0;
  for (std::uint32_t w = 0; w < kThreads; ++w) {
    const std::size_t n = rt.telemetry().ring(w).pop_into(events.data(), events.size());
    for (std::size_t i = 0; i < n; ++i) {
      waits += events[i].kind == telemetry::EventKind::kBlockedFull && events[i].stage == 0;
    }
  }
  EXPECT_GT(waits, 0u) << "no formatter ever waited for a buffer";
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
