// Runtime: the non-blocking run controller every pipeline runtime derives from.
//
// Thread roles: one controlling thread (the engine worker, a test, the bench) calls start(),
// finished(), request_cancel() and join(); start() launches the worker threads and RETURNS (in
// the browser the caller must get back to its event loop for extra Workers to start). Workers
// poll cancel_requested() at least every ~0.2 ms (never park longer), so after request_cancel()
// every thread exits within 50 ms; join() then reaps them and start() may run again.
// Telemetry (rings, stage counters) lives in RunTelemetry, allocated once in the constructor:
// its addresses are stable across runs and may be read from any thread at any time.
// Memory orders: cancel flag release/acquire; live-thread count acq_rel on exit so finished()
// (acquire) sees every worker's writes, including RunChecks results and outputs.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "pipelab/pipeline/run_checks.hpp"
#include "pipelab/pipeline/spec.hpp"
#include "pipelab/telemetry/run_telemetry.hpp"
#include "pipelab/workload/stage_work.hpp"

namespace pipelab::pipeline {

// The threads engine's cap on threads in one run (FORMAT.md allows more for the simulation).
inline constexpr std::uint32_t kMaxRunThreads = 64;

struct RunOptions {
  bool telemetry = true;
  std::uint32_t ring_capacity = 4096;  // events per worker ring (power of two)
  bool check_invariants = false;       // RunChecks monitors on the hot path
  bool collect_outputs = false;        // keep each item's final value (needs check_invariants)
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
    cancel_.store(false, std::memory_order_relaxed);
    completed_.store(0, std::memory_order_relaxed);
    finish_us_.store(0, std::memory_order_relaxed);
    telemetry_.reset();
    checks_.reset();
    prepare();
    const std::uint32_t n = thread_count();
    live_.store(n, std::memory_order_relaxed);
    threads_.reserve(n);
    for (std::uint32_t w = 0; w < n; ++w) {
      threads_.emplace_back([this, w] {
        work(w);
        live_.fetch_sub(1, std::memory_order_acq_rel);
      });
    }
  }
  // True once every worker has returned (all items done, or cancelled).
  bool finished() const noexcept { return live_.load(std::memory_order_acquire) == 0; }
  void request_cancel() noexcept { cancel_.store(true, std::memory_order_release); }
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
  std::uint64_t items_completed() const noexcept {
    return completed_.load(std::memory_order_acquire);
  }
  // µs from start() until the last item left (0 while running or when cancelled early).
  double elapsed_us() const noexcept { return finish_us_.load(std::memory_order_acquire); }
  const ExperimentSpec& spec() const noexcept { return spec_; }
  telemetry::RunTelemetry& telemetry() noexcept { return telemetry_; }
  const RunChecks& checks() const noexcept { return checks_; }
  virtual std::uint32_t thread_count() const noexcept = 0;

 protected:
  Runtime(const ExperimentSpec& spec, const RunOptions& options, std::uint32_t workers)
      : spec_(checked(spec, workers)),
        options_(options),
        telemetry_(workers, std::uint32_t(spec_.stages.size()), options.ring_capacity,
                   options.telemetry),
        checks_(spec_.stages.size(), spec_.items, options.collect_outputs) {
    for (std::uint32_t s = 0; s < spec_.stages.size(); ++s) {
      work_.emplace_back(spec_.stages[s].service, spec_.seed, s);
    }
  }

  // Called by start() before threads launch (reset per-run state).
  virtual void prepare() = 0;
  // Body of worker `w`; returns when the run is over or cancel_requested().
  virtual void work(std::uint32_t w) = 0;

  bool cancel_requested() const noexcept { return cancel_.load(std::memory_order_acquire); }
  // Call once per item leaving the last stage.
  void item_done(std::uint64_t item, std::uint64_t value) noexcept {
    if (options_.check_invariants) checks_.deliver(item, value);
    if (completed_.fetch_add(1, std::memory_order_acq_rel) + 1 == spec_.items) {
      finish_us_.store(telemetry_.now_us(), std::memory_order_release);
    }
  }
  bool all_done() const noexcept {
    return completed_.load(std::memory_order_acquire) >= spec_.items;
  }

  ExperimentSpec spec_;
  RunOptions options_;
  telemetry::RunTelemetry telemetry_;
  RunChecks checks_;
  std::vector<workload::StageWork> work_;

 private:
  static ExperimentSpec checked(ExperimentSpec spec, std::uint32_t workers) {
    validate(spec);
    if (workers == 0 || workers > kMaxRunThreads) {
      throw SpecError("threads: " + std::to_string(workers) +
                      " is out of range for the threads engine (allowed 1..64)");
    }
    return spec;
  }

  std::vector<std::thread> threads_;
  std::atomic<bool> cancel_{false};
  std::atomic<std::uint32_t> live_{0};
  std::atomic<std::uint64_t> completed_{0};
  std::atomic<double> finish_us_{0};
};

}  // namespace pipelab::pipeline
