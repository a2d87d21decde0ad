// TwoStageOutputRuntime: Dempsey's two-stage parallel output (QuickThread; Part 2 of his
// "Two-Stage Input Parallel Pipeline" articles, seed 002) — N compute threads format batches of B
// items as text ("item,price\n", io_text.hpp) into buffers, ONE writer thread emits the buffers
// strictly in batch order into the sink and recycles them. threads = 1 is the paper's dual-thread
// version (1 compute + 1 I/O thread, 3 buffers) for comparison.
// Thread roles: workers 0..N-1 compute (stage 0 "format"), worker N writes (stage 1 "write").
// Pause: compute threads park between batches and while no buffer is free, the writer between
// buffers (Runtime::pause_point).
// Buffers: a fixed pool of N + 2 (N being filled, 1 being written, 1 spare so a compute thread
// never waits on the write in progress); free ones sit in a Vyukov MPMC queue. A compute thread
// takes a free buffer FIRST and only then claims the next batch number (fetch_add): so the lowest
// unwritten batch always owns a buffer and the writer can never starve while holding later ones
// (claiming first can deadlock: N + 2 early-finished batches fill the pool). The batches claimed
// and not yet written therefore number at most N + 2, so slot seq % (N + 2) of `ready_` is
// unique; it holds (seq << 8 | buffer + 1), stored release by the producer and loaded acquire by
// the writer, which accepts it only when the tag equals the batch it needs next (a later tag
// there would be an out-of-sequence write; counted, and tested to stay 0).
// Observer: observe_buffers() attaches a BufferPoolObserver that hears each buffer taken (by the
// compute thread, for a batch) and returned (by the writer, once written): so tests count the
// buffers in use from outside the runtime rather than trusting its own bookkeeping.
// Sink (writer-only): a running FNV-1a checksum and byte count, plus the whole text when
// keep_text (tests); no file I/O. Departure from the paper: no real device, and buffers are
// recycled through a lock-free queue instead of QuickThread's queued tasks.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pipelab/cacheline.hpp"
#include "pipelab/pipeline/link.hpp"
#include "pipelab/pipeline/runtime.hpp"
#include "pipelab/pipeline/two_stage_io/io_text.hpp"
#include "pipelab/queues/vyukov_mpmc_queue.hpp"
#include "pipelab/sched/backoff.hpp"

namespace pipelab::pipeline {

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

struct TwoStageOutputConfig {
  std::uint32_t threads = 1;         // compute threads; the writer is one more
  std::uint32_t batch_items = 1024;  // items per buffer (Dempsey: 1,024)
  std::uint64_t items = 0;
  std::uint32_t seed = 2;
  bool keep_text = false;  // also keep the written text (else checksum + bytes only)
};

class TwoStageOutputRuntime final : public Runtime {
 public:
  static constexpr std::uint32_t kMaxComputeThreads = kMaxRunThreads - 1;
  static constexpr std::uint32_t kMaxBatchItems = 65536;

  explicit TwoStageOutputRuntime(const TwoStageOutputConfig& config, const RunOptions& options = {})
      : Runtime(spec_for(config), options, config.threads + 1),
        config_(config),
        batches_((config.items + config.batch_items - 1) / config.batch_items),
        buffer_count_(config.threads + 2),
        free_(pool_capacity(config.threads + 2)),
        ready_(new std::atomic<std::uint64_t>[config.threads + 2]) {
    const std::size_t bytes =
        std::size_t(std::min<std::uint64_t>(config.batch_items, config.items)) *
        io_text::kMaxLineBytes;
    for (std::uint32_t b = 0; b < buffer_count_; ++b) pool_.push_back(Buffer(bytes));
  }
  ~TwoStageOutputRuntime() override {
    request_cancel();
    join();
  }

  // Dempsey's comparison point: one compute thread and one I/O thread, 3 buffers.
  static TwoStageOutputConfig dual_thread(std::uint64_t items, std::uint32_t batch_items,
                                          std::uint32_t seed) {
    return TwoStageOutputConfig{1, batch_items, items, seed, false};
  }

  std::uint32_t thread_count() const noexcept override { return config_.threads + 1; }
  std::uint32_t buffer_count() const noexcept { return buffer_count_; }
  // Between runs only; nullptr detaches. The observer must outlive the runs it watches.
  void observe_buffers(BufferPoolObserver* observer) noexcept { observer_ = observer; }

  // Read after finished() (the workers' exit publishes them).
  std::uint64_t bytes_written() const noexcept { return bytes_; }
  std::uint64_t checksum() const noexcept { return checksum_; }
  const std::string& text() const noexcept { return text_; }
  std::uint64_t batches_written() const noexcept { return written_; }
  std::uint64_t out_of_sequence() const noexcept { return out_of_sequence_; }
  // Mean µs from a batch's first formatted item to the end of its write.
  double mean_batch_latency_us() const noexcept {
    return written_ == 0 ? 0.0 : latency_sum_us_ / double(written_);
  }

 private:
  struct Buffer {
    explicit Buffer(std::size_t capacity) : text(new char[capacity]) {}
    std::unique_ptr<char[]> text;
    std::size_t bytes = 0;
    std::uint64_t seq = 0;
    std::uint32_t items = 0;
    double start_us = 0;
  };

