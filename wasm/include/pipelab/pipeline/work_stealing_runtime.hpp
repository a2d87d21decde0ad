// WorkStealingRuntime: oneTBB parallel_pipeline semantics on Chase-Lev deques.
//
// Thread roles: `threads` identical workers, each owning one ChaseLevDeque; the controller uses
// the Runtime interface. A task is one in-flight item (a token) carried through the stages by
// whichever worker holds it. Invariants: at most `tokens` items admitted and not finished
// (admission and token release happen under one SpinLock, like oneTBB's serial input filter);
// a serial stage runs one item at a time (SerialGate); a serial-in-order stage runs items in
// input order: an item arriving early is parked in the gate's slot seq % tokens (in-flight items
// span at most `tokens` consecutive sequence numbers at any stage, so slots never collide) and is
// handed, already granted, to the deque of the worker that frees the stage.
// Scheduling: own deque (LIFO) → admit a new item → steal from a random victim (FIFO) → back off
// (its sleeps end early when a gate hands a parked task to a deque: sleep_until_work).
// Pause: a worker parks at the top of its loop, after carrying its task through every stage; it
// may park holding the next task (admitted, popped or handed over by a gate) untouched.
// Memory orders: task fields are plain data published by the deque's release push / acquire
// steal, or by the gate/admission SpinLock. Departs from oneTBB in that the input stage is
// implicit (items are numbered at admission) and tasks never split.
// Observer: observe_items() attaches an ItemObserver that hears each item admitted (after its
// token is taken) and finished (before its token is returned), so tests count tokens in flight
// from outside the runtime.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "pipelab/cacheline.hpp"
#include "pipelab/pipeline/item_observer.hpp"
#include "pipelab/pipeline/runtime.hpp"
#include "pipelab/sched/backoff.hpp"
#include "pipelab/sched/chase_lev_deque.hpp"
#include "pipelab/sched/spin_lock.hpp"
#include "pipelab/sync/futex.hpp"
#include "pipelab/workload/mix.hpp"

namespace pipelab::pipeline {

class WorkStealingRuntime final : public Runtime {
 public:
  explicit WorkStealingRuntime(const ExperimentSpec& spec, const RunOptions& options = {})
      : Runtime(spec, kPoolRules, options) {
    const std::uint32_t tokens = spec_.tokens;
    tasks_.resize(tokens);
    for (std::uint32_t w = 0; w < spec_.threads; ++w) {
      deques_.push_back(std::make_unique<sched::ChaseLevDeque>(tokens));
    }
    gates_ = std::make_unique<SerialGate[]>(spec_.stages.size());
    for (std::size_t s = 0; s < spec_.stages.size(); ++s) {
      gates_[s].parked.assign(round_up_pow2(tokens), kNone);
    }
  }
  ~WorkStealingRuntime() override {
    request_cancel();
    join();
  }

  std::uint32_t thread_count() const noexcept override { return spec_.threads; }
  // Between runs only; nullptr detaches (item_observer.hpp).
  void observe_items(ItemObserver* observer) noexcept { observer_ = observer; }

 private:
  static constexpr std::uint32_t kNone = sched::ChaseLevDeque::kEmpty;

  struct Task {
    std::uint64_t item = 0;
    std::uint64_t value = 0;
    std::uint32_t stage = 0;
    bool granted = false;  // already holds its serial stage (handed over by a gate)
  };
  // One per stage (used by serial stages only). `parked` is a slot ring (in-order: indexed by
  // seq; out-of-order: FIFO between head and tail), guarded by `lock`.
  struct alignas(kPrefetchPairBytes) SerialGate {
    sched::SpinLock lock;
    bool busy = false;
    std::uint64_t next = 0;  // in-order: the next sequence number allowed in
    std::uint64_t head = 0, tail = 0;
    std::vector<std::uint32_t> parked;
  };

  static std::size_t round_up_pow2(std::size_t v) noexcept {
    std::size_t p = 1;
    while (p < v) p <<= 1;
    return p;
  }

  void prepare() override {
    next_item_ = 0;
    in_flight_.store(0, std::memory_order_relaxed);
    free_.clear();
    for (std::uint32_t t = std::uint32_t(tasks_.size()); t-- > 0;) free_.push_back(t);
    for (std::size_t s = 0; s < spec_.stages.size(); ++s) {
      SerialGate& g = gates_[s];
      g.busy = false;
      g.next = g.head = g.tail = 0;
      std::fill(g.parked.begin(), g.parked.end(), kNone);
    }
    // Deques are empty after a completed run; after a cancel they may hold stale handles.
    for (auto& d : deques_) {
      while (d->pop() != kNone) {
      }
    }
  }

