// BlockingBarrier: a centralized barrier whose waiters spin briefly, then sleep on a futex.
//
// Roles: `parties` threads each call arrive() once per phase, then wait(token, stop) (or
//   arrive_and_wait()). Any thread may read passed() and call interrupt(). reset() and construction
//   only while no thread is inside.
// Invariant: count_ holds the arrivals still missing in the current phase (parties..1); phase_
//   counts completed phases (mod 2^32). A phase's arrivals carry token = phase_ as read before
//   their own decrement (phase_ cannot move before every party of the phase has arrived); the
//   arrival that takes count_ to 0 refills it, then sets phase_ = token + 1. wake_ is the futex
//   word sleepers wait on: it changes after every completed phase AND after every interrupt(), so a
//   sleeper wakes for either and rechecks both its phase and its stop predicate.
// Waiting: spin up to `spin_us` (default kDefaultSpinUs = 4 µs) re-reading phase_, then
//   loop { read wake_; passed? -> true; stop()? -> false; futex_wait(wake_, the value read) }.
//   Nothing is lost between the read and the sleep: whoever completes the phase or interrupts
//   changes wake_ first, and the futex compares before sleeping. sleepers_ counts threads about to
//   sleep, so a phase nobody sleeps through costs no system call: a sleeper counts itself in, then
//   rereads wake_; a waker changes wake_, then reads sleepers_ (all four seq_cst: either the waker
//   sees the sleeper and wakes it, or the sleeper's reread sees the change and does not sleep).
// Interrupt: a thread that sets a flag the waiters' stop predicates read (cancel, pause) then calls
//   interrupt(); every sleeper wakes, sees the flag, and returns false (its arrival still counts).
// Capacity rule: 1..kMaxParties threads.
// Memory orders: the decrement is acq_rel and the store of phase_ a release, read with acquire, as
//   in SpinBarrier: what a thread wrote before arrive() is visible to all after their wait()
//   returns true. The completer's release increment of wake_ comes after its phase_ store, so a
//   sleeper whose acquire load of wake_ sees the increment also sees the new phase_. interrupt()'s
//   increment is a release too (seq_cst, see Waiting), so a waiter that sees it also sees the
//   caller's flag.
//   Operations only, no stand-alone fences (ThreadSanitizer does not model atomic_thread_fence).
// Why a short spin: partners that run on cores of their own arrive within a microsecond, so a
//   longer spin buys nothing there; when threads outnumber cores (or the machine is loaded), a
//   spinner holds a core its partner needs. Measured on 2 loaded cores (load ~25), 2 threads:
//   spin 2 µs ~6-19 µs per barrier, 10 µs ~23-31, 50 µs ~105-134 (libstdc++'s std::barrier spins
//   12 pauses and 4 yields, a few µs, before its futex wait).
// Layout: count_ (every arrival writes it) on its own prefetch pair; phase_, wake_ and sleepers_
//   (written about once per phase, read by the waiters) share the next one.
// Source: the centralized counter barrier (e.g. Mellor-Crummey and Scott, TOCS 1991) with
//   spin-then-block waiting as in Linux's futex-based pthread barriers and OpenMP runtimes'
//   "spin, then sleep" wait policies.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#include "pipelab/cacheline.hpp"
#include "pipelab/queues/wait_policy.hpp"
#include "pipelab/sync/arrival.hpp"
#include "pipelab/sync/futex.hpp"

namespace pipelab::sync {

class BlockingBarrier {
 public:
  static constexpr std::uint32_t kMaxParties = kMaxBarrierParties;
  static constexpr double kDefaultSpinUs = 4;
  // Spinning reads the clock once per this many spins.
  static constexpr std::uint32_t kClockPollSpins = 64;

