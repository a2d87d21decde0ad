// PhaserRuntime: runs a phaser stream graph (RuntimeKind::kPhaser, contracts/spec.md) — a task
// per stage (per copy of a split stage) on bounded-phaser streams, multiplexed onto a fixed pool
// of `threads` real threads by phaser::Scheduler, with the Runtime base's start / pause / cancel.
//
// Thread roles: the controlling thread builds the graph in prepare() (start()); pool threads run
//   work(): take a ready task, run it until it parks, yields or ends (phaser/scheduler.hpp says
//   what a task that cannot go on does with its thread), and idle with back-off when none is ready.
//   A running task spawns children through this class (under graph_mutex_): the stages whose
//   `parent` is its stage when it first runs, and a new sieve tail per prime.
// Registration and adaptive batching: the root registers every task it spawns — each stage without
//   a parent — on its streams (capability SIG_WAIT: the root created them) before it schedules any,
//   and every registration goes through the cycle detector; streams on a producer-consumer cycle
//   (the thread ring) turn non-batched before an element is put (phaser/cycle_detection.hpp).
//   The spec's batching "always" skips the detection and keeps them batched, which deadlocks a
//   ring: the demonstration of why the detection exists, caught as a stall.
// Stalls: when no task is ready or running and some are not done (Scheduler::stalled(), exact:
//   nothing could ever wake them), the first thread to see it records which tasks wait for what,
//   marks the board and cancels the run; finished() then turns true and stall_message() says why.
// Pause: a running task gives its thread back at its next element boundary (interrupted()), the
//   threads park at pause_point(); parked tasks hold no thread anyway.
// Memory orders: the scheduler's and the phasers' (seq_cst); stalled_ is written once under
//   stall_mutex_ before the cancel and read after finished() (acquire on the live count).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "pipelab/phaser/cycle_detection.hpp"
#include "pipelab/phaser/scheduler.hpp"
#include "pipelab/phaser/stream.hpp"
#include "pipelab/pipeline/phaser_graph/graph_task.hpp"
#include "pipelab/pipeline/runtime.hpp"
#include "pipelab/pipeline/spec_graph.hpp"
#include "pipelab/sched/backoff.hpp"
#include "pipelab/telemetry/phaser_board.hpp"

namespace pipelab::pipeline {

class PhaserRuntime final : public Runtime, private phaser_graph::GraphHost {
 public:
  // Tasks and dynamic streams in one run (the sieve adds one of each per prime; the spec's limit
  // on a sieve's items keeps it below: 30000 integers hold 3245 primes).
  static constexpr std::uint32_t kMaxTasks = 4096;
  static constexpr std::uint32_t kMaxStreams = kMaxTasks + 16;

  explicit PhaserRuntime(const ExperimentSpec& spec, const RunOptions& options = {})
      : Runtime(spec, kPhaserRules, options),
        shape_(stream_graph(spec_.stages, spec_.streams)),
        detect_cycles_(spec_.batching == Batching::kAdaptive),
        sched_(kMaxTasks),
        board_(kMaxTasks, kMaxStreams) {
    for (const StageSpec& st : spec_.stages) {
      parents_.push_back(st.parent ? *stage_index(spec_.stages, *st.parent) : kRoot);
    }
  }
  ~PhaserRuntime() override {
    request_cancel();
    join();
  }

  std::uint32_t thread_count() const noexcept override { return spec_.threads; }
  const telemetry::PhaserBoard& board() const noexcept { return board_; }
  const void* board_data() const noexcept override { return board_.data(); }
  std::string stop_reason() const override { return stall_message(); }
  // After finished(): why the last run stopped early, or "" when it did not stall.
  std::string stall_message() const {
    std::lock_guard<std::mutex> lock(stall_mutex_);
    return stall_;
  }
  bool stalled() const noexcept { return stalled_.load(std::memory_order_acquire); }
  // After finished(): the sieve's primes, in the order its tasks found them.
  std::vector<phaser::Value> primes() const {
    std::vector<phaser::Value> out;
    for (const auto& t : tasks_) {
      if (t->prime()) out.push_back(t->prime());
    }
    return out;
  }
  std::uint32_t tasks_spawned() const noexcept { return board_.tasks(); }
  std::uint32_t cyclic_streams() const noexcept { return board_.cyclic_streams(); }