  void work(std::uint32_t w) override {
    sched::Backoff backoff;
    std::uint64_t rng = workload::splitmix64(w + 1);
    std::uint32_t task = kNone;
    bool idle = false;
    double idle_since = 0;
    const std::uint32_t n = spec_.threads;
    const bool tel = telemetry_.enabled();
    // Telemetry: this worker's latest clock read with only short steps since (a service's end,
    // then leaving a gate, a deque push or pop, asking for a token), or telemetry::kReadClock once
    // a wait (idle, pause) has made it stale. The steal attempt, the steal, the idle event and
    // time, and a parallel stage's start are stamped with it; read_clock() reads only when it is
    // stale. Reads on the way from a service's end to a steal lie between a task being pushed and
    // a thief taking it: dropping them gained 1.4-3.7 points of the on/off ratio in wasm
    // (bench/README.md, section A).
    double last_us = telemetry::kReadClock;
    auto read_clock = [&] {
      if (last_us == telemetry::kReadClock) last_us = telemetry_.now_us();
      return last_us;
    };
    while (!cancel_requested()) {
      if (pause_requested()) last_us = telemetry::kReadClock;
      pause_point(w);
      if (cancel_requested()) break;
      if (task == kNone) task = deques_[w]->pop();
      if (task == kNone) task = admit(kNone);
      if (task == kNone && n > 1) {
        rng = workload::splitmix64(rng);
        std::uint32_t victim = std::uint32_t(rng % (n - 1));
        victim += victim >= w;
        if (!idle && tel) {
          telemetry_.record_at(read_clock(), std::uint16_t(w), telemetry::EventKind::kStealAttempt,
                               telemetry::kNoStage, telemetry::kNoItem, victim);
        }
        task = deques_[victim]->steal();
        if (task != kNone && tel) {  // one CAS after the attempt: the attempt's time
          telemetry_.record_at(read_clock(), std::uint16_t(w), telemetry::EventKind::kStealSuccess,
                               telemetry::kNoStage, std::uint32_t(tasks_[task].item), victim);
        }
      }
      if (task == kNone) {
        if (all_done()) break;
        if (!idle) {
          idle = true;
          if (tel) {
            idle_since = read_clock();
            telemetry_.record_at(idle_since, std::uint16_t(w), telemetry::EventKind::kIdle,
                                 telemetry::kNoStage, telemetry::kNoItem);
          }
        }
        last_us = telemetry::kReadClock;  // the wait below makes it stale
        backoff.pause([this](std::uint32_t us) { sleep_until_work(us); });
        continue;
      }
      if (idle && tel) {
        telemetry_.counters(0).add(telemetry_.counters(0).idle_us,
                                   std::uint64_t(read_clock() - idle_since));
      }
      idle = false;
      backoff.reset();
      task = run(w, task, last_us);
    }
  }

  // Takes a token for the next input item; `done` (if not kNone) returns its token first.
  std::uint32_t admit(std::uint32_t done) noexcept {
    if (done == kNone && in_flight_.load(std::memory_order_relaxed) >= spec_.tokens) return kNone;
    std::uint32_t t = kNone;
    admission_.lock();
    if (done != kNone) {
      free_.push_back(done);
      in_flight_.store(in_flight_.load(std::memory_order_relaxed) - 1, std::memory_order_relaxed);
    }
    const std::uint32_t in_flight = in_flight_.load(std::memory_order_relaxed);
    if (next_item_ < spec_.items && in_flight < spec_.tokens && !cancel_requested()) {
      t = free_.back();
      free_.pop_back();
      Task& k = tasks_[t];
      k.item = next_item_++;
      k.value = workload::splitmix64(k.item ^ spec_.seed);
      k.stage = 0;
      k.granted = false;
      in_flight_.store(in_flight + 1, std::memory_order_relaxed);
      if (options_.check_invariants) checks_.on_admit(in_flight + 1);
    }
    admission_.unlock();
    if (t != kNone && observer_ != nullptr) observer_->entered(tasks_[t].item);
    return t;
  }

  // Carries task t through the stages; returns the next task for this worker, or kNone.
  // Telemetry: a PARALLEL stage's service starts at `last_us`, the worker's latest clock read (the
  // end of its service before, or the read that found t): one read per service instead of two
  // (the clock, a JS call in wasm, is most of telemetry's cost). Only short steps lie between
  // (leaving a gate, a deque push or pop, taking a token: tens of ns, more if a lock is contended)
  // and they count into that service; a parallel stage has no gate of its own. A serial stage
  // reads the clock after entering its gate, so its services never appear to overlap (another
  // worker's end read is on another thread's clock, which in a browser may be offset). Each
  // service's end read becomes `last_us`.
  std::uint32_t run(std::uint32_t w, std::uint32_t t, double& last_us) noexcept {
    Task& k = tasks_[t];
    const std::size_t stages = spec_.stages.size();
    while (k.stage < stages) {
      const std::uint32_t s = k.stage;
      const StageMode mode = spec_.stages[s].mode;
      if (is_serial(mode) && !k.granted && !enter(s, mode, t)) return kNone;  // parked
      k.granted = false;
      last_us = serve(w, s, mode, k, is_serial(mode) ? telemetry::kReadClock : last_us);
      if (is_serial(mode)) {
        const std::uint32_t next = leave(s, mode);
        if (next != kNone) {
          // A deque's capacity covers every token, so a failed push is a broken invariant.
          if (!deques_[w]->push(next)) std::abort();
          wake_a_sleeper();
        }
      }
      ++k.stage;
      if (cancel_requested()) return kNone;
    }
    item_done(k.item, k.value);
    if (observer_ != nullptr) observer_->left(k.item);
    return admit(t);
  }

