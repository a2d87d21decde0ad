// Two-stage I/O runtimes (Dempsey, seed 002: Parts 2 and 1), checked from outside the runtime:
// the output text is byte-identical to a one-thread reference for every variant, thread count,
// batch size and pool size; a BufferPoolObserver sees every batch taken and returned exactly once,
// returned (written) strictly in batch order, never more buffers in use than the pool, no buffer
// reused before its batch is written, and with too few buffers for a slow writer the formatters
// really wait; the telemetry shows each batch's buffer steps in order and counts items; the input
// side parses every record exactly once in every variant; runtimes built from spec JSON get the
// spec's defaults (buffers = formatters + 2); cancel stops every thread within 50 ms and the
// runtime starts again; bad configuration is rejected naming the value and its range.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

#include "pipelab/pipeline/runtime_kinds.hpp"
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
constexpr std::uint64_t kCancelRecords = 1000000;
#endif
constexpr std::uint32_t kMaxTestThreads = 8;  // also the wasm cap here (pool of 20 Workers)

// Watches the output runtime's buffer pool from outside: the most buffers held at once, misuse (a
// buffer taken while it still holds an unwritten batch, returned with another batch than it was
// taken for, or out of range), every batch taken and returned exactly once, and the order the
// writer returned them in. `write_delay` slows the writer down (returned() runs on the writer
// thread, before the buffer goes back to the pool).
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
    {
      std::lock_guard<std::mutex> lock(order_mutex_);
      write_order_.push_back(batch);
    }
    in_use_.fetch_sub(1, std::memory_order_acq_rel);
  }

  std::uint32_t max_in_use() const { return max_in_use_.load(); }
  std::uint64_t misuse() const { return misuse_.load(); }
  std::uint64_t batches_once() const {
    std::uint64_t n = 0;
    for (std::size_t b = 0; b < taken_.size(); ++b) n += taken_[b] == 1 && returned_[b] == 1;
    return n;
  }
  // Batches the writer returned before a lower-numbered one (0 when written strictly in order).
  std::uint64_t written_out_of_order() const {
    std::lock_guard<std::mutex> lock(order_mutex_);
    std::uint64_t n = 0;
    for (std::size_t i = 0; i < write_order_.size(); ++i) n += write_order_[i] != i;
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
  mutable std::mutex order_mutex_;
  std::vector<std::uint64_t> write_order_;
};

