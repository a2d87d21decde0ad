// TwoStageOutputRuntime: Dempsey's two-stage parallel output (QuickThread; Part 2 of his
// "Two-Stage Input Parallel Pipeline" articles, seed 002) — N compute threads format batches of B
// items as text ("item,price\n", io_text.hpp) into buffers, ONE writer thread emits the buffers
// strictly in batch order into the sink and recycles them. The spec's `variant` also gives
// Dempsey's comparison points: dual-thread (1 compute + 1 I/O thread) and serial (one thread
// formats a batch, then writes it). Built from an ExperimentSpec of runtime two-stage-output
// (contracts/spec.md): stage 0 "format" (parallel), stage 1 "write" (serial-in-order).
// Thread roles: workers 0..N-1 compute (stage 0), worker N writes (stage 1); serial: worker 0
// does both. Work per item: the real formatting (compute) or checksumming (writer) plus the
// stage's service as calibrated busy work (slow motion is longer real work, never a replay).
// Pause: compute threads park between batches and while no buffer is free, the writer between
// buffers (Runtime::pause_point). Cancel is polled every item.
// Buffers: a fixed pool (spec.buffers, default N + 2: N being filled, 1 being written, 1 spare so
// a compute thread never waits on the write in progress); free ones sit in a Vyukov MPMC queue. A
// compute thread takes a free buffer FIRST and only then claims the next batch number
// (fetch_add): so the lowest unwritten batch always owns a buffer and the writer can never
// starve while holding later ones (claiming first can deadlock: `buffers` early-finished batches
// fill the pool). The batches claimed and not yet written therefore number at most `buffers`, so
// slot seq % buffers of `ready_` is unique; it holds (seq << 16 | buffer + 1), stored release by
// the producer after its buffer-ready event and loaded acquire by the writer, which takes it only
// when the tag equals the batch it needs next: it never writes out of order.
// Writer's wait: after a few re-checks the writer sleeps on a futex word (published_) that every
// formatter bumps after making a batch ready, and wakes only when one has been. A timed backoff
// would wake every few tens of µs to look, and each look takes a core from a formatter when
// threads outnumber cores (in wasm, where yield() does not yield, it cost about 2 such wake-ups
// per batch). No lost wake-up: the writer reads published_ BEFORE looking at ready_, and the
// futex sleeps only while the word still holds that value; a formatter stores ready_ before its
// bump, and wakes the futex only if writer_asleep_ is set (both seq_cst, so either the formatter
// sees the flag or the writer's futex sees the bump). wake_waiters() bumps and wakes too, so a
// cancel or pause reaches a sleeping writer at once.
// Telemetry (contracts/telemetry.md, batch runtimes): start/end per batch (item = batch, arg = its
// items), buffer-take / buffer-ready / buffer-free (item = batch, arg = buffer), each recorded
// before the hand-over it announces, so the page sees a buffer's steps in order; stage counters in
// items; stage 1's queueOccupancy = batches formatted and not yet taken by the writer.
// Observer: observe_buffers() attaches a BufferPoolObserver that hears each buffer taken (by the
// compute thread, for a batch) and returned (by the writer, once written): so tests count the
// buffers in use, and the order of writes, from outside the runtime.
// Sink (writer-only): a running FNV-1a checksum and byte count, plus the whole text when
// keep_text (tests); no file I/O. Departure from the paper: no real device, and buffers are
// recycled through a lock-free queue instead of QuickThread's queued tasks.
#pragma once

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "pipelab/cacheline.hpp"
#include "pipelab/pipeline/link.hpp"
#include "pipelab/pipeline/runtime.hpp"
#include "pipelab/pipeline/two_stage_io/io_text.hpp"
#include "pipelab/queues/vyukov_mpmc_queue.hpp"
#include "pipelab/sched/backoff.hpp"
#include "pipelab/sync/futex.hpp"