 private:
  using GraphTask = phaser_graph::GraphTask;

  // A fresh graph per run: a cancelled run leaves tasks half-way and phases unread.
  void prepare() override {
    tasks_.clear();
    streams_.clear();
    cycles_ = phaser::CycleDetector();
    sched_.reset();
    board_.reset();
    stalled_.store(false, std::memory_order_relaxed);
    stall_.clear();
    const std::uint32_t n_streams = std::uint32_t(spec_.streams.size());
    for (std::uint32_t k = 0; k < n_streams; ++k) {
      streams_.push_back(std::make_unique<phaser::Stream>(k, spec_.bound, spec_.batch,
                                                          reduce_of(spec_.streams[k].reduce),
                                                          lookback_of(k), registrations_of(k)));
    }
    // Task ids follow the stages (and their copies) in order; sieve tails come after.
    for (std::uint32_t s = 0; s < spec_.stages.size(); ++s) {
      for (std::uint32_t c = 0; c < spec_.stages[s].threads; ++c) {
        new_task(s, c, telemetry::PhaserBoard::kNone, first_or_none(shape_.inputs[s]),
                 first_or_none(shape_.outputs[s]));
      }
    }
    for (std::uint32_t k = 0; k < n_streams; ++k) {
      board_.add_stream(k, first_task(spec_.streams[k].from), first_task(spec_.streams[k].to),
                        spec_.batch > 1 ? telemetry::PhaserBoard::kBatchedFlag : 0, spec_.batch);
    }
    // The root registers every stage it spawns before it schedules any: cycles among them are
    // known before the first element (cycle_detection.hpp).
    std::vector<GraphTask*> roots;
    for (auto& t : tasks_) {
      if (parents_[t->stage()] == kRoot) {
        register_task(*t, nullptr);
        roots.push_back(t.get());
      }
    }
    for (GraphTask* t : roots) sched_.spawn(*t);
  }

  void work(std::uint32_t w) override {
    sched::Backoff backoff;
    bool idle = false;
    while (!cancel_requested()) {
      pause_point(w);
      if (cancel_requested()) break;
      if (sched_.run_one(w)) {
        backoff.reset();
        idle = false;
        continue;
      }
      if (sched_.all_done()) break;
      if (sched_.stalled()) {
        report_stall();
        break;
      }
      if (!idle) {
        telemetry_.record(std::uint16_t(w), telemetry::EventKind::kIdle, telemetry::kNoStage,
                          telemetry::kNoItem);
        idle = true;
      }
      backoff.pause();
    }
  }

  // GraphHost
  phaser::Scheduler& scheduler() noexcept override { return sched_; }
  bool interrupted() const noexcept override { return pause_requested() || cancel_requested(); }
  void deliver(std::uint64_t item, phaser::Value value) noexcept override {
    item_done(item, std::uint64_t(value));
  }
  telemetry::RunTelemetry& events() noexcept override { return telemetry_; }
  telemetry::PhaserBoard& task_board() noexcept override { return board_; }
  const workload::StageWork& work(std::uint32_t stage) const noexcept override {
    return work_[stage];
  }
  std::uint64_t items() const noexcept override { return spec_.items; }
  std::uint32_t seed() const noexcept override { return spec_.seed; }

  void spawn_children(GraphTask& parent) override {
    // A parent stage's first copy spawns every child copy; a sieve tail has no spec children.
    if (parent.copy() != 0 ||
        std::find(parents_.begin(), parents_.end(), parent.stage()) == parents_.end()) {
      return;
    }
    std::vector<GraphTask*> children;
    {
      std::lock_guard<std::mutex> lock(graph_mutex_);
      for (auto& t : tasks_) {
        if (parents_[t->stage()] == parent.stage()) {
          register_task(*t, &parent);
          children.push_back(t.get());
        }
      }
    }
    for (GraphTask* t : children) sched_.spawn(*t);
  }