// The pool as seen from outside: never more than `pool` buffers, each reused only after its
// batch was written, every batch through exactly once, written in batch order.
void expect_pool_kept(const PoolWatch& watch, std::uint32_t pool, std::uint64_t batches,
                      const std::string& label) {
  EXPECT_GE(watch.max_in_use(), 1u) << label;
  EXPECT_LE(watch.max_in_use(), pool) << label << ": more buffers held than pooled";
  EXPECT_EQ(watch.misuse(), 0u) << label << ": a buffer reused before its batch was written";
  EXPECT_EQ(watch.batches_once(), batches) << label << ": batches not taken/returned once each";
  EXPECT_EQ(watch.written_out_of_order(), 0u) << label << ": the writer broke batch order";
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

std::uint64_t batches_of(std::uint64_t items, std::uint32_t batch) {
  return (items + batch - 1) / batch;
}

// Runs `c` watched and checks the text and the pool; `pool` is the pool the spec should give.
// Returns the most buffers held at once.
std::uint32_t expect_correct_output(const TwoStageOutputConfig& c, std::uint32_t pool,
                                    const std::string& label) {
  static const std::string reference = io_text::sequential_output(2, kItems);
  TwoStageOutputRuntime rt(c);
  const std::uint64_t batches = batches_of(c.items, c.batch_items);
  PoolWatch watch(pool, batches);
  rt.observe_buffers(&watch);
  rt.run();
  EXPECT_EQ(rt.text(), reference) << label;
  EXPECT_EQ(rt.bytes_written(), reference.size()) << label;
  EXPECT_EQ(rt.checksum(),
            io_text::checksum(reference.data(), reference.size(), io_text::kChecksumSeed))
      << label;
  EXPECT_EQ(rt.items_completed(), c.items) << label;
  expect_pool_kept(watch, pool, batches, label);
  return watch.max_in_use();
}

TEST(TwoStageOutput, TextIsByteIdenticalToSequentialForEveryThreadCountAndBatch) {
  for (std::uint32_t batch : {1u, 7u, 1024u}) {
    for (std::uint32_t threads = 1; threads <= kMaxTestThreads; ++threads) {
      expect_correct_output(output_config(threads, batch), threads + 2,
                            std::to_string(threads) + " threads, batch " + std::to_string(batch));
    }
  }
}

TEST(TwoStageOutput, DualThreadAndSerialVariantsWriteTheSameBytes) {
  for (std::uint32_t batch : {1u, 7u, 1024u}) {
    TwoStageOutputConfig dual = TwoStageOutputRuntime::dual_thread(kItems, batch, 2);
    dual.keep_text = true;
    EXPECT_EQ(TwoStageOutputRuntime(dual).thread_count(), 2u);
    expect_correct_output(dual, 3, "dual-thread, batch " + std::to_string(batch));
    TwoStageOutputConfig serial = output_config(1, batch);
    serial.variant = TwoStageVariant::kSerial;
    EXPECT_EQ(TwoStageOutputRuntime(serial).thread_count(), 1u);
    EXPECT_EQ(expect_correct_output(serial, 3, "serial, batch " + std::to_string(batch)), 1u)
        << "one thread holds one buffer at a time";
  }
}

// Any pool from 2 buffers up keeps the order and never holds more than it has.
TEST(TwoStageOutput, PoolSizesFromTwoUpKeepOrderAndBound) {
  for (std::uint32_t buffers : {2u, 3u, 16u}) {
    TwoStageOutputConfig c = output_config(4, 7);
    c.buffers = buffers;
    expect_correct_output(c, buffers, std::to_string(buffers) + " buffers");
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
  expect_pool_kept(watch, kThreads + 2, kBatches, "slow writer");
  EXPECT_EQ(watch.max_in_use(), kThreads + 2) << "the formatters never filled the pool";
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

// What the page's reorder view reads: per batch one buffer-take (before its format start), one
// buffer-ready (after its format end), the writer's start/end, one buffer-free, all naming the
// same buffer and in that order in time; the writer starts batches in order; counters in items.
TEST(TwoStageOutput, TelemetryShowsEachBatchsBufferStepsInOrder) {
  constexpr std::uint32_t kBatches = 40;
  RunOptions o;
  o.ring_capacity = 2048;
  TwoStageOutputRuntime rt(output_config(3, 7, 7 * kBatches - 3), o);
  rt.run();
  struct Steps {
    int take = 0, ready = 0, free = 0, format_end = 0, write_start = 0;
    double take_us = -1, ready_us = -1, write_us = -1, free_us = -1;
    std::uint32_t buffer = 99, free_buffer = 98, items = 0;
  };
  std::vector<Steps> steps(kBatches);
  std::vector<std::uint32_t> write_starts;
  std::vector<telemetry::Event> events(o.ring_capacity);
  for (std::uint32_t w = 0; w < rt.thread_count(); ++w) {
    const std::size_t n = rt.telemetry().ring(w).pop_into(events.data(), events.size());
    for (std::size_t i = 0; i < n; ++i) {
      const telemetry::Event& e = events[i];
      using K = telemetry::EventKind;
      if (e.item >= kBatches) continue;  // blocked events name no batch, or the next one
      Steps& s = steps[e.item];
      if (e.kind == K::kBufferTake) s.take++, s.buffer = e.arg, s.take_us = e.time_us;
      if (e.kind == K::kBufferReady) s.ready++, s.ready_us = e.time_us;
      if (e.kind == K::kBufferFree) s.free++, s.free_buffer = e.arg, s.free_us = e.time_us;
      if (e.kind == K::kEnd && e.stage == 0) s.format_end++, s.items += e.arg;
      if (e.kind == K::kStart && e.stage == 1) {
        s.write_start++, s.write_us = e.time_us;
        write_starts.push_back(e.item);
        EXPECT_EQ(w, 3u) << "only the writer writes";
      }
    }
  }
  for (std::uint32_t b = 0; b < kBatches; ++b) {
    const Steps& s = steps[b];
    EXPECT_EQ(s.take + s.ready + s.free + s.format_end + s.write_start, 5) << "batch " << b;
    EXPECT_EQ(s.buffer, s.free_buffer) << "batch " << b << " freed another buffer than it took";
    EXPECT_LT(s.buffer, 5u) << "batch " << b;
    EXPECT_LE(s.take_us, s.ready_us) << "batch " << b;
    EXPECT_LE(s.ready_us, s.write_us) << "batch " << b;
    EXPECT_LE(s.write_us, s.free_us) << "batch " << b;
    EXPECT_EQ(s.items, b + 1 < kBatches ? 7u : 4u) << "batch " << b;
  }
  ASSERT_EQ(write_starts.size(), kBatches);
  for (std::uint32_t b = 0; b < kBatches; ++b) EXPECT_EQ(write_starts[b], b);
  EXPECT_EQ(rt.telemetry().counters(0).items_out.load(), 7u * kBatches - 3);
  EXPECT_EQ(rt.telemetry().counters(1).items_out.load(), 7u * kBatches - 3);
  EXPECT_EQ(rt.telemetry().counters(1).queue_occupancy.load(), 0u) << "batches left waiting";
}

// The engine's path: JSON → spec → make_runtime. The spec's defaults reach the runtime (buffers =
// formatters + 2, Dempsey's batch of 1,024), and a given pool and variant are used.
TEST(TwoStageOutput, BuiltFromSpecJsonWithItsDefaults) {
  const std::string stages =
      R"("stages": [{"name": "format", "mode": "parallel", "threads": 3,
                     "service": {"kind": "fixed", "us": 0}},
                    {"name": "write", "mode": "serial-in-order",
                     "service": {"kind": "fixed", "us": 0}}])";
  auto rt = make_runtime(parse_experiment_spec(R"({"runtime": "two-stage-output", )" + stages +
                                               R"(, "items": 5000, "seed": 2})"));
  auto* out = dynamic_cast<TwoStageOutputRuntime*>(rt.get());
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->buffer_count(), 5u);
  EXPECT_EQ(out->batch_count(), 5u) << "batches of 1024";
  EXPECT_EQ(rt->thread_count(), 4u);
  rt->run();
  const std::string text = io_text::sequential_output(2, 5000);
  EXPECT_EQ(out->checksum(), io_text::checksum(text.data(), text.size(), io_text::kChecksumSeed));
  auto serial = make_runtime(parse_experiment_spec(
      R"({"runtime": "two-stage-output", "stages": [{"name": "f", "mode": "parallel",
          "service": {"kind": "fixed", "us": 0}}, {"name": "w", "mode": "serial-in-order",
          "service": {"kind": "fixed", "us": 0}}], "variant": "serial", "batchItems": 64,
          "buffers": 2, "items": 5000, "seed": 2})"));
  EXPECT_EQ(serial->thread_count(), 1u);
  serial->run();
  EXPECT_EQ(dynamic_cast<TwoStageOutputRuntime&>(*serial).checksum(), out->checksum());
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

