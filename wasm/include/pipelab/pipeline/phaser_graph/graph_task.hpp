// GraphTask: one stage's task in a phaser stream graph (contracts/spec.md, "The phaser runtime"),
// written as a resumable loop so the scheduler (phaser/scheduler.hpp) can park it whenever a wait
// or a signal cannot complete and run another task on its thread.
//
// Roles: run() is called by one pool thread at a time (the scheduler guarantees it); the task
//   alone uses its readers and writers. The host (PhaserRuntime) registers it and its children.
// Per element: take one element from each input stream (their sum; a source makes its own), serve
//   the stage's work (busy work for the drawn service time), apply the op, and put the result on
//   every output stream. Ops: random and count (sources: seeded values in -1000..1000, or the
//   integers 2, 3, ...), pass (the input), avg (the mean of get(0) and get(-1): the current input
//   and the one before), abs, split (copy c of n multiplies by c + 1), hop and token (a ring: the
//   token is the hop count; the token stage puts the first one), sieve (below). Where an item
//   leaves (it counts towards items_completed): at the sink, at a ring hop, or where the sieve
//   drops a multiple.
// The sieve (003's dynamic pipeline): a sieve task starts as the tail. The first integer it gets
//   has passed every filter before it, in order, so it is prime: the task puts it on the primes
//   stream, creates a stream to a new tail task that takes over its place on the primes stream
//   (registered at its phase: the capability rule), and from then on forwards to the new tail the
//   integers its prime does not divide. Integers arrive in order and the tail turns into a filter
//   before it reads on, so a multiple can never pass the filter of its factor.
// Telemetry (contracts/telemetry.md, phaser runs): start/end per element with the task id in
//   `arg`; blocked-empty / blocked-full when the task parks on a wait / at the bound (item = the
//   phase, arg = task id); enqueue / dequeue per phase published / waited (item = phase,
//   arg = the occupancy the task saw: 0 <= arg <= bound, checked by the tests).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pipelab/phaser/scheduler.hpp"
#include "pipelab/phaser/stream.hpp"
#include "pipelab/pipeline/spec.hpp"
#include "pipelab/telemetry/phaser_board.hpp"
#include "pipelab/telemetry/run_telemetry.hpp"
#include "pipelab/workload/mix.hpp"
#include "pipelab/workload/stage_work.hpp"

namespace pipelab::pipeline::phaser_graph {

using phaser::Registration;
using phaser::Stream;
using phaser::StreamReader;
using phaser::StreamWriter;
using phaser::Value;

class GraphTask;

// What a task needs from the runtime that runs it.
class GraphHost {
 public:
  virtual phaser::Scheduler& scheduler() noexcept = 0;
  // Pause or cancel requested: the running task gives its thread back at the next element.
  virtual bool interrupted() const noexcept = 0;
  // An item left the graph here (Runtime::item_done).
  virtual void deliver(std::uint64_t item, Value value) noexcept = 0;
  virtual telemetry::RunTelemetry& events() noexcept = 0;
  virtual telemetry::PhaserBoard& task_board() noexcept = 0;
  virtual const workload::StageWork& work(std::uint32_t stage) const noexcept = 0;
  virtual std::uint64_t items() const noexcept = 0;
  virtual std::uint32_t seed() const noexcept = 0;
  // Registers and spawns the tasks of the stages whose parent is `parent`'s stage (its first run).
  virtual void spawn_children(GraphTask& parent) = 0;
  // The sieve: a new stream from `parent` (added as its output) to a new tail that takes over
  // parent's primes registration. False when no task can be added (the run is then stopped).
  virtual bool spawn_sieve_tail(GraphTask& parent) = 0;

 protected:
  ~GraphHost() = default;
};

// A seeded source value in -1000..1000 (the same in the twin: src/sim/phaser/values.ts).
inline Value random_value(std::uint32_t seed, std::uint32_t stage, std::uint64_t k) noexcept {
  return Value(workload::key(seed, stage, k) % 2001) - 1000;
}

class GraphTask final : public phaser::Task {
 public:
  struct Port {
    Stream* stream;
    Registration* reg;
    std::string label;  // "streams[2]", or "the stream after filter(5)"
  };

