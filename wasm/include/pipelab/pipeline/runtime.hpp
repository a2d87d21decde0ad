// Runtime: the non-blocking run controller every pipeline runtime derives from.
//
// Thread roles: one controlling thread (the engine worker, a test, the bench) calls start(),
// finished(), request_cancel(), request_pause() / request_resume() and join(); start() launches
// the worker threads and RETURNS (in the browser the caller must get back to its event loop for
// extra Workers to start). Workers poll cancel_requested() at least every ~0.2 ms (never sleep
// longer; a paused worker blocks, but request_cancel() wakes it), so after request_cancel()
// every thread exits within 50 ms; join() then reaps them and start() may run again.
// Telemetry (rings, stage counters) lives in RunTelemetry, allocated once in the constructor:
// its addresses are stable across runs and may be read from any thread at any time.
// Pause (cooperative): request_pause() raises a flag that workers read where they read the cancel
// flag, at item boundaries and in their wait loops; a worker finishes the item it is serving,
// flushes its service tally (so counters are exact while paused), then blocks on a
// condition_variable (a futex: Atomics.wait in Emscripten's pthreads, no spinning) until
// request_resume() or request_cancel(). A worker waiting to hand an item on (queue full) parks
// with it, so the workers downstream of a parked one never wait for it. paused() turns true when
// every worker still running has parked; at that instant the run clock stops (RunTelemetry), and
// request_resume() restarts it, so telemetry times, elapsed_us() and throughput count running
// time only. A pause emits no event: it lasts 0 µs on the run clock, and each lane keeps the
// state its worker parked in. Cancel while paused wakes every worker and they exit.
// A runtime whose workers may sleep elsewhere than pause_point() (the barrier runtime's futex
// waits) overrides wake_waiters(): request_cancel() and request_pause() call it after raising
// their flag, so such a sleeper wakes, sees the flag, and exits or parks.
// Memory orders: cancel and pause flags release/acquire (read on the hot path without the lock;
// parking re-reads them under pause_mutex_); live-thread count acq_rel on exit so finished()
// (acquire) sees every worker's writes, including RunChecks results and outputs.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "pipelab/pipeline/run_checks.hpp"
#include "pipelab/pipeline/spec.hpp"
#include "pipelab/telemetry/run_telemetry.hpp"
#include "pipelab/workload/stage_work.hpp"

