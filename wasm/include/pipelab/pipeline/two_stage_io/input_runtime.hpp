// TwoStageInputRuntime: Dempsey's two-stage parallel input (QuickThread; Part 1 of his "Two-Stage
// Input Parallel Pipeline" articles, whose Part 2 is seed 002 and recaps Part 1) — ONE scan
// thread walks an in-memory text (newline-separated records generated from the seed, io_text.hpp)
// and cuts it into spans of up to B whole records (offset, length, first record, count); N reader
// threads parse the spans in parallel and sum each record's value (order-independent).
// Thread roles: worker 0 scans (stage 0 "scan"), workers 1..N read (stage 1 "read").
// Pause: the scanner parks between batches and while the span queue is full, readers between
// spans (Runtime::pause_point).
// Link: a bounded Vyukov MPMC queue of spans (capacity = 2N rounded up to a power of two); the
// scanner backs off when it is full (blocked-full), readers when it is empty (blocked-empty).
// End of stream: the scanner stores scan_done_ (release) after its last push; a reader that saw
// scan_done_ (acquire) BEFORE a failed pop knows no span is left. Each record's position bumps a
// per-record counter (relaxed: a verdict, publishes nothing) so tests can check exactly-once.
// Reader sums go to one atomic at exit (relaxed; the exit's acq_rel on live_ publishes them).
// Departure from the paper: the text is in memory (no file read), so "read" is the parse.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "pipelab/cacheline.hpp"
#include "pipelab/pipeline/link.hpp"
#include "pipelab/pipeline/runtime.hpp"
#include "pipelab/pipeline/two_stage_io/io_text.hpp"
#include "pipelab/queues/vyukov_mpmc_queue.hpp"
#include "pipelab/sched/backoff.hpp"

namespace pipelab::pipeline {

struct TwoStageInputConfig {
  std::uint32_t threads = 1;           // reader threads; the scanner is one more
  std::uint32_t batch_records = 1024;  // records per span
  std::uint64_t records = 0;
  std::uint32_t seed = 0;
};

class TwoStageInputRuntime final : public Runtime {
 public:
  static constexpr std::uint32_t kMaxReaderThreads = kMaxRunThreads - 1;
  static constexpr std::uint32_t kMaxBatchRecords = 65536;

  explicit TwoStageInputRuntime(const TwoStageInputConfig& config, const RunOptions& options = {})
      : Runtime(spec_for(config), options, config.threads + 1),
        config_(config),
        text_(io_text::input_text(config.seed, config.records)),
        spans_(queue_capacity(config.threads)) {}
  ~TwoStageInputRuntime() override {
    request_cancel();
    join();
  }

  std::uint32_t thread_count() const noexcept override { return config_.threads + 1; }

  // Read after finished().
  std::uint64_t sum() const noexcept { return sum_.load(std::memory_order_acquire); }
  std::uint64_t bad_records() const noexcept { return bad_.load(std::memory_order_acquire); }
  // Records whose parsed item number differs from their position in the text.
  std::uint64_t misplaced() const noexcept { return misplaced_.load(std::memory_order_acquire); }
  std::uint64_t records_scanned() const noexcept { return scanned_; }

 private:
  struct Span {
    std::uint64_t offset = 0, first_record = 0;
    std::uint32_t length = 0, records = 0;
  };

  static ExperimentSpec spec_for(const TwoStageInputConfig& c) {
    using detail::check_range;
    check_range("threads", double(c.threads), 1, kMaxReaderThreads, "; the scanner is thread 64");
    check_range("batch_records", double(c.batch_records), 1, kMaxBatchRecords);
    check_range("records", double(c.records), 1, kMaxItems);
    ExperimentSpec s;
    s.stages = {StageSpec{"scan", StageMode::kSerialInOrder, 1, {}},
                StageSpec{"read", StageMode::kParallel, c.threads, {}}};
    s.items = c.records;
    s.seed = c.seed;
    return s;
  }
  static std::size_t queue_capacity(std::uint32_t readers) noexcept {
    return round_up_pow2(2 * std::size_t(readers));
  }

  void prepare() override {
    Span s;
    while (spans_.try_pop(s)) {
    }
    scan_done_.store(false, std::memory_order_relaxed);
    sum_.store(0, std::memory_order_relaxed);
    bad_.store(0, std::memory_order_relaxed);
    misplaced_.store(0, std::memory_order_relaxed);
    scanned_ = 0;
  }