  static ExperimentSpec spec_for(const TwoStageOutputConfig& c) {
    using detail::check_range;
    check_range("threads", double(c.threads), 1, kMaxComputeThreads, "; the writer is thread 64");
    check_range("batch_items", double(c.batch_items), 1, kMaxBatchItems);
    check_range("items", double(c.items), 1, kMaxItems);
    // Describes the run for the page; the work itself is format_batch() (per item: one price).
    ExperimentSpec s;
    s.stages = {StageSpec{"format", StageMode::kParallel, c.threads,
                          ServiceSpec::kernel_of(KernelName::kFormatPrices, 1)},
                StageSpec{"write", StageMode::kSerialInOrder, 1, {}}};
    s.tokens = c.threads + 2;
    s.items = c.items;
    s.seed = c.seed;
    return s;
  }
  static std::size_t pool_capacity(std::uint32_t buffers) noexcept {
    return round_up_pow2(buffers);
  }

  void prepare() override {
    std::uint32_t b;
    while (free_.try_pop(b)) {
    }
    for (b = 0; b < buffer_count_; ++b) (void)free_.try_push(b);  // capacity >= buffers
    for (b = 0; b < buffer_count_; ++b) ready_[b].store(0, std::memory_order_relaxed);
    next_batch_.store(0, std::memory_order_relaxed);
    bytes_ = written_ = out_of_sequence_ = 0;
    checksum_ = io_text::kChecksumSeed;
    latency_sum_us_ = 0;
    blocked_on_ = 0;
    text_.clear();
  }

  void work(std::uint32_t w) override {
    if (w == config_.threads) {
      write_loop(std::uint16_t(w));
    } else {
      compute_loop(std::uint16_t(w));
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
      if (observer_ != nullptr) observer_->taken(b, seq);
      if (!format_batch(w, pool_[b], seq)) return;
      ready_[seq % buffer_count_].store((seq << 8) | (b + 1), std::memory_order_release);
    }
  }

  // Fills `buf` with batch `seq`; false if cancelled part-way (prepare() recycles the buffer).
  bool format_batch(std::uint16_t w, Buffer& buf, std::uint64_t seq) noexcept {
    const std::uint64_t first = seq * config_.batch_items;
    const auto n =
        std::uint32_t(std::min<std::uint64_t>(config_.batch_items, config_.items - first));
    const double t0 = telemetry_.now_us();
    telemetry_.record_at(t0, w, telemetry::EventKind::kStart, 0, std::uint32_t(seq), n);
    std::size_t at = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      if ((i & 63) == 63 && cancel_requested()) return false;
      at += io_text::format_line(buf.text.get() + at, config_.seed, first + i);
    }
    buf.bytes = at;
    buf.seq = seq;
    buf.items = n;
    buf.start_us = t0;
    const double t1 = telemetry_.now_us();
    telemetry_.record_at(t1, w, telemetry::EventKind::kEnd, 0, std::uint32_t(seq), n);
    telemetry_.tally_service(w, 0, t1 - t0, t1);
    return true;
  }

  void write_loop(std::uint16_t w) noexcept {
    sched::Backoff backoff;
    for (std::uint64_t next = 0; next < batches_;) {
      pause_point(w);
      if (cancel_requested()) return;
      const std::uint64_t v = ready_[next % buffer_count_].load(std::memory_order_acquire);
      if ((v & 0xFF) == 0 || (v >> 8) < next) {  // empty, or last lap's batch
        if (blocked_on_ != next + 1) {
          telemetry_.record(w, telemetry::EventKind::kBlockedEmpty, 1, std::uint32_t(next));
          blocked_on_ = next + 1;
        }
        backoff.pause();
        continue;
      }
      backoff.reset();
      const std::uint32_t b = std::uint32_t(v & 0xFF) - 1;
      Buffer& buf = pool_[b];
      if ((v >> 8) != next || buf.seq != next) ++out_of_sequence_;
      write_buffer(w, buf);
      for (std::uint32_t i = 0; i < buf.items; ++i) item_done(buf.seq * config_.batch_items + i, 0);
      if (observer_ != nullptr) observer_->returned(b, buf.seq);
      (void)free_.try_push(b);  // capacity >= buffers: never full
      ++next;
    }
  }

  void write_buffer(std::uint16_t w, const Buffer& buf) noexcept {
    const double t0 = telemetry_.now_us();
    telemetry_.record_at(t0, w, telemetry::EventKind::kStart, 1, std::uint32_t(buf.seq), buf.items);
    checksum_ = io_text::checksum(buf.text.get(), buf.bytes, checksum_);
    bytes_ += buf.bytes;
    if (config_.keep_text) text_.append(buf.text.get(), buf.bytes);
    ++written_;
    const double t1 = telemetry_.now_us();
    latency_sum_us_ += t1 - buf.start_us;
    telemetry_.record_at(t1, w, telemetry::EventKind::kEnd, 1, std::uint32_t(buf.seq), buf.items);
    telemetry_.tally_service(w, 1, t1 - t0, t1);
  }

  TwoStageOutputConfig config_;
  std::uint64_t batches_;
  std::uint32_t buffer_count_;
  std::vector<Buffer> pool_;
  queues::VyukovMpmcQueue<std::uint32_t> free_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> ready_;
  BufferPoolObserver* observer_ = nullptr;  // set between runs only
  alignas(kPrefetchPairBytes) std::atomic<std::uint64_t> next_batch_{0};
  // Writer-only state, published to the controller by the worker's exit (Runtime::live_).
  alignas(kPrefetchPairBytes) std::uint64_t bytes_ = 0, written_ = 0, out_of_sequence_ = 0;
  std::uint64_t checksum_ = io_text::kChecksumSeed;
  std::uint64_t blocked_on_ = 0;  // 1 + the batch the last blocked-empty event named
  double latency_sum_us_ = 0;
  std::string text_;
};

}  // namespace pipelab::pipeline
