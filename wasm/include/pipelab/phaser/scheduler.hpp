// Scheduler: many tasks multiplexed onto a fixed pool of real threads (the sieve runs a task per
// prime, hundreds of them, on a handful of threads; a wasm thread pool is fixed when it starts).
//
// Roles: pool threads call run_one() in a loop (the runtime owns the threads, pause and cancel);
//   a running task calls spawn() for its children and block_on() when it cannot go on; any thread
//   may wake() a task (phasers do, after a signal, wait or drop). The controller calls spawn()
//   before the threads start and reset() after they have all exited.
// Scheduling (what a task whose wait cannot complete does with its thread): a task runs until it
//   cannot go on (its next wait's phase is not complete, or its next signal would pass the bound)
//   or until it has run kQuantumUs while another task is ready. When it cannot go on it first
//   spins on its condition — but only while no other task is ready: then the thread has nothing
//   better to do, and a phase a few hundred ns away is cheaper to spin for than to park for. As
//   soon as another task is ready, or after kSpinChecks checks, it parks on the phaser (sleep())
//   and returns kBlocked; its thread takes the next ready task (FIFO). A signal, wait or drop on
//   that phaser wakes it: it goes to the back of the ready queue. Nothing is preempted: a task
//   gives its thread back only at element boundaries.
// Invariant (task states): kReady tasks are in the ready queue exactly once; a task runs on one
//   thread at a time; active = tasks ready or running; live = tasks spawned and not done. Every
//   wake-up comes from a running task (or spawn before start), so active == 0 with live > 0 means
//   no task can ever run again: a stall (deadlock), which stalled() reports exactly.
// Capacity rule: at most max_tasks tasks over one run (the ready queue holds each at most once).
// Memory orders: task state transitions are CAS/stores seq_cst; active and live are seq_cst
//   (a task's exit decrements live before active, and stalled() reads active before live, so a
//   task finishing is never seen as stalled). The ready queue (Vyukov MPMC) publishes the task.
// Source: the paper's tasks are Habanero-Java asyncs on a work-sharing pool (003); this is a plain
//   FIFO pool of cooperative tasks, written for the lesson.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

#include "pipelab/phaser/phaser.hpp"
#include "pipelab/queues/vyukov_mpmc_queue.hpp"

namespace pipelab::phaser {

class Scheduler;

enum class TaskState : std::uint8_t { kNew, kReady, kRunning, kNotified, kBlocked, kDone };

class Task : public Sleeper {
 public:
  enum class Step : std::uint8_t { kYield, kBlocked, kDone };

  explicit Task(std::uint32_t id) : id_(id) {}
  virtual ~Task() = default;
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;

  // Runs on pool thread `worker` until it cannot go on (kBlocked, after block_on()), should give
  // the thread back (kYield), or has finished and dropped all its registrations (kDone).
  virtual Step run(std::uint32_t worker) = 0;
  // What a blocked task waits for, in words (the stall report).
  virtual std::string waiting_for() const = 0;

  void wake() noexcept override;
  std::uint32_t id() const noexcept { return id_; }
  TaskState state() const noexcept { return state_.load(std::memory_order_seq_cst); }

 private:
  friend class Scheduler;
  Scheduler* sched_ = nullptr;
  std::atomic<TaskState> state_{TaskState::kNew};
  std::uint32_t id_;
};

class Scheduler {
 public:
  // A task that can run again after a wake-up: checked this many times before it parks.
  static constexpr std::uint32_t kSpinChecks = 1024;
  // A task keeps its thread this long while others are ready, then goes to the back of the queue.
  static constexpr double kQuantumUs = 200;

  explicit Scheduler(std::uint32_t max_tasks)
      : ready_(queues::VyukovMpmcQueue<Task*>::capacity_at_least(max_tasks)) {}

  // Makes a new task ready. Called by its parent (running) or by the controller before start.
  void spawn(Task& t) noexcept {
    t.sched_ = this;
    live_.fetch_add(1, std::memory_order_seq_cst);
    active_.fetch_add(1, std::memory_order_seq_cst);
    t.state_.store(TaskState::kReady, std::memory_order_seq_cst);
    push(t);
  }