void expect_parsed_once(const TwoStageInputConfig& c, const std::string& label) {
  static const io_text::InputTotals reference =
      io_text::sequential_parse(io_text::input_text(0, kRecords));
  ASSERT_EQ(reference.records, kRecords);
  ASSERT_EQ(reference.bad, 0u);
  TwoStageInputRuntime rt(c, testing::checking());
  rt.run();
  EXPECT_EQ(rt.checks().count_delivered(1), kRecords)
      << label << ": each record parsed exactly once";
  EXPECT_EQ(rt.sum(), reference.sum) << label;
  EXPECT_EQ(rt.bad_records(), 0u) << label;
  EXPECT_EQ(rt.misplaced(), 0u) << label << ": a span's records and positions disagree";
  EXPECT_EQ(rt.items_completed(), kRecords) << label;
  EXPECT_EQ(rt.telemetry().counters(1).items_out.load(), kRecords) << label;
}

TEST(TwoStageInput, ParsesEveryRecordExactlyOnce) {
  for (std::uint32_t batch : {1u, 7u, 1024u}) {
    for (std::uint32_t threads = 1; threads <= kMaxTestThreads; threads += batch == 1 ? 3 : 1) {
      expect_parsed_once(input_config(threads, batch),
                         std::to_string(threads) + " threads, batch " + std::to_string(batch));
    }
  }
}