  // Serves stage s; with telemetry, starts at start_us (telemetry::kReadClock: reads the clock) and
  // returns the end time (telemetry::kReadClock without telemetry).
  double serve(std::uint32_t w, std::uint32_t s, StageMode mode, Task& k,
               double start_us) noexcept {
    const bool tel = telemetry_.enabled();
    const bool check = options_.check_invariants && is_serial(mode);
    double t0 = 0;
    if (tel) {
      t0 = start_us != telemetry::kReadClock ? start_us : telemetry_.now_us();
      telemetry_.record_at(t0, std::uint16_t(w), telemetry::EventKind::kStart, std::uint8_t(s),
                           std::uint32_t(k.item));
    }
    if (check) checks_.enter_serial(s, mode == StageMode::kSerialInOrder, k.item);
    k.value = work_[s].run(k.item, k.value);
    if (check) checks_.leave_serial(s);
    if (tel) {
      const double t1 = telemetry_.now_us();
      telemetry_.record_at(t1, std::uint16_t(w), telemetry::EventKind::kEnd, std::uint8_t(s),
                           std::uint32_t(k.item));
      telemetry_.tally_service(std::uint16_t(w), s, t1 - t0, t1);
      return t1;
    }
    return telemetry::kReadClock;
  }

  // An idle worker's sleep, cut short when a gate hands a task to a deque: a plain timed sleep
  // overran by 60-100 us in wasm, which left one core idle while a task waited to be stolen.
  // A push that reads `sleepers_` before this worker counts itself wakes nobody; then the sleep
  // simply runs out, as before.
  void sleep_until_work(std::uint32_t us) noexcept {
    const std::uint32_t seen = work_word_.load(std::memory_order_seq_cst);
    sleepers_.fetch_add(1, std::memory_order_seq_cst);
    sync::futex_wait_for(work_word_, seen, us);
    sleepers_.fetch_sub(1, std::memory_order_seq_cst);
  }
  void wake_a_sleeper() noexcept {
    if (sleepers_.load(std::memory_order_seq_cst) == 0) return;  // the per-item path: one load
    work_word_.fetch_add(1, std::memory_order_seq_cst);
    sync::futex_wake(work_word_, 1);
  }

  // True if task t may run serial stage s now; otherwise parks it in the gate.
  bool enter(std::uint32_t s, StageMode mode, std::uint32_t t) noexcept {
    SerialGate& g = gates_[s];
    const std::uint64_t mask = g.parked.size() - 1;
    g.lock.lock();
    bool now = false;
    if (mode == StageMode::kSerialInOrder) {
      now = !g.busy && g.next == tasks_[t].item;
      if (!now) g.parked[tasks_[t].item & mask] = t;
    } else {
      now = !g.busy;
      if (!now) g.parked[g.tail++ & mask] = t;
    }
    g.busy = g.busy || now;
    g.lock.unlock();
    return now;
  }

  // Frees serial stage s; returns a parked task now granted the stage, or kNone.
  std::uint32_t leave(std::uint32_t s, StageMode mode) noexcept {
    SerialGate& g = gates_[s];
    const std::uint64_t mask = g.parked.size() - 1;
    std::uint32_t next = kNone;
    g.lock.lock();
    if (mode == StageMode::kSerialInOrder) {
      ++g.next;
      std::uint32_t& slot = g.parked[g.next & mask];
      if (slot != kNone && tasks_[slot].item == g.next) {
        next = slot;
        slot = kNone;
      }
    } else if (g.head != g.tail) {
      next = g.parked[g.head++ & mask];
    }
    if (next != kNone) tasks_[next].granted = true;
    g.busy = next != kNone;
    g.lock.unlock();
    return next;
  }

  std::vector<Task> tasks_;
  std::vector<std::unique_ptr<sched::ChaseLevDeque>> deques_;
  std::unique_ptr<SerialGate[]> gates_;
  sched::SpinLock admission_;
  std::uint64_t next_item_ = 0;              // guarded by admission_
  std::vector<std::uint32_t> free_;          // guarded by admission_
  std::atomic<std::uint32_t> in_flight_{0};  // written under admission_, peeked without it
  ItemObserver* observer_ = nullptr;         // set between runs only
  // Idle workers asleep, and the word they sleep on (sleep_until_work).
  alignas(kPrefetchPairBytes) std::atomic<std::uint32_t> sleepers_{0};
  std::atomic<std::uint32_t> work_word_{0};
};

}  // namespace pipelab::pipeline