  bool spawn_sieve_tail(GraphTask& parent) override {
    GraphTask* child = nullptr;
    {
      std::lock_guard<std::mutex> lock(graph_mutex_);
      if (tasks_.size() >= kMaxTasks || streams_.size() >= kMaxStreams) {
        fail("stopped: the sieve needs more than " + std::to_string(kMaxTasks) + " tasks");
        return false;
      }
      const std::uint32_t id = std::uint32_t(streams_.size());
      streams_.push_back(std::make_unique<phaser::Stream>(id, spec_.bound, spec_.batch,
                                                          phaser::Reduce::kAny, 0, 2));
      phaser::Stream& link = *streams_.back();
      const std::string label = "the stream after " + parent.label();
      // The parent creates the stream and signals it; it may grant SIG_WAIT.
      phaser::Registration& mine =
          link.attach(phaser::Mode::kSig, phaser::Mode::kNone, nullptr, parent.id(), true);
      parent.add_output({&link, &mine, label});
      const auto& primes = *parent.primes_port();
      child = &new_task(parent.stage(), parent.copy() + 1, parent.id(), id, primes.stream->id());
      // The new tail waits on the new stream and takes over the primes, at the parent's phase.
      phaser::Registration& in =
          link.attach(phaser::Mode::kWait, mine.capability, &mine, child->id());
      child->add_input({&link, &in, label});
      phaser::Registration& out = primes.stream->attach(phaser::Mode::kSig, primes.reg->capability,
                                                        primes.reg, child->id());
      child->set_primes({primes.stream, &out, primes.label});
      const std::uint32_t in_stream = parent.inputs()[0].stream->id();
      note_registration({in_stream}, {id});            // the parent: its input -> the new stream
      note_registration({id}, {primes.stream->id()});  // the tail: new stream -> primes
      board_.add_stream(telemetry::PhaserBoard::kNone, parent.id(), child->id(),
                        link.batched() ? telemetry::PhaserBoard::kBatchedFlag : 0,
                        link.batch_size());
    }
    sched_.spawn(*child);
    return true;
  }

  // Helpers (under graph_mutex_ once the run has started).
  GraphTask& new_task(std::uint32_t stage, std::uint32_t copy, std::uint32_t parent,
                      std::uint32_t input, std::uint32_t output) {
    const std::uint32_t id =
        board_.add_task(stage, parent, spec_.stages[stage].threads > 1 ? copy : 0, input, output);
    const StageSpec& st = spec_.stages[stage];
    const bool sink = shape_.sink && *shape_.sink == stage;
    GraphHost& host = *this;
    tasks_.push_back(std::make_unique<GraphTask>(host, id, stage, copy, st.op, st.name, sink,
                                                 shape_.sieve.has_value()));
    return *tasks_.back();
  }

  // Attaches `t` to each spec stream its stage is on: capability and counters from `parent`
  // (its registration there), or from the root (capability SIG_WAIT, counters 0).
  void register_task(GraphTask& t, const GraphTask* parent) {
    std::vector<std::uint32_t> waits, sigs;
    for (std::uint32_t k = 0; k < spec_.streams.size(); ++k) {
      const std::uint8_t bits = shape_.mode[t.stage()][k];
      if (!bits) continue;
      phaser::Stream& s = *streams_[k];
      const phaser::Registration* from = parent ? parent->registration_on(s) : nullptr;
      const phaser::Mode cap =
          parent ? (from ? from->capability : phaser::Mode::kNone) : phaser::Mode::kSigWait;
      const auto mode = static_cast<phaser::Mode>(bits);  // kSigBit = SIG, kWaitBit = WAIT
      phaser::Registration& r = s.attach(mode, cap, from, t.id());
      const std::string label = "streams[" + std::to_string(k) + "]";
      if (bits & kWaitBit) {
        t.add_input({&s, &r, label});
        waits.push_back(k);
      }
      if (bits & kSigBit) {
        if (spec_.stages[t.stage()].op == StageOp::kSieve)
          t.set_primes({&s, &r, label});
        else
          t.add_output({&s, &r, label});
        sigs.push_back(k);
      }
    }
    note_registration(waits, sigs);
  }