  GraphTask(GraphHost& host, std::uint32_t id, std::uint32_t stage, std::uint32_t copy, StageOp op,
            std::string name, bool sink, bool sieve_graph)
      : Task(id),
        host_(host),
        stage_(stage),
        copy_(copy),
        op_(op),
        name_(std::move(name)),
        sink_(sink),
        sieve_graph_(sieve_graph) {}

  void add_input(Port p) {
    inputs_.push_back(p);
    readers_.push_back(std::make_unique<StreamReader>(*p.stream, *p.reg));
  }
  void add_output(Port p) {
    outputs_.push_back(p);
    writers_.push_back(std::make_unique<StreamWriter>(*p.stream, *p.reg));
  }
  // The sieve: this task's registration on the primes stream (kept apart from its filter output).
  void set_primes(Port p) {
    primes_port_ = p;
    primes_ = std::make_unique<StreamWriter>(*p.stream, *p.reg);
  }

  Step run(std::uint32_t worker) override {
    worker_ = worker;
    host_.task_board().set_state(id(), telemetry::BoardTaskState::kRunning, worker);
    if (!started_) {
      started_ = true;
      host_.spawn_children(*this);
      if (op_ == StageOp::kToken) {
        value_ = 0;  // the ring's token, hop count 0
        state_ = State::kPush;
      }
    }
    quantum_.start();
    for (;;) {
      if (host_.interrupted()) return yield();
      std::optional<Step> stop;
      switch (state_) {
        case State::kTake:
          stop = take();
          break;
        case State::kServe:
          serve();
          break;
        case State::kPush:
          stop = push();
          break;
        case State::kPrime:
          stop = become_filter();
          break;
        case State::kFinish:
          return finish();
      }
      if (stop) return *stop;
      if (state_ == State::kTake && quantum_.spent(host_.scheduler(), served_work_)) return yield();
    }
  }

  std::string waiting_for() const override {
    const auto phase = [](std::uint64_t p) { return std::to_string(p); };
    if (state_ == State::kTake && got_ < inputs_.size()) {
      return label() + " waits for phase " + phase(readers_[got_]->phases()) + " of " +
             inputs_[got_].label;
    }
    const Port* p = state_ == State::kPrime && primes_port_ ? &*primes_port_
                    : out_ < outputs_.size()                ? &outputs_[out_]
                    : fin_ < outputs_.size()                ? &outputs_[fin_]
                                                            : nullptr;
    if (p) return label() + " waits for room in " + p->label;
    return label() + " is idle";
  }

  // The task's registration on `stream`, or nullptr (its children inherit from it).
  const Registration* registration_on(const Stream& stream) const noexcept {
    for (const Port& p : inputs_) {
      if (p.stream == &stream) return p.reg;
    }
    for (const Port& p : outputs_) {
      if (p.stream == &stream) return p.reg;
    }
    if (primes_port_ && primes_port_->stream == &stream) return primes_port_->reg;
    return nullptr;
  }
  std::uint32_t stage() const noexcept { return stage_; }
  std::uint32_t copy() const noexcept { return copy_; }
  Value prime() const noexcept { return prime_; }
  const std::vector<Port>& inputs() const noexcept { return inputs_; }
  const std::optional<Port>& primes_port() const noexcept { return primes_port_; }
  std::string label() const {
    if (op_ == StageOp::kSieve) return name_ + "(" + (prime_ ? std::to_string(prime_) : "?") + ")";
    return copy_ ? name_ + "#" + std::to_string(copy_) : name_;
  }

 private:
  enum class State : std::uint8_t { kTake, kServe, kPush, kPrime, kFinish };

  phaser::Scheduler& sched() noexcept { return host_.scheduler(); }
  telemetry::RunTelemetry& tel() noexcept { return host_.events(); }

  Step yield() {
    host_.task_board().set_state(id(), telemetry::BoardTaskState::kYielded, worker_);
    return Step::kYield;
  }
  Step park(telemetry::BoardTaskState state, telemetry::EventKind kind, std::uint64_t phase) {
    host_.task_board().set_state(id(), state, worker_);
    tel().record(std::uint16_t(worker_), kind, std::uint8_t(stage_), std::uint32_t(phase), id());
    return Step::kBlocked;
  }

