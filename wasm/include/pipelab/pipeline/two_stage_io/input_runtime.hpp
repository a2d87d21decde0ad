// TwoStageInputRuntime: Dempsey's two-stage parallel input (QuickThread; Part 1 of his "Two-Stage
// Input Parallel Pipeline" articles, whose Part 2 is seed 002 and recaps Part 1), also seed 000's
// parallel input stage (§4.2: a serial scan feeding t parallel readers) — ONE scan thread walks an
// in-memory text (newline-separated records generated from the seed, io_text.hpp) and cuts it
// into spans of up to B whole records (offset, length, first record, count); N reader threads
// parse the spans in parallel and sum each record's value (order-independent). Built from an
// ExperimentSpec of runtime two-stage-input (contracts/spec.md): stage 0 "scan" (serial-in-order),
// stage 1 "read" (parallel); the `variant` gives dual-thread (one reader) and serial (one thread
// scans a span, then parses it).
// Thread roles: worker 0 scans (stage 0), workers 1..N read (stage 1); serial: worker 0 does both.
// Work per record: the real scanning (memchr) or parsing plus the stage's service as busy work.
// Pause: the scanner parks between spans and while the span queue is full, readers between spans
// (Runtime::pause_point). Cancel is polled every record.
// Link: a bounded Vyukov MPMC queue of spans (capacity = 2N rounded up to a power of two); the
// scanner backs off when it is full (blocked-full), readers when it is empty (blocked-empty).
// End of stream: the scanner stores scan_done_ (release) after its last push; a reader that saw
// scan_done_ (acquire) BEFORE a failed pop knows no span is left. Exactly-once is checked through
// RunChecks (item_done per record, by its position in the text).
// Telemetry (contracts/telemetry.md, batch runtimes): start/end per span (item = span, arg = its
// records); counters in records; stage 1's queueOccupancy = spans cut and not yet taken.
// Reader sums go to one atomic at exit (relaxed; the exit's acq_rel on live_ publishes them).
// Memory: the text is held whole, so the threads engine takes at most the spec budget's
// inputRecords (a SpecError naming items beyond it).
// Departure from the paper: the text is in memory (no file read), so "read" is the parse.
#pragma once

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
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

// A two-stage-input spec without JSON (tests, bench).
struct TwoStageInputConfig {
  std::uint32_t threads = 1;           // reader threads (dual-thread and serial: 1)
  std::uint32_t batch_records = 1024;  // records per span
  std::uint64_t records = 0;
  std::uint32_t seed = 0;
  TwoStageVariant variant = TwoStageVariant::kTwoStage;
  double scan_us = 0;  // busy work per record on top of finding its end
  double read_us = 0;  // busy work per record on top of parsing it
};

inline ExperimentSpec two_stage_input_spec(const TwoStageInputConfig& c) {
  ExperimentSpec s;
  s.runtime = RuntimeKind::kTwoStageInput;
  s.stages = {StageSpec{"scan", StageMode::kSerialInOrder, 1, ServiceSpec::fixed(c.scan_us)},
              StageSpec{"read", StageMode::kParallel, c.threads, ServiceSpec::fixed(c.read_us)}};
  s.variant = c.variant;
  s.batch_items = c.batch_records;
  s.items = c.records;
  s.seed = c.seed;
  return s;
}

class TwoStageInputRuntime final : public Runtime {
 public:
  static constexpr auto kMaxRecords = std::uint64_t(limits::kBudgetInputRecords);

  explicit TwoStageInputRuntime(const ExperimentSpec& spec, const RunOptions& options = {})
      : TwoStageInputRuntime(validated(spec), options, 0) {}
  explicit TwoStageInputRuntime(const TwoStageInputConfig& config, const RunOptions& options = {})
      : TwoStageInputRuntime(two_stage_input_spec(config), options) {}
  ~TwoStageInputRuntime() override {
    request_cancel();
    join();
  }

  std::uint32_t thread_count() const noexcept override { return spec_.threads; }

  // Read after finished().
  std::uint64_t sum() const noexcept { return sum_.load(std::memory_order_acquire); }
  std::uint64_t bad_records() const noexcept { return bad_.load(std::memory_order_acquire); }
  // Records whose parsed item number differs from their position in the text.
  std::uint64_t misplaced() const noexcept { return misplaced_.load(std::memory_order_acquire); }
  // For the page: the records' values summed as 16 hex digits, and the records read, bad,
  // misplaced.
  std::string output_json() const override {
    char text[128];
    std::snprintf(text, sizeof text,
                  "{\"sum\":\"%016" PRIx64 "\",\"records\":%" PRIu64 ",\"bad\":%" PRIu64
                  ",\"misplaced\":%" PRIu64 "}",
                  sum(), items_completed(), bad_records(), misplaced());
    return text;
  }

 private:
  struct Span {
    std::uint64_t offset = 0, first_record = 0;
    std::uint32_t length = 0, records = 0;
  };
  struct Totals {
    std::uint64_t sum = 0, bad = 0, misplaced = 0;
  };

  static ExperimentSpec validated(ExperimentSpec spec) {
    if (spec.runtime != RuntimeKind::kTwoStageInput) {
      throw SpecError("runtime", std::string("\"") + to_string(spec.runtime) +
                                     "\" is not two-stage-input (TwoStageInputRuntime)");
    }
    validate(spec, kTwoStageRules);
    if (spec.items > kMaxRecords) {
      throw SpecError("items", std::to_string(spec.items) +
                                   " is out of range for the threads engine's two-stage input "
                                   "(allowed 1.." +
                                   std::to_string(kMaxRecords) + ": it holds the text in memory)");
    }
    return spec;
  }