  void work(std::uint32_t w) override {
    if (w == 0) {
      scan_loop();
    } else {
      read_loop(std::uint16_t(w));
    }
  }

  void scan_loop() noexcept {
    sched::Backoff backoff;
    const char* const base = text_.data();
    std::size_t pos = 0;
    std::uint64_t record = 0;
    for (std::uint32_t batch = 0; pos < text_.size(); ++batch) {
      pause_point(0);
      if (cancel_requested()) return;
      const double t0 = telemetry_.now_us();
      telemetry_.record_at(t0, 0, telemetry::EventKind::kStart, 0, batch);
      Span span{pos, record, 0, 0};
      while (span.records < config_.batch_records && pos < text_.size()) {
        const void* nl = std::memchr(base + pos, '\n', text_.size() - pos);
        pos = nl ? std::size_t(static_cast<const char*>(nl) - base) + 1 : text_.size();
        ++span.records;
      }
      span.length = std::uint32_t(pos - span.offset);
      record += span.records;
      const double t1 = telemetry_.now_us();
      telemetry_.record_at(t1, 0, telemetry::EventKind::kEnd, 0, batch, span.records);
      telemetry_.tally_service(0, 0, t1 - t0, t1);
      bool blocked = false;
      while (!spans_.try_push(span)) {
        pause_point(0);
        if (cancel_requested()) return;
        if (!blocked) telemetry_.record(0, telemetry::EventKind::kBlockedFull, 0, batch);
        blocked = true;
        backoff.pause();
      }
      backoff.reset();
    }
    scanned_ = record;
    scan_done_.store(true, std::memory_order_release);
  }

  void read_loop(std::uint16_t w) noexcept {
    sched::Backoff backoff;
    std::uint64_t sum = 0, bad = 0, misplaced = 0;
    bool blocked = false;
    while (!cancel_requested()) {
      pause_point(w);
      if (cancel_requested()) break;
      const bool done = scan_done_.load(std::memory_order_acquire);
      Span span;
      if (!spans_.try_pop(span)) {
        if (done) break;
        if (!blocked)
          telemetry_.record(w, telemetry::EventKind::kBlockedEmpty, 1, telemetry::kNoItem);
        blocked = true;
        backoff.pause();
        continue;
      }
      blocked = false;
      backoff.reset();
      const auto batch = std::uint32_t(span.first_record / config_.batch_records);
      const double t0 = telemetry_.now_us();
      telemetry_.record_at(t0, w, telemetry::EventKind::kStart, 1, batch, span.records);
      const char* p = text_.data() + span.offset;
      const char* const end = p + span.length;
      for (std::uint32_t i = 0; i < span.records; ++i) {
        if ((i & 255) == 255 && cancel_requested()) break;
        const char* nl = static_cast<const char*>(std::memchr(p, '\n', std::size_t(end - p)));
        const char* line_end = nl ? nl : end;
        const io_text::ParsedRecord r = io_text::parse_record(p, std::size_t(line_end - p));
        const std::uint64_t at = span.first_record + i;
        if (!r.ok) {
          ++bad;
        } else {
          sum += io_text::record_value(r);
          misplaced += r.item != at;
        }
        item_done(at, 0);
        p = nl ? nl + 1 : end;
      }
      const double t1 = telemetry_.now_us();
      telemetry_.record_at(t1, w, telemetry::EventKind::kEnd, 1, batch, span.records);
      telemetry_.tally_service(w, 1, t1 - t0, t1);
    }
    sum_.fetch_add(sum, std::memory_order_relaxed);
    bad_.fetch_add(bad, std::memory_order_relaxed);
    misplaced_.fetch_add(misplaced, std::memory_order_relaxed);
  }

  TwoStageInputConfig config_;
  std::string text_;
  queues::VyukovMpmcQueue<Span> spans_;
  alignas(kPrefetchPairBytes) std::atomic<bool> scan_done_{false};
  alignas(kPrefetchPairBytes) std::atomic<std::uint64_t> sum_{0}, bad_{0}, misplaced_{0};
  std::uint64_t scanned_ = 0;  // scanner-only, published by its exit
};

}  // namespace pipelab::pipeline