  // One element from each input (their sum), or a source's next element.
  std::optional<Step> take() {
    if (inputs_.empty()) {
      if (item_ >= host_.items()) {
        state_ = State::kFinish;
        return std::nullopt;
      }
      input_ =
          op_ == StageOp::kCount ? Value(item_) + 2 : random_value(host_.seed(), stage_, item_);
      state_ = State::kServe;
      return std::nullopt;
    }
    while (got_ < readers_.size()) {
      StreamReader& r = *readers_[got_];
      const std::uint64_t before = r.phases();
      Value v = 0;
      const phaser::WaitResult w = r.try_next(v);
      if (w == phaser::WaitResult::kEnded) {
        state_ = State::kFinish;
        return std::nullopt;
      }
      if (w == phaser::WaitResult::kPending) {
        phaser::Phaser& ph = r.stream().phaser();
        if (sched().block_on(*this, ph, [&r] { return r.ready(); })) continue;
        return park(telemetry::BoardTaskState::kWaitingInput, telemetry::EventKind::kBlockedEmpty,
                    r.phases());
      }
      if (r.phases() != before) waited(r, inputs_[got_]);
      sum_ += v;
      ++got_;
    }
    got_ = 0;
    input_ = sum_;
    sum_ = 0;
    state_ = State::kServe;
    return std::nullopt;
  }

  void waited(StreamReader& r, const Port& p) noexcept {
    const std::uint64_t k = r.phases();
    tel().record(std::uint16_t(worker_), telemetry::EventKind::kDequeue, std::uint8_t(stage_),
                 std::uint32_t(k - 1), std::uint32_t(r.last_occupancy()));
    host_.task_board().set_stream(p.stream->id(), telemetry::PhaserBoard::kWaited,
                                  std::uint32_t(k));
  }
  void published(StreamWriter& w, const Port& p) noexcept {
    const std::uint64_t k = w.phases();
    tel().record(std::uint16_t(worker_), telemetry::EventKind::kEnqueue, std::uint8_t(stage_),
                 std::uint32_t(k - 1), std::uint32_t(w.last_occupancy()));
    host_.task_board().set_stream(p.stream->id(), telemetry::PhaserBoard::kSignalled,
                                  std::uint32_t(k));
  }

  // The stage's work for this element, then the op and where the item goes next.
  void serve() {
    // Which item this element is: its index at a source or sink, the hop of a ring, the integer
    // a sieve tests (its index in the count source).
    std::uint64_t item = item_;
    const bool ring = op_ == StageOp::kHop || op_ == StageOp::kToken;
    if (ring) item = std::uint64_t(input_);
    if (op_ == StageOp::kSieve || (sink_ && sieve_graph_)) item = std::uint64_t(input_ - 2);
    const bool tel_on = tel().enabled();
    double t0 = 0;
    if (tel_on) {
      t0 = tel().now_us();
      tel().record_at(t0, std::uint16_t(worker_), telemetry::EventKind::kStart,
                      std::uint8_t(stage_), std::uint32_t(item), id());
    }
    const workload::StageWork& work = host_.work(stage_);
    served_work_ = work.draw_us(item) > 0;
    (void)work.run(item, 0);
    if (tel_on) {
      const double t1 = tel().now_us();
      tel().record_at(t1, std::uint16_t(worker_), telemetry::EventKind::kEnd, std::uint8_t(stage_),
                      std::uint32_t(item), id());
      tel().tally_service(std::uint16_t(worker_), stage_, t1 - t0, t1);
    }
    ++item_;
    host_.task_board().set_task(id(), telemetry::PhaserBoard::kPhase, std::uint32_t(item_));
    state_ = State::kPush;
    switch (op_) {
      case StageOp::kRandom:
      case StageOp::kCount:
      case StageOp::kPass:
        value_ = input_;
        break;
      case StageOp::kAvg: {
        const StreamReader& r = *readers_[0];
        value_ = r.consumed() >= 2 ? (r.get(0) + r.get(-1)) / 2 : r.get(0);
        break;
      }
      case StageOp::kAbs:
        value_ = input_ < 0 ? -input_ : input_;
        break;
      case StageOp::kSplit:
        value_ = input_ * Value(copy_ + 1);
        break;
      case StageOp::kHop:
      case StageOp::kToken:
        host_.deliver(item, input_);
        value_ = input_ + 1;
        if (std::uint64_t(value_) >= host_.items()) state_ = State::kFinish;  // the last hop
        return;
      case StageOp::kSieve:
        if (prime_ == 0) {
          prime_ = input_;
          host_.task_board().set_task(id(), telemetry::PhaserBoard::kLabel, std::uint32_t(prime_));
          state_ = State::kPrime;
        } else if (input_ % prime_ == 0) {
          host_.deliver(item, 0);  // a multiple leaves here
          state_ = State::kTake;
        } else {
          value_ = input_;
        }
        return;
      case StageOp::kNone:
        break;
    }
    if (sink_) {
      host_.deliver(item, value_);
      state_ = State::kTake;
    }
  }