  TwoStageInputRuntime(const ExperimentSpec& spec, const RunOptions& options, int)
      : Runtime(spec, kTwoStageRules, options),
        readers_(spec.variant == TwoStageVariant::kSerial ? 0 : spec.stages[1].threads),
        batch_records_(spec.batch_items),
        text_(io_text::input_text(spec.seed, spec.items)),
        spans_(round_up_pow2(2 * std::size_t(readers_ ? readers_ : 1))) {}

  void prepare() override {
    Span s;
    while (spans_.try_pop(s)) {
    }
    scan_done_.store(false, std::memory_order_relaxed);
    sum_.store(0, std::memory_order_relaxed);
    bad_.store(0, std::memory_order_relaxed);
    misplaced_.store(0, std::memory_order_relaxed);
  }

  void work(std::uint32_t w) override {
    if (w == 0) {
      scan_loop();
    } else {
      read_loop(std::uint16_t(w));
    }
  }

  std::atomic<std::uint64_t>& waiting_spans() noexcept {
    return telemetry_.counters(1).queue_occupancy;
  }

  // Cuts the next span at `pos` (up to batch_records_ records), spending the scan's work.
  bool cut_span(std::uint32_t batch, std::size_t& pos, std::uint64_t& record, Span& span) noexcept {
    const char* const base = text_.data();
    const double t0 = telemetry_.now_us();
    telemetry_.record_at(t0, 0, telemetry::EventKind::kStart, 0, batch);
    span = Span{pos, record, 0, 0};
    while (span.records < batch_records_ && pos < text_.size()) {
      if (cancel_requested()) return false;
      const void* nl = std::memchr(base + pos, '\n', text_.size() - pos);
      pos = nl ? std::size_t(static_cast<const char*>(nl) - base) + 1 : text_.size();
      (void)work_[0].run(record + span.records, pos);
      ++span.records;
    }
    span.length = std::uint32_t(pos - span.offset);
    record += span.records;
    const double t1 = telemetry_.now_us();
    telemetry_.record_at(t1, 0, telemetry::EventKind::kEnd, 0, batch, span.records);
    telemetry_.tally_service(0, 0, t1 - t0, t1, span.records);
    return true;
  }

  void scan_loop() noexcept {
    sched::Backoff backoff;
    std::size_t pos = 0;
    std::uint64_t record = 0;
    Totals serial;  // the serial variant parses what it scans
    for (std::uint32_t batch = 0; pos < text_.size(); ++batch) {
      pause_point(0);
      if (cancel_requested()) break;
      Span span;
      if (!cut_span(batch, pos, record, span)) break;
      if (readers_ == 0) {
        if (!read_span(0, span, serial)) break;
        continue;
      }
      bool blocked = false;
      while (!spans_.try_push(span)) {
        pause_point(0);
        if (cancel_requested()) return;
        if (!blocked) telemetry_.record(0, telemetry::EventKind::kBlockedFull, 0, batch);
        blocked = true;
        backoff.pause();
      }
      waiting_spans().fetch_add(1, std::memory_order_relaxed);
      backoff.reset();
    }
    publish(serial);
    scan_done_.store(true, std::memory_order_release);
  }

  // Parses a span's records; false if cancelled part-way.
  bool read_span(std::uint16_t w, const Span& span, Totals& t) noexcept {
    const auto batch = std::uint32_t(span.first_record / batch_records_);
    const double t0 = telemetry_.now_us();
    telemetry_.record_at(t0, w, telemetry::EventKind::kStart, 1, batch, span.records);
    const char* p = text_.data() + span.offset;
    const char* const end = p + span.length;
    for (std::uint32_t i = 0; i < span.records; ++i) {
      if (cancel_requested()) return false;
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', std::size_t(end - p)));
      const char* line_end = nl ? nl : end;
      const io_text::ParsedRecord r = io_text::parse_record(p, std::size_t(line_end - p));
      const std::uint64_t at = span.first_record + i;
      if (!r.ok) {
        ++t.bad;
      } else {
        t.sum += io_text::record_value(r);
        t.misplaced += r.item != at;
      }
      (void)work_[1].run(at, t.sum);
      item_done(at, 0);
      p = nl ? nl + 1 : end;
    }
    const double t1 = telemetry_.now_us();
    telemetry_.record_at(t1, w, telemetry::EventKind::kEnd, 1, batch, span.records);
    telemetry_.tally_service(w, 1, t1 - t0, t1, span.records);
    return true;
  }

  void read_loop(std::uint16_t w) noexcept {
    sched::Backoff backoff;
    Totals t;
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
      waiting_spans().fetch_sub(1, std::memory_order_relaxed);
      blocked = false;
      backoff.reset();
      if (!read_span(w, span, t)) break;
    }
    publish(t);
  }

  void publish(const Totals& t) noexcept {
    sum_.fetch_add(t.sum, std::memory_order_relaxed);
    bad_.fetch_add(t.bad, std::memory_order_relaxed);
    misplaced_.fetch_add(t.misplaced, std::memory_order_relaxed);
  }

  std::uint32_t readers_;  // 0: the serial variant
  std::uint32_t batch_records_;
  std::string text_;
  queues::VyukovMpmcQueue<Span> spans_;
  alignas(kPrefetchPairBytes) std::atomic<bool> scan_done_{false};
  alignas(kPrefetchPairBytes) std::atomic<std::uint64_t> sum_{0}, bad_{0}, misplaced_{0};
};

}  // namespace pipelab::pipeline