namespace pipelab::pipeline {

static_assert(io_text::kMaxLineBytes == std::size_t(limits::kBudgetOutputLineBytes),
              "the spec's buffer budget counts the bytes a formatted line may take");

// Watches the buffer pool from outside the runtime (tests). Each call comes from the thread that
// acts, at the moment it acts, so implementations must be thread-safe; they may take their time
// (a slow returned() makes a slow writer).
class BufferPoolObserver {
 public:
  virtual ~BufferPoolObserver() = default;
  // A compute thread took `buffer` from the pool and is about to format `batch` into it.
  virtual void taken(std::uint32_t buffer, std::uint64_t batch) noexcept = 0;
  // The writer has written `batch` from `buffer` and is about to put the buffer back in the pool.
  virtual void returned(std::uint32_t buffer, std::uint64_t batch) noexcept = 0;
};

// A two-stage-output spec without JSON (tests, bench).
struct TwoStageOutputConfig {
  std::uint32_t threads = 1;         // formatting threads (dual-thread and serial: 1)
  std::uint32_t batch_items = 1024;  // items per buffer (Dempsey: 1,024)
  std::uint64_t items = 0;
  std::uint32_t seed = 2;
  bool keep_text = false;  // also keep the written text (else checksum + bytes only)
  TwoStageVariant variant = TwoStageVariant::kTwoStage;
  std::uint32_t buffers = 0;  // 0: threads + 2
  double format_us = 0;       // busy work per item on top of formatting it
  double write_us = 0;        // busy work per item on top of writing it
};

inline ExperimentSpec two_stage_output_spec(const TwoStageOutputConfig& c) {
  ExperimentSpec s;
  s.runtime = RuntimeKind::kTwoStageOutput;
  s.stages = {StageSpec{"format", StageMode::kParallel, c.threads, ServiceSpec::fixed(c.format_us)},
              StageSpec{"write", StageMode::kSerialInOrder, 1, ServiceSpec::fixed(c.write_us)}};
  s.variant = c.variant;
  s.batch_items = c.batch_items;
  s.buffers = c.buffers;
  s.items = c.items;
  s.seed = c.seed;
  return s;
}

class TwoStageOutputRuntime final : public Runtime {
 public:
  // `keep_text`: also keep the written text (tests).
  explicit TwoStageOutputRuntime(const ExperimentSpec& spec, const RunOptions& options = {},
                                 bool keep_text = false)
      : TwoStageOutputRuntime(validated(spec), options, keep_text, 0) {}
  explicit TwoStageOutputRuntime(const TwoStageOutputConfig& config, const RunOptions& options = {})
      : TwoStageOutputRuntime(two_stage_output_spec(config), options, config.keep_text) {}
  ~TwoStageOutputRuntime() override {
    request_cancel();
    join();
  }

  // Dempsey's comparison point: one compute thread and one I/O thread, 3 buffers.
  static TwoStageOutputConfig dual_thread(std::uint64_t items, std::uint32_t batch_items,
                                          std::uint32_t seed) {
    TwoStageOutputConfig c;
    c.items = items;
    c.batch_items = batch_items;
    c.seed = seed;
    c.variant = TwoStageVariant::kDualThread;
    return c;
  }

  std::uint32_t thread_count() const noexcept override { return spec_.threads; }
  std::uint32_t buffer_count() const noexcept { return buffer_count_; }
  std::uint64_t batch_count() const noexcept { return batches_; }
  // Between runs only; nullptr detaches. The observer must outlive the runs it watches.
  void observe_buffers(BufferPoolObserver* observer) noexcept { observer_ = observer; }

  // Read after finished() (the workers' exit publishes them).
  std::uint64_t bytes_written() const noexcept { return bytes_; }
  std::uint64_t checksum() const noexcept { return checksum_; }
  const std::string& text() const noexcept { return text_; }
  std::uint64_t batches_written() const noexcept { return written_; }
  // For the page: the written text's FNV-1a checksum as 16 hex digits, its bytes and batches.
  std::string output_json() const override {
    char text[96];
    std::snprintf(text, sizeof text,
                  "{\"checksum\":\"%016" PRIx64 "\",\"bytes\":%" PRIu64 ",\"batches\":%" PRIu64 "}",
                  checksum(), bytes_written(), batches_written());
    return text;
  }
  // Mean µs from a batch's first formatted item to the end of its write.
  double mean_batch_latency_us() const noexcept {
    return written_ == 0 ? 0.0 : latency_sum_us_ / double(written_);
  }

 private:
  struct Buffer {
    explicit Buffer(std::size_t capacity) : text(new char[capacity]) {}
    std::unique_ptr<char[]> text;
    std::size_t bytes = 0;
    double start_us = 0;
  };

  static ExperimentSpec validated(ExperimentSpec spec) {
    if (spec.runtime != RuntimeKind::kTwoStageOutput) {
      throw SpecError("runtime", std::string("\"") + to_string(spec.runtime) +
                                     "\" is not two-stage-output (TwoStageOutputRuntime)");
    }
    validate(spec, kTwoStageRules);
    return spec;
  }

