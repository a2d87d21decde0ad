// BarrierRuntime: barrier-synchronous work, the thread packing experiment (Park et al., seed 004).
//
// T = spec.threads logical threads repeat, for spec.items intervals: compute their share of the
// interval's work (the one stage's fixed service, all threads together, split evenly: thread t
// gets iterations/T, plus one for t < iterations % T, so the total is the same for any T), then
// meet at a barrier (spec.barrier: SpinBarrier or BlockingBarrier, pipelab/sync/).
// Two schedules (spec.schedule):
//   os      T real threads; the operating system decides which core runs which, and when. With
//           T > cores some cores hold more threads than others: thread packing as the OS does it.
//   packed  C' = min(cores, T) real "core" threads; logical thread t belongs to core t mod C' (so
//           a core holds ceil(T/C') or floor(T/C') of them, exactly), and each core thread runs its
//           logical threads' work round-robin in slices of spec.quantum_us, then meets the other
//           core threads at the barrier. The browser cannot pin threads to cores; this makes the
//           packing explicit and deterministic instead. The constructor refuses more cores than
//           the machine has (hardware_concurrency): a core thread needs a core of its own.
// Thread roles: the Runtime base's (one controller; workers are the T os threads or C' core
//   threads). Telemetry has one ring per LOGICAL thread: under packed, core thread c writes the
//   rings of its logical threads (each ring still has one producer).
// Telemetry per interval k (item = k, stage 0, arg = core under packed, kNoCore under os):
//   start / end around each stretch of computing (os: one per interval; packed: one per slice),
//   barrier-arrive when the thread's work is done, barrier-pass when it passed. Counters of stage
//   0: items_in = items_out = intervals completed, busy_us = µs computing, idle_us = µs waiting
//   at the barrier (summed over logical threads).
// Cancel and pause: work runs in chunks of at most kChunkUs between checks; a waiter at the
//   barrier checks through its stop predicate, and wake_waiters() interrupts the blocking
//   barrier's sleepers, so every thread exits (or parks) promptly wherever it is. A parked
//   waiter resumes waiting on the same phase.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "pipelab/pipeline/runtime.hpp"
#include "pipelab/sync/blocking_barrier.hpp"
#include "pipelab/sync/spin_barrier.hpp"
#include "pipelab/workload/busy_work.hpp"

namespace pipelab::pipeline {

class BarrierRuntime final : public Runtime {
 public:
  // Longest stretch of work between two cancel/pause checks (the base's ~0.2 ms contract).
  static constexpr double kChunkUs = 100;

  explicit BarrierRuntime(const ExperimentSpec& spec, const RunOptions& options = {})
      : Runtime(of_kind(spec), kBarrierRules, options),
        busy_(&workload::BusyWork::global()),
        iterations_per_interval_(busy_->iterations_for_us(spec_.stages[0].service.us)),
        chunk_iterations_(std::max<std::uint64_t>(1, busy_->iterations_for_us(kChunkUs))),
        slice_iterations_(
            std::max<std::uint64_t>(1, busy_->iterations_for_us(double(spec_.quantum_us)))),
        threads_(real_threads(spec_)),
        spin_(threads_),
        blocking_(threads_),
        work_done_(std::make_unique<std::atomic<std::uint64_t>[]>(threads_)) {
    for (std::uint32_t t = 0; t < spec_.threads; ++t) core_of_.push_back(t % threads_);
  }
  ~BarrierRuntime() override {
    request_cancel();
    join();
  }

  // os: T; packed: min(cores, T).
  std::uint32_t thread_count() const noexcept override { return threads_; }
  bool packed() const noexcept { return spec_.schedule == Schedule::kPacked; }
  // The core thread each logical thread belongs to (packed); under os, t itself.
  const std::vector<std::uint32_t>& core_of() const noexcept { return core_of_; }
  // Busy-work iterations one interval holds, all threads together.
  std::uint64_t iterations_per_interval() const noexcept { return iterations_per_interval_; }
  // Iterations computed by every thread in the last run (after join()): intervals x
  // iterations_per_interval() for a completed run, whatever T and the schedule.
  std::uint64_t work_iterations() const noexcept {
    std::uint64_t sum = 0;
    for (std::uint32_t w = 0; w < threads_; ++w)
      sum += work_done_[w].load(std::memory_order_acquire);
    return sum;
  }

 private:
  using EventKind = telemetry::EventKind;

  static const ExperimentSpec& of_kind(const ExperimentSpec& spec) {
    if (spec.runtime != RuntimeKind::kBarrier) {
      throw SpecError("runtime", std::string("BarrierRuntime needs the barrier runtime, not ") +
                                     to_string(spec.runtime));
    }
    return spec;
  }

  static std::uint32_t real_threads(const ExperimentSpec& spec) {
    if (spec.schedule == Schedule::kOs) return spec.threads;
    const std::uint32_t cores = *spec.cores;
    const std::uint32_t here = std::thread::hardware_concurrency();
    if (here != 0 && cores > here) {
      throw SpecError("cores", std::to_string(cores) + " is more than this machine's " +
                                   std::to_string(here) +
                                   " cores (the packed schedule runs one thread per core; the "
                                   "simulation takes larger budgets)");
    }
    return std::min(cores, spec.threads);
  }