  explicit BlockingBarrier(std::uint32_t parties, double spin_us = kDefaultSpinUs)
      : parties_(checked_parties("BlockingBarrier", parties)), spin_us_(spin_us > 0 ? spin_us : 0) {
    reset();
  }
  BlockingBarrier(const BlockingBarrier&) = delete;
  BlockingBarrier& operator=(const BlockingBarrier&) = delete;

  // Counts this thread in for the current phase; never waits. The completing arrival wakes the
  // sleepers.
  [[nodiscard]] Arrival arrive() noexcept {
    const std::uint32_t token = state_.phase.load(std::memory_order_acquire);
    if (count_.value.fetch_sub(1, std::memory_order_acq_rel) != 1) return {token, false};
    count_.value.store(parties_, std::memory_order_relaxed);
    state_.phase.store(token + 1, std::memory_order_release);
    wake_sleepers();
    return {token, true};
  }

  // True once every party has arrived for the token's phase.
  [[nodiscard]] bool passed(std::uint32_t token) const noexcept {
    return state_.phase.load(std::memory_order_acquire) != token;
  }

  // Waits until the phase completes (true) or `stop()` returns true (false: the arrival still
  // counts; wait again with the same token to go on). stop() may block, e.g. to park the thread.
  template <typename Stop>
  bool wait(std::uint32_t token, Stop&& stop) noexcept {
    if (spin(token)) return true;
    for (;;) {
      const std::uint32_t seen = state_.wake.load(std::memory_order_acquire);
      if (passed(token)) return true;
      if (stop()) return passed(token);
      sleep(seen);
    }
  }

  void arrive_and_wait() noexcept {
    const Arrival a = arrive();
    if (!a.completed) wait(a.token, [] { return false; });
  }

  // Wakes every sleeper so it rechecks its stop predicate: set the flag it reads first.
  void interrupt() noexcept { wake_sleepers(); }

  // Back to a fresh phase; only while no thread is inside (between runs).
  void reset() noexcept {
    count_.value.store(parties_, std::memory_order_relaxed);
    state_.phase.store(0, std::memory_order_relaxed);
    state_.sleepers.store(0, std::memory_order_relaxed);
  }

  std::uint32_t parties() const noexcept { return parties_; }
  double spin_us() const noexcept { return spin_us_; }

 private:
  using Clock = std::chrono::steady_clock;

  struct alignas(kPrefetchPairBytes) Count {
    std::atomic<std::uint32_t> value{0};
  };
  struct alignas(kPrefetchPairBytes) State {
    std::atomic<std::uint32_t> phase{0};
    std::atomic<std::uint32_t> wake{0};
    std::atomic<std::uint32_t> sleepers{0};
  };
  static_assert(sizeof(Count) == kPrefetchPairBytes && sizeof(State) == kPrefetchPairBytes);

  void wake_sleepers() noexcept {
    state_.wake.fetch_add(1, std::memory_order_seq_cst);
    if (state_.sleepers.load(std::memory_order_seq_cst) != 0) futex_wake_all(state_.wake);
  }

  // Sleeps unless wake_ moved past `seen` (see Waiting in the file comment).
  void sleep(std::uint32_t seen) noexcept {
    state_.sleepers.fetch_add(1, std::memory_order_seq_cst);
    if (state_.wake.load(std::memory_order_seq_cst) == seen) futex_wait(state_.wake, seen);
    state_.sleepers.fetch_sub(1, std::memory_order_relaxed);
  }

  // True if the phase completed within the spin budget.
  bool spin(std::uint32_t token) const noexcept {
    if (spin_us_ <= 0) return passed(token);
    const auto until = Clock::now() + std::chrono::duration<double, std::micro>(spin_us_);
    for (std::uint32_t spins = 1;; ++spins) {
      if (passed(token)) return true;
      if (spins % kClockPollSpins == 0 && Clock::now() >= until) return false;
      queues::cpu_relax();
    }
  }

  Count count_;
  State state_;
  const std::uint32_t parties_;
  const double spin_us_;
};

}  // namespace pipelab::sync