  TwoStageOutputRuntime(const ExperimentSpec& spec, const RunOptions& options, bool keep_text, int)
      : Runtime(spec, kTwoStageRules, options),
        keep_text_(keep_text),
        formatters_(spec.variant == TwoStageVariant::kSerial ? 0 : spec.stages[0].threads),
        batch_items_(spec.batch_items),
        batches_((spec.items + spec.batch_items - 1) / spec.batch_items),
        buffer_count_(spec.buffers),
        free_(round_up_pow2(spec.buffers)),
        ready_(new std::atomic<std::uint64_t>[spec.buffers]) {
    const std::size_t bytes =
        std::size_t(std::min<std::uint64_t>(batch_items_, spec.items)) * io_text::kMaxLineBytes;
    for (std::uint32_t b = 0; b < buffer_count_; ++b) pool_.push_back(Buffer(bytes));
  }

  void prepare() override {
    std::uint32_t b;
    while (free_.try_pop(b)) {
    }
    for (b = 0; b < buffer_count_; ++b) (void)free_.try_push(b);  // capacity >= buffers
    for (b = 0; b < buffer_count_; ++b) ready_[b].store(0, std::memory_order_relaxed);
    next_batch_.store(0, std::memory_order_relaxed);
    bytes_ = written_ = 0;
    checksum_ = io_text::kChecksumSeed;
    latency_sum_us_ = 0;
    blocked_on_ = 0;
    text_.clear();
  }

  void work(std::uint32_t w) override {
    if (formatters_ == 0) {
      serial_loop();
    } else if (w == formatters_) {
      write_loop(std::uint16_t(w));
    } else {
      compute_loop(std::uint16_t(w));
    }
  }

  std::uint32_t items_in(std::uint64_t seq) const noexcept {
    return std::uint32_t(std::min<std::uint64_t>(batch_items_, spec_.items - seq * batch_items_));
  }
  std::atomic<std::uint64_t>& waiting_batches() noexcept {
    return telemetry_.counters(1).queue_occupancy;
  }

  // The serial variant: one thread formats batch after batch into one buffer and writes each.
  void serial_loop() noexcept {
    for (std::uint64_t seq = 0; seq < batches_; ++seq) {
      pause_point(0);
      if (cancel_requested()) return;
      std::uint32_t b = 0;
      (void)free_.try_pop(b);  // the pool is full: one thread uses one buffer over and over
      took(0, b, seq);
      if (!format_batch(0, pool_[b], seq)) return;
      telemetry_.record(0, telemetry::EventKind::kBufferReady, 1, std::uint32_t(seq), b);
      if (!write_buffer(0, b, seq)) return;
      (void)free_.try_push(b);
    }
  }

  void compute_loop(std::uint16_t w) noexcept {
    sched::Backoff backoff;
    for (;;) {
      pause_point(w);
      if (cancel_requested()) return;
      std::uint32_t b;
      bool blocked = false;
      while (!free_.try_pop(b)) {
        pause_point(w);
        if (cancel_requested()) return;
        if (!blocked)
          telemetry_.record(w, telemetry::EventKind::kBlockedFull, 0, telemetry::kNoItem);
        blocked = true;
        backoff.pause();
      }
      backoff.reset();
      const std::uint64_t seq = next_batch_.fetch_add(1, std::memory_order_relaxed);
      if (seq >= batches_) {
        (void)free_.try_push(b);  // no batch left for it: never used
        break;
      }
      took(w, b, seq);
      if (!format_batch(w, pool_[b], seq)) return;
      waiting_batches().fetch_add(1, std::memory_order_relaxed);
      telemetry_.record(w, telemetry::EventKind::kBufferReady, 1, std::uint32_t(seq), b);
      ready_[seq % buffer_count_].store((seq << 16) | (b + 1), std::memory_order_release);
      published_.fetch_add(1, std::memory_order_seq_cst);
      if (writer_asleep_.load(std::memory_order_seq_cst) != 0) sync::futex_wake_all(published_);
    }
  }

  void wake_waiters() noexcept override {
    published_.fetch_add(1, std::memory_order_seq_cst);
    sync::futex_wake_all(published_);
  }

  void took(std::uint16_t w, std::uint32_t b, std::uint64_t seq) noexcept {
    telemetry_.record(w, telemetry::EventKind::kBufferTake, 0, std::uint32_t(seq), b);
    if (observer_ != nullptr) observer_->taken(b, seq);
  }

  // Fills `buf` with batch `seq`; false if cancelled part-way (prepare() recycles the buffer).
  bool format_batch(std::uint16_t w, Buffer& buf, std::uint64_t seq) noexcept {
    const std::uint64_t first = seq * batch_items_;
    const std::uint32_t n = items_in(seq);
    const double t0 = telemetry_.now_us();
    telemetry_.record_at(t0, w, telemetry::EventKind::kStart, 0, std::uint32_t(seq), n);
    std::size_t at = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (cancel_requested()) return false;
      at += io_text::format_line(buf.text.get() + at, spec_.seed, first + i);
      (void)work_[0].run(first + i, at);
    }
    buf.bytes = at;
    buf.start_us = t0;
    const double t1 = telemetry_.now_us();
    telemetry_.record_at(t1, w, telemetry::EventKind::kEnd, 0, std::uint32_t(seq), n);
    telemetry_.tally_service(w, 0, t1 - t0, t1, n);
    return true;
  }