  void prepare() override {
    spin_.reset();
    blocking_.reset();
    for (std::uint32_t w = 0; w < threads_; ++w) work_done_[w].store(0, std::memory_order_relaxed);
  }

  void wake_waiters() noexcept override { blocking_.interrupt(); }

  void work(std::uint32_t w) override {
    if (spec_.barrier == BarrierKind::kSpin) {
      run_intervals(w, spin_);
    } else {
      run_intervals(w, blocking_);
    }
  }

  // The logical threads worker w serves, and what each still has to compute this interval.
  struct Share {
    std::uint32_t thread;
    std::uint64_t left = 0;
    double arrived_us = 0;
  };

  std::uint64_t iterations_of(std::uint32_t t) const noexcept {
    const std::uint64_t base = iterations_per_interval_ / spec_.threads;
    return base + (t < iterations_per_interval_ % spec_.threads ? 1 : 0);
  }

  template <typename Barrier>
  void run_intervals(std::uint32_t w, Barrier& barrier) {
    std::vector<Share> shares;
    for (std::uint32_t t = 0; t < spec_.threads; ++t) {
      if (core_of_[t] == w) shares.push_back(Share{t});
    }
    const std::uint32_t core = packed() ? w : telemetry::kNoCore;
    const auto stop = [this, w] {
      if (cancel_requested()) return true;
      pause_point(w);  // parks here (not counted as waiting) until resume or cancel
      return cancel_requested();
    };
    Work done;
    for (std::uint64_t k = 0; k < spec_.items; ++k) {
      for (Share& s : shares) s.left = iterations_of(s.thread);
      if (!compute_interval(w, core, std::uint32_t(k), shares, done)) break;
      const sync::Arrival a = barrier.arrive();
      if (a.completed) {
        auto& c = telemetry_.counters(0);
        c.add(c.items_in, 1);
        c.add(c.items_out, 1);
        item_done(k, 0);
      } else if (!barrier.wait(a.token, stop)) {
        break;  // cancelled while waiting
      }
      const double pass_us = telemetry_.now_us();
      double waited_us = 0;
      for (const Share& s : shares) {
        waited_us += pass_us - s.arrived_us;
        record(s.thread, EventKind::kBarrierPass, k, core, pass_us);
      }
      telemetry_.tally_time(std::uint16_t(w), 0, 0, waited_us, pass_us);
    }
    sink_ = done.chain;
    work_done_[w].store(done.iterations, std::memory_order_release);
  }

  // What a worker computed: iterations, and the chain's value (kept so the loop stays).
  struct Work {
    std::uint64_t iterations = 0;
    std::uint64_t chain = 1;
  };

  // Computes every share of this worker for interval k, round-robin in slices (one slice of
  // everything under os). False if cancelled part-way.
  bool compute_interval(std::uint32_t w, std::uint32_t core, std::uint32_t k,
                        std::vector<Share>& shares, Work& work) {
    const std::uint64_t slice = packed() ? slice_iterations_ : ~std::uint64_t(0);
    for (std::size_t finished = 0; finished < shares.size();) {
      finished = 0;
      for (Share& s : shares) {
        if (s.left == 0) {
          ++finished;
          continue;
        }
        const double start_us = telemetry_.now_us();
        record(s.thread, EventKind::kStart, k, core, start_us);
        std::uint64_t todo = std::min(slice, s.left);
        while (todo > 0) {
          if (cancel_requested()) return false;
          pause_point(w);
          const std::uint64_t n = std::min(todo, chunk_iterations_);
          work.chain = workload::BusyWork::run_iterations(n, work.chain | 1);
          work.iterations += n;
          todo -= n;
          s.left -= n;
        }
        const double end_us = telemetry_.now_us();
        record(s.thread, EventKind::kEnd, k, core, end_us);
        telemetry_.tally_time(std::uint16_t(w), 0, end_us - start_us, 0, end_us);
        if (s.left == 0) {
          s.arrived_us = end_us;
          record(s.thread, EventKind::kBarrierArrive, k, core, end_us);
        }
      }
    }
    return true;
  }

  void record(std::uint32_t thread, EventKind kind, std::uint64_t k, std::uint32_t core,
              double at_us) noexcept {
    telemetry_.record_at(at_us, std::uint16_t(thread), kind, 0, std::uint32_t(k), core);
  }

  const workload::BusyWork* busy_;
  const std::uint64_t iterations_per_interval_;
  const std::uint64_t chunk_iterations_;
  const std::uint64_t slice_iterations_;
  const std::uint32_t threads_;
  std::vector<std::uint32_t> core_of_;
  sync::SpinBarrier spin_;
  sync::BlockingBarrier blocking_;
  // Per worker, iterations computed this run (stored by the worker as it exits, read after
  // join()).
  std::unique_ptr<std::atomic<std::uint64_t>[]> work_done_;
  // Keeps the busy-work chain observable (LLVM deletes loops whose results are never read).
  static inline thread_local volatile std::uint64_t sink_ = 0;
};

}  // namespace pipelab::pipeline