  // Takes the next ready task and runs it on `worker`; false when no task was ready.
  bool run_one(std::uint32_t worker) {
    Task* t = nullptr;
    if (!ready_.try_pop(t)) return false;
    queued_.fetch_sub(1, std::memory_order_seq_cst);
    t->state_.store(TaskState::kRunning, std::memory_order_seq_cst);
    switch (t->run(worker)) {
      case Task::Step::kYield:
        requeue(*t);
        break;
      case Task::Step::kBlocked: {
        TaskState running = TaskState::kRunning;
        if (t->state_.compare_exchange_strong(running, TaskState::kBlocked,
                                              std::memory_order_seq_cst)) {
          active_.fetch_sub(1, std::memory_order_seq_cst);
        } else {
          requeue(*t);  // woken while it was still running: run it again
        }
        break;
      }
      case Task::Step::kDone:
        t->state_.store(TaskState::kDone, std::memory_order_seq_cst);
        live_.fetch_sub(1, std::memory_order_seq_cst);
        active_.fetch_sub(1, std::memory_order_seq_cst);
        break;
    }
    return true;
  }

  // The running task `t` cannot go on until `ready()` holds; `ph` changes when it might. True:
  // it holds now, run on. False: `t` is parked on `ph` and must return Step::kBlocked.
  template <typename Ready>
  bool block_on(Task& t, Phaser& ph, Ready&& ready) {
    for (std::uint32_t i = 0; i < kSpinChecks && !has_ready(); ++i) {
      if (ready()) return true;
    }
    ph.sleep(&t);
    // Re-check after parking: a change between the last check and sleep() would wake no one.
    // If it holds now the task runs on; the wake it will still get re-runs it once, harmlessly.
    return ready();
  }

  bool has_ready() const noexcept { return queued_.load(std::memory_order_seq_cst) > 0; }
  // No task is ready or running, yet some are not done: none can ever run again.
  bool stalled() const noexcept {
    const std::uint32_t active = active_.load(std::memory_order_seq_cst);
    return active == 0 && live_.load(std::memory_order_seq_cst) > 0;
  }
  std::uint32_t live() const noexcept { return live_.load(std::memory_order_seq_cst); }
  bool all_done() const noexcept { return live() == 0; }

  // Between runs only (no thread running tasks): forgets every task.
  void reset() noexcept {
    Task* t = nullptr;
    while (ready_.try_pop(t)) {
    }
    queued_.store(0, std::memory_order_seq_cst);
    live_.store(0, std::memory_order_seq_cst);
    active_.store(0, std::memory_order_seq_cst);
  }

 private:
  friend class Task;

  void push(Task& t) noexcept {
    queued_.fetch_add(1, std::memory_order_seq_cst);
    // Never full: each task is queued at most once and max_tasks bounds the tasks.
    while (!ready_.try_push(&t)) {
    }
  }
  void requeue(Task& t) noexcept {
    t.state_.store(TaskState::kReady, std::memory_order_seq_cst);
    push(t);
  }
  void woken(Task& t) noexcept {
    active_.fetch_add(1, std::memory_order_seq_cst);
    push(t);
  }

  queues::VyukovMpmcQueue<Task*> ready_;
  alignas(kPrefetchPairBytes) std::atomic<std::uint32_t> active_{0};
  alignas(kPrefetchPairBytes) std::atomic<std::uint32_t> live_{0};
  // Tasks in the ready queue (has_ready(): the queue itself has no size).
  alignas(kPrefetchPairBytes) std::atomic<std::uint32_t> queued_{0};
};

inline void Task::wake() noexcept {
  for (;;) {
    TaskState s = state_.load(std::memory_order_seq_cst);
    if (s == TaskState::kBlocked) {
      if (state_.compare_exchange_weak(s, TaskState::kReady, std::memory_order_seq_cst)) {
        sched_->woken(*this);
        return;
      }
    } else if (s == TaskState::kRunning) {
      if (state_.compare_exchange_weak(s, TaskState::kNotified, std::memory_order_seq_cst)) return;
    } else {
      return;  // already ready, notified, done (or not spawned yet)
    }
  }
}

// A running task's time slice: spent once it has run Scheduler::kQuantumUs and another task is
// ready. The clock is read after every element that did work, and every 64 elements otherwise.
class Quantum {
 public:
  void start() noexcept {
    since_ = std::chrono::steady_clock::now();
    elements_ = 0;
  }
  bool spent(const Scheduler& s, bool element_did_work) noexcept {
    if (!element_did_work && (++elements_ & 63) != 0) return false;
    const double us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - since_)
            .count();
    return us >= Scheduler::kQuantumUs && s.has_ready();
  }

 private:
  std::chrono::steady_clock::time_point since_;
  std::uint32_t elements_ = 0;
};

}  // namespace pipelab::phaser