  // Puts value_ on every output, parking at the bound.
  std::optional<Step> push() {
    while (out_ < writers_.size()) {
      StreamWriter& w = *writers_[out_];
      if (!publishing_) {
        const std::uint64_t before = w.phases();
        publishing_ = w.try_put(value_) == phaser::PutResult::kBlocked;
        if (!publishing_) {
          if (w.phases() != before) published(w, outputs_[out_]);
          ++out_;
          continue;
        }
      }
      if (std::optional<Step> stop = publish(w, outputs_[out_])) return stop;
      publishing_ = false;
      ++out_;
    }
    out_ = 0;
    state_ = State::kTake;
    return std::nullopt;
  }

  // Publishes w's pending elements, parking while the bound refuses.
  std::optional<Step> publish(StreamWriter& w, const Port& p) {
    for (;;) {
      if (!w.has_pending()) return std::nullopt;
      if (w.try_publish()) {
        published(w, p);
        return std::nullopt;
      }
      phaser::Phaser& ph = w.stream().phaser();
      if (sched().block_on(*this, ph, [&] { return ph.can_signal_now(w.registration()); }))
        continue;
      return park(telemetry::BoardTaskState::kWaitingBound, telemetry::EventKind::kBlockedFull,
                  w.phases());
    }
  }

  // The sieve's tail found its prime: announce it, hand the primes stream to a new tail, filter.
  std::optional<Step> become_filter() {
    if (!announced_) {
      if (!primes_->has_pending()) {
        const std::uint64_t before = primes_->phases();
        (void)primes_->try_put(prime_);  // a batch of one when it fills, else flushed below
        if (primes_->phases() != before) published(*primes_, *primes_port_);
      }
      if (std::optional<Step> stop = publish(*primes_, *primes_port_)) return stop;
      announced_ = true;
    }
    if (!host_.spawn_sieve_tail(*this)) {
      state_ = State::kFinish;
      return std::nullopt;
    }
    primes_->drop();  // the new tail signals the primes from here on
    primes_.reset();
    primes_port_.reset();
    state_ = State::kTake;
    return std::nullopt;
  }

  Step finish() {
    for (; fin_ < writers_.size(); ++fin_) {
      if (std::optional<Step> stop = publish(*writers_[fin_], outputs_[fin_])) return *stop;
      writers_[fin_]->drop();
    }
    if (primes_) {
      if (std::optional<Step> stop = publish(*primes_, *primes_port_)) return *stop;
      primes_->drop();
      primes_.reset();
    }
    for (auto& r : readers_) r->drop();
    host_.task_board().set_state(id(), telemetry::BoardTaskState::kDone, worker_);
    return Step::kDone;
  }

 private:
  GraphHost& host_;
  std::uint32_t stage_, copy_;
  StageOp op_;
  std::string name_;
  bool sink_, sieve_graph_;
  std::vector<Port> inputs_, outputs_;
  std::vector<std::unique_ptr<StreamReader>> readers_;
  std::vector<std::unique_ptr<StreamWriter>> writers_;
  std::optional<Port> primes_port_;
  std::unique_ptr<StreamWriter> primes_;
  State state_ = State::kTake;
  bool started_ = false, publishing_ = false, announced_ = false, served_work_ = false;
  std::size_t got_ = 0, out_ = 0, fin_ = 0;
  std::uint64_t item_ = 0;
  Value input_ = 0, sum_ = 0, value_ = 0, prime_ = 0;
  std::uint32_t worker_ = 0;
  phaser::Quantum quantum_;
};

}  // namespace pipelab::pipeline::phaser_graph