  // Re-checks before the writer sleeps: enough to catch a batch finishing within about a µs.
  static constexpr std::uint32_t kWriterChecks = 64;

  void write_loop(std::uint16_t w) noexcept {
    std::uint32_t checks = 0;
    for (std::uint64_t next = 0; next < batches_;) {
      pause_point(w);
      if (cancel_requested()) return;
      const std::uint32_t seen = published_.load(std::memory_order_seq_cst);  // before ready_
      const std::uint64_t v = ready_[next % buffer_count_].load(std::memory_order_acquire);
      if ((v & 0xFFFF) == 0 || (v >> 16) != next) {  // empty, or last lap's batch
        if (blocked_on_ != next + 1) {
          telemetry_.record(w, telemetry::EventKind::kBlockedEmpty, 1, std::uint32_t(next));
          blocked_on_ = next + 1;
        }
        if (++checks < kWriterChecks) continue;
        writer_asleep_.store(1, std::memory_order_seq_cst);
        sync::futex_wait(published_, seen);  // returns at once if a batch came since `seen`
        writer_asleep_.store(0, std::memory_order_relaxed);
        continue;
      }
      checks = 0;
      waiting_batches().fetch_sub(1, std::memory_order_relaxed);
      const std::uint32_t b = std::uint32_t(v & 0xFFFF) - 1;
      if (!write_buffer(w, b, next)) return;
      (void)free_.try_push(b);  // capacity >= buffers: never full
      ++next;
    }
  }

  // Writes batch `seq` from buffer `b` into the sink, then announces the buffer free; false if
  // cancelled part-way.
  bool write_buffer(std::uint16_t w, std::uint32_t b, std::uint64_t seq) noexcept {
    const Buffer& buf = pool_[b];
    const std::uint64_t first = seq * batch_items_;
    const std::uint32_t n = items_in(seq);
    const double t0 = telemetry_.now_us();
    telemetry_.record_at(t0, w, telemetry::EventKind::kStart, 1, std::uint32_t(seq), n);
    checksum_ = io_text::checksum(buf.text.get(), buf.bytes, checksum_);
    bytes_ += buf.bytes;
    if (keep_text_) text_.append(buf.text.get(), buf.bytes);
    for (std::uint32_t i = 0; i < n; ++i) {
      if (cancel_requested()) return false;
      (void)work_[1].run(first + i, checksum_);
    }
    ++written_;
    const double t1 = telemetry_.now_us();
    latency_sum_us_ += t1 - buf.start_us;
    telemetry_.record_at(t1, w, telemetry::EventKind::kEnd, 1, std::uint32_t(seq), n);
    telemetry_.tally_service(w, 1, t1 - t0, t1, n);
    for (std::uint32_t i = 0; i < n; ++i) item_done(first + i, 0);
    telemetry_.record(w, telemetry::EventKind::kBufferFree, 1, std::uint32_t(seq), b);
    if (observer_ != nullptr) observer_->returned(b, seq);
    return true;
  }

  bool keep_text_;
  std::uint32_t formatters_;  // 0: the serial variant
  std::uint64_t batch_items_;
  std::uint64_t batches_;
  std::uint32_t buffer_count_;
  std::vector<Buffer> pool_;
  queues::VyukovMpmcQueue<std::uint32_t> free_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> ready_;
  BufferPoolObserver* observer_ = nullptr;  // set between runs only
  alignas(kPrefetchPairBytes) std::atomic<std::uint64_t> next_batch_{0};
  // The writer's futex word (bumped per batch made ready) and its "about to sleep" flag.
  alignas(kPrefetchPairBytes) std::atomic<std::uint32_t> published_{0};
  std::atomic<std::uint32_t> writer_asleep_{0};
  // Writer-only state, published to the controller by the worker's exit (Runtime::live_).
  alignas(kPrefetchPairBytes) std::uint64_t bytes_ = 0, written_ = 0;
  std::uint64_t checksum_ = io_text::kChecksumSeed;
  std::uint64_t blocked_on_ = 0;  // 1 + the batch the last blocked-empty event named
  double latency_sum_us_ = 0;
  std::string text_;
};

}  // namespace pipelab::pipeline