namespace pipelab::pipeline {

static_assert(kMaxStages <= telemetry::RunTelemetry::kMaxStages,
              "a worker's telemetry tally holds every stage a spec may have");

// The threads engine's cap on threads in one run (contracts/spec.md allows more for simulation).
inline constexpr std::uint32_t kMaxRunThreads = 64;
// With unbounded queues every item out could be waiting in a queue at once (16 bytes each plus
// the deque's blocks), and the app's wasm memory is a fixed 64 MB: the threads engine takes at
// most this many items out with unbounded queues (as src/engine/pipeline/chooseEngine.ts says).
inline constexpr std::uint64_t kMaxUnboundedItemsOut = 500000;

// Telemetry ring size when RunOptions::ring_capacity is 0 (the app's runs): as large as the
// budget allows, at most kMaxAutoRingRecords. A µs-stage worker writes ~300k events/s and the page
// reads once a frame; 32768 records hold ~0.1 s, so a frame or two late drops nothing. All rings
// together stay under kRingBudgetBytes of the app's fixed 64 MB wasm memory, so 64 threads get
// 4096 records each (what every run got before) and 8 threads the full 32768.
inline constexpr std::size_t kRingBudgetBytes = std::size_t(8) << 20;
inline constexpr std::uint32_t kMaxAutoRingRecords = 32768;
inline constexpr std::uint32_t kMinAutoRingRecords = 1024;

inline std::uint32_t auto_ring_capacity(std::uint32_t workers) noexcept {
  const std::size_t per_worker =
      kRingBudgetBytes / (workers ? workers : 1) / sizeof(telemetry::Event);
  std::uint32_t capacity = kMaxAutoRingRecords;
  while (capacity > kMinAutoRingRecords && capacity > per_worker) capacity /= 2;
  return capacity;
}

struct RunOptions {
  bool telemetry = true;
  std::uint32_t ring_capacity = 0;  // events per worker ring (power of two); 0: auto_ring_capacity
  bool check_invariants = false;    // RunChecks monitors on the hot path
  bool collect_outputs = false;     // keep each item's final value (needs check_invariants)
};

class Runtime {
 public:
  virtual ~Runtime() {
    request_cancel();
    join();
  }
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // Launches the workers and returns. Throws std::logic_error if a run is still live.
  void start() {
    if (!threads_.empty()) throw std::logic_error("Runtime::start: previous run not joined");
    // A new run starts running: a pause from an earlier run does not carry over.
    cancel_.store(false, std::memory_order_relaxed);
    pause_.store(false, std::memory_order_relaxed);
    all_parked_.store(false, std::memory_order_relaxed);
    completed_.store(0, std::memory_order_relaxed);
    finish_us_.store(0, std::memory_order_relaxed);
    telemetry_.reset();
    checks_.reset();
    prepare();
    const std::uint32_t n = thread_count();
    live_.store(n, std::memory_order_relaxed);
    running_ = n;
    parked_.store(0, std::memory_order_relaxed);
    threads_.reserve(n);
    for (std::uint32_t w = 0; w < n; ++w) {
      threads_.emplace_back([this, w] {
        work(w);
        // However work() ended (done, cancelled), its last tallies reach the stage counters
        // before finished() can see the worker gone. Runtimes never flush tallies themselves.
        telemetry_.flush_tally(std::uint16_t(w));
        worker_exited();
        live_.fetch_sub(1, std::memory_order_acq_rel);
      });
    }
  }
  // True once every worker has returned (all items done, or cancelled).
  bool finished() const noexcept { return live_.load(std::memory_order_acquire) == 0; }
  // Also wakes paused workers; they exit as they would from a running run.
  void request_cancel() noexcept {
    cancel_.store(true, std::memory_order_release);
    {
      // Under the lock: a worker between its predicate check and its wait would miss the notify.
      std::lock_guard<std::mutex> lock(pause_mutex_);
      pause_cv_.notify_all();
    }
    wake_waiters();
  }
  // Workers park at their next item boundary; may be called before the threads have started
  // running (after start()), and they park on arrival. Idempotent.
  void request_pause() noexcept {
    {
      std::lock_guard<std::mutex> lock(pause_mutex_);
      pause_.store(true, std::memory_order_release);
      maybe_all_parked();  // e.g. every worker but the parked ones has already exited
    }
    wake_waiters();
  }
  // Wakes parked workers and restarts the run clock. A no-op when not paused.
  void request_resume() noexcept {
    std::lock_guard<std::mutex> lock(pause_mutex_);
    if (!pause_.load(std::memory_order_relaxed)) return;
    pause_.store(false, std::memory_order_release);
    all_parked_.store(false, std::memory_order_release);
    telemetry_.restart_clock();
    pause_cv_.notify_all();
  }
  // True once a pause is requested and every worker still running has parked: from here until
  // resume, no item completes and the run clock stands still.
  bool paused() const noexcept { return all_parked_.load(std::memory_order_acquire); }
  // Workers parked right now (the acknowledgements of a pause).
  std::uint32_t paused_workers() const noexcept { return parked_.load(std::memory_order_acquire); }
  void join() {
    for (auto& t : threads_) t.join();
    threads_.clear();
  }
  // start(); join(): blocks until the run ends.
  void run() {
    start();
    join();
  }

  bool cancelled() const noexcept { return cancel_.load(std::memory_order_acquire); }
  // Items out of the last stage so far (items × the stages' emits at the end of a run).
  std::uint64_t items_completed() const noexcept {
    return completed_.load(std::memory_order_acquire);
  }
  std::uint64_t items_out() const noexcept { return items_out_; }
  // Run-clock µs (paused time excluded) from start() until the last item left (0 while running
  // or when cancelled early).
  double elapsed_us() const noexcept { return finish_us_.load(std::memory_order_acquire); }
  const ExperimentSpec& spec() const noexcept { return spec_; }
  telemetry::RunTelemetry& telemetry() noexcept { return telemetry_; }
  const RunChecks& checks() const noexcept { return checks_; }
  virtual std::uint32_t thread_count() const noexcept = 0;
  // What the page reads of a finished run beyond telemetry, where a kind has it (its runtime
  // overrides these; the bindings ask every runtime the same): the run's output as JSON text, the
  // phaser task board's shared words, and why the run stopped early ("" when it did not).
  virtual std::string output_json() const { return "null"; }
  virtual const void* board_data() const noexcept { return nullptr; }
  virtual std::string stop_reason() const { return {}; }

 protected:
  // `rules`: the kind's (spec.hpp); the spec is checked with them and its defaults filled. One
  // telemetry worker per thread of the spec (the barrier runtime's logical threads).
  Runtime(const ExperimentSpec& spec, const KindRules& rules, const RunOptions& options)
      : spec_(checked(spec, rules)),
        options_(options),
        telemetry_(
            spec_.threads, std::uint32_t(spec_.stages.size()),
            options.ring_capacity ? options.ring_capacity : auto_ring_capacity(spec_.threads),
            options.telemetry),
        out_per_item_(outputs_per_item(spec_.stages)),
        items_out_(spec_.items * out_per_item_),
        checks_(spec_.stages.size(), items_out_, options.collect_outputs) {
    for (std::uint32_t s = 0; s < spec_.stages.size(); ++s) {
      work_.emplace_back(spec_.stages[s].service, spec_.seed, s, spec_.stages[s].bypass);
    }
  }