TEST(TwoStageInput, DualThreadAndSerialVariantsParseEveryRecordOnce) {
  for (TwoStageVariant v : {TwoStageVariant::kDualThread, TwoStageVariant::kSerial}) {
    TwoStageInputConfig c = input_config(1, 7);
    c.variant = v;
    EXPECT_EQ(TwoStageInputRuntime(c).thread_count(), v == TwoStageVariant::kSerial ? 1u : 2u);
    expect_parsed_once(c, to_string(v));
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
    // Slow-motion busy work: a 4096-item batch spins 0.4 s, so only the per-item cancel check
    // can end it in time.
    TwoStageOutputConfig c = output_config(2, 4096, 1000000);
    c.keep_text = false;
    c.format_us = 100;
    TwoStageOutputRuntime rt(c);
    expect_cancel_within_50ms(rt, c.items, "slow-motion output");
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

// The largest batch and thread counts are accepted and run (one batch holds every item); the
// largest batch with the most buffers the pool budget holds (64 of 4096 items).
TEST(TwoStageConfig, LimitsAreAccepted) {
#if defined(__EMSCRIPTEN__)
  const std::uint32_t run_threads = 15;  // never more than 16 threads in wasm (pool of 20)
#else
  const std::uint32_t run_threads = kMaxRunThreads - 1;
#endif
  TwoStageOutputRuntime big(output_config(run_threads, 1024, 1000));
  big.run();
  EXPECT_EQ(big.text(), io_text::sequential_output(2, 1000));
  TwoStageOutputConfig widest = output_config(2, 4096, 1000);
  widest.buffers = 64;
  TwoStageOutputRuntime wide(widest);
  wide.run();
  EXPECT_EQ(wide.text(), io_text::sequential_output(2, 1000));
  TwoStageInputRuntime in(input_config(run_threads, 4096, 1000), testing::checking());
  in.run();
  EXPECT_EQ(in.checks().count_delivered(1), 1000u);
}

TEST(TwoStageConfig, BadConfigurationIsRejectedNamingTheValue) {
  EXPECT_EQ(error_of([] { TwoStageOutputRuntime rt(output_config(2, 4097)); }),
            "batchItems: 4097 is out of range (allowed 1..4096)");
  EXPECT_EQ(error_of([] { TwoStageOutputRuntime rt(output_config(0, 8)); }),
            "stages[0].threads: 0 is out of range (allowed 1..64)");
  EXPECT_EQ(error_of([] { TwoStageOutputRuntime rt(output_config(65, 8)); }),
            "stages[0].threads: 65 is out of range (allowed 1..64)");
  EXPECT_EQ(error_of([] { TwoStageOutputRuntime rt(output_config(64, 8)); }),
            "threads: 65 is out of range for the threads engine (allowed 1..64)");
  EXPECT_EQ(error_of([] { TwoStageOutputRuntime rt(output_config(2, 8, 0)); }),
            "items: 0 is out of range (allowed 1..100000000)");
  EXPECT_EQ(error_of([] {
              TwoStageOutputConfig c = output_config(2, 8);
              c.buffers = 1;
              TwoStageOutputRuntime rt(c);
            }),
            "buffers: 1 is out of range (allowed 2..1024)");
  EXPECT_EQ(error_of([] {
              TwoStageOutputConfig c = output_config(2, 4096);
              c.buffers = 100;
              TwoStageOutputRuntime rt(c);
            }),
            "buffers: the pool exceeds its memory budget");
  EXPECT_EQ(error_of([] {
              TwoStageOutputConfig c = output_config(3, 8);
              c.variant = TwoStageVariant::kDualThread;
              TwoStageOutputRuntime rt(c);
            }),
            "stages[0].threads: the dual-thread and serial variants take 1 thread");
  EXPECT_EQ(error_of([] { TwoStageInputRuntime rt(input_config(2, 4097)); }),
            "batchItems: 4097 is out of range (allowed 1..4096)");
  EXPECT_EQ(error_of([] { TwoStageInputRuntime rt(input_config(0, 8)); }),
            "stages[1].threads: 0 is out of range (allowed 1..64)");
  EXPECT_EQ(error_of([] { TwoStageInputRuntime rt(input_config(2, 8, 1000001)); }),
            "items: 1000001 is out of range for the threads engine's two-stage input (allowed "
            "1..1000000: it holds the text in memory)");
  EXPECT_EQ(error_of([] { TwoStageOutputRuntime rt(two_stage_input_spec(input_config(2, 8))); }),
            "runtime: \"two-stage-input\" is not two-stage-output (TwoStageOutputRuntime)");
}

}  // namespace
}  // namespace pipelab::pipeline