  // Adaptive batching: streams found on a cycle stop batching (before anything is put on them).
  void note_registration(const std::vector<std::uint32_t>& waits,
                         const std::vector<std::uint32_t>& sigs) {
    if (!detect_cycles_) return;
    for (std::uint32_t k : cycles_.add_task(waits, sigs)) {
      streams_[k]->set_batched(false);
      const std::uint32_t flags = board_.stream(k, telemetry::PhaserBoard::kFlags);
      board_.set_stream(
          k, telemetry::PhaserBoard::kFlags,
          (flags & ~telemetry::PhaserBoard::kBatchedFlag) | telemetry::PhaserBoard::kCyclicFlag);
      board_.set_stream(k, telemetry::PhaserBoard::kBatch, 1);
    }
    board_.set_cyclic_streams(cycles_.cyclic_count());
  }

  void report_stall() {
    std::string why;
    {
      std::lock_guard<std::mutex> lock(graph_mutex_);
      std::uint32_t listed = 0, waiting = 0;
      for (const auto& t : tasks_) {
        if (t->state() != phaser::TaskState::kBlocked) continue;
        ++waiting;
        if (listed++ < 4) why += (why.empty() ? "" : "; ") + t->waiting_for();
      }
      if (listed > 4) why += "; …";
      why = "stalled: no task can run, " + std::to_string(waiting) +
            (waiting == 1 ? " task waits" : " tasks wait") + " forever (" + why + ")";
    }
    fail(why);
  }

  // Stops the run with a message (the first one wins).
  void fail(const std::string& why) {
    {
      std::lock_guard<std::mutex> lock(stall_mutex_);
      if (stalled_.load(std::memory_order_relaxed)) return;
      stall_ = why;
      stalled_.store(true, std::memory_order_release);
    }
    board_.mark_stalled();
    request_cancel();
  }

  static phaser::Reduce reduce_of(StreamReduce r) noexcept {
    switch (r) {
      case StreamReduce::kSum:
        return phaser::Reduce::kSum;
      case StreamReduce::kMin:
        return phaser::Reduce::kMin;
      case StreamReduce::kMax:
        return phaser::Reduce::kMax;
      case StreamReduce::kAny:
        break;
    }
    return phaser::Reduce::kAny;
  }
  // avg reads get(-1): its input keeps one phase more.
  std::uint32_t lookback_of(std::uint32_t k) const {
    for (const std::string& n : spec_.streams[k].to) {
      if (spec_.stages[*stage_index(spec_.stages, n)].op == StageOp::kAvg) return 1;
    }
    return 0;
  }
  // Every copy of every stage on the stream; the sieve's primes stream also one per new tail.
  std::uint32_t registrations_of(std::uint32_t k) const {
    std::uint32_t n = 0;
    for (const auto* side : {&spec_.streams[k].from, &spec_.streams[k].to}) {
      for (const std::string& name : *side)
        n += spec_.stages[*stage_index(spec_.stages, name)].threads;
    }
    if (shape_.sieve && shape_.outputs[*shape_.sieve][0] == k) n += kMaxTasks;
    return n;
  }
  static std::uint32_t first_or_none(const std::vector<std::uint32_t>& v) {
    return v.empty() ? telemetry::PhaserBoard::kNone : v[0];
  }
  // The board id of the first copy of the first named stage.
  std::uint32_t first_task(const std::vector<std::string>& names) const {
    const std::uint32_t stage = *stage_index(spec_.stages, names[0]);
    for (const auto& t : tasks_) {
      if (t->stage() == stage) return t->id();
    }
    return telemetry::PhaserBoard::kNone;
  }

  static constexpr std::uint32_t kRoot = 0xFFFFFFFFu;

  StreamGraph shape_;
  std::vector<std::uint32_t> parents_;  // per stage: its parent stage, or kRoot
  bool detect_cycles_;
  phaser::Scheduler sched_;
  telemetry::PhaserBoard board_;
  std::mutex graph_mutex_;
  std::vector<std::unique_ptr<phaser::Stream>> streams_;
  std::vector<std::unique_ptr<GraphTask>> tasks_;
  phaser::CycleDetector cycles_;
  mutable std::mutex stall_mutex_;
  std::string stall_;
  std::atomic<bool> stalled_{false};
};

}  // namespace pipelab::pipeline