  // Called by start() before threads launch (reset per-run state).
  virtual void prepare() = 0;
  // Body of worker `w`; returns when the run is over or cancel_requested().
  virtual void work(std::uint32_t w) = 0;
  // Wakes workers sleeping outside pause_point() so they see a cancel or pause flag just raised
  // (see the file comment). Called from request_cancel() (the destructor's too: derived classes
  // call request_cancel() in their own destructor, as their members still live) and
  // request_pause(); any thread. The default has nothing to wake.
  virtual void wake_waiters() noexcept {}

  bool cancel_requested() const noexcept { return cancel_.load(std::memory_order_acquire); }
  // Whether a pause is requested (a runtime that multiplexes tasks lets the running task reach an
  // element boundary and give its thread back, so the thread can park at pause_point()).
  bool pause_requested() const noexcept { return pause_.load(std::memory_order_acquire); }
  // Worker `w` calls this where it checks cancel_requested() and holds no half-served item (it
  // may hold one waiting to be handed on). Returns at once unless a pause is requested; then
  // blocks until resume or cancel (the caller rechecks cancel_requested() afterwards).
  void pause_point(std::uint32_t w) noexcept {
    if (pause_.load(std::memory_order_acquire)) park(w);
  }
  // Call once per item leaving the last stage.
  void item_done(std::uint64_t item, std::uint64_t value) noexcept {
    if (options_.check_invariants) checks_.deliver(item, value);
    if (completed_.fetch_add(1, std::memory_order_acq_rel) + 1 == items_out_) {
      finish_us_.store(telemetry_.now_us(), std::memory_order_release);
    }
  }
  bool all_done() const noexcept {
    return completed_.load(std::memory_order_acquire) >= items_out_;
  }

  ExperimentSpec spec_;
  RunOptions options_;
  telemetry::RunTelemetry telemetry_;
  std::uint64_t out_per_item_;  // items out of the last stage per item in (the stages' emits)
  std::uint64_t items_out_;     // items out of the whole run
  RunChecks checks_;
  std::vector<workload::StageWork> work_;

 private:
  static ExperimentSpec checked(ExperimentSpec spec, const KindRules& rules) {
    validate(spec, rules);
    const std::uint32_t workers = spec.threads;
    if (workers > kMaxRunThreads) {
      throw SpecError("threads: " + std::to_string(workers) +
                      " is out of range for the threads engine (allowed 1..64)");
    }
    const std::uint64_t per_item = outputs_per_item(spec.stages);
    if (!spec.queue.capacity && spec.items * per_item > kMaxUnboundedItemsOut) {
      throw SpecError("items: " + std::to_string(spec.items) +
                      " is out of range for the threads engine with unbounded queues (allowed 1.." +
                      std::to_string(kMaxUnboundedItemsOut / per_item) +
                      ": every item out could wait in a queue at once, and memory holds " +
                      std::to_string(kMaxUnboundedItemsOut) + ")");
    }
    return spec;
  }

  void park(std::uint32_t w) noexcept {
    // Counters exact while paused: the worker's tally would otherwise wait for its next service.
    telemetry_.flush_tally(std::uint16_t(w));
    std::unique_lock<std::mutex> lock(pause_mutex_);
    const auto released = [this] {
      return !pause_.load(std::memory_order_relaxed) || cancel_.load(std::memory_order_relaxed);
    };
    if (released()) return;
    parked_.store(parked_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
    maybe_all_parked();
    pause_cv_.wait(lock, released);
    parked_.store(parked_.load(std::memory_order_relaxed) - 1, std::memory_order_release);
    all_parked_.store(false, std::memory_order_release);
  }
  void worker_exited() noexcept {
    std::lock_guard<std::mutex> lock(pause_mutex_);
    --running_;
    maybe_all_parked();
  }
  // Under pause_mutex_: the pause takes effect once every running worker has parked.
  void maybe_all_parked() noexcept {
    if (!pause_.load(std::memory_order_relaxed) || cancel_.load(std::memory_order_relaxed)) return;
    if (running_ == 0 || parked_.load(std::memory_order_relaxed) != running_) return;
    telemetry_.stop_clock();
    all_parked_.store(true, std::memory_order_release);
  }

  std::vector<std::thread> threads_;
  std::atomic<bool> cancel_{false};
  std::atomic<bool> pause_{false};
  std::mutex pause_mutex_;
  std::condition_variable pause_cv_;
  std::uint32_t running_ = 0;             // workers not yet exited; guarded by pause_mutex_
  std::atomic<std::uint32_t> parked_{0};  // written under pause_mutex_, read by anyone
  std::atomic<bool> all_parked_{false};   // written under pause_mutex_, read by anyone
  std::atomic<std::uint32_t> live_{0};
  std::atomic<std::uint64_t> completed_{0};
  std::atomic<double> finish_us_{0};
};

}  // namespace pipelab::pipeline
