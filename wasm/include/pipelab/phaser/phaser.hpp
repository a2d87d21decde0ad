// Phaser: a bounded phaser with dynamic registration (Shirako et al., "Phaser beams", 003).
//
// Roles: each registered task (registration.hpp) signals, waits and drops through its own
//   Registration, from whichever thread runs it at the time; attach() may be called by any task
//   (spawning a child) while others signal and wait. Sleepers (tasks whose operation could not
//   complete, see scheduler.hpp) park on the phaser and are woken by any later change.
// Invariant: phase p is complete once every live signaller has signalled it (signals > p); a
//   signaller that dropped holds nothing back. With W = the lowest `waits` of the live waiters, a
//   signal that would make a task's count exceed W + bound is refused, so at every instant
//   #wait <= #signal <= #wait + bound (the paper's bound constraint): W <= min signals because a
//   wait of phase p needs p complete, and every signal count <= W + bound by the check. The stream
//   has ended at phase p when no signaller is live and none signalled p.
// Capacity rule: bound in 1..kMaxBound phases; at most `max_registrations` attach() calls over the
//   phaser's life (dropped ones keep their place: a phase's contributors stay readable).
// Per mode (the paper's table): signal is a no-op for WAIT, wait is a no-op for SIG, and next is
//   signal then wait. A registration starts at its parent's counters on this phaser (the child
//   joins the phase its parent is in), or at 0 when the parent holds only a capability here.
// Memory orders: every counter store and load, the dropped flag and the sleepers flag are seq_cst:
//   "store my counter, then load has_sleepers" against "store has_sleepers, then reload the
//   counters" is a Dekker pair (a sleeper is never missed), and ThreadSanitizer does not model the
//   stand-alone fences a release/acquire version would need. The registration list is appended
//   under a spin lock and published by a seq_cst store of its length.
// Source: Shirako, Peixotto, Sbirlea, Sarkar, "Phaser Beams: Integrating Stream Parallelism with
//   Task Parallelism" (X10 Workshop 2011), and the Habanero-Java phasers it extends. Departures:
//   no master task gathers signals (a waiter computes completion from the counters), and a
//   creator's capability is kept apart from its participation (registration.hpp).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "pipelab/phaser/registration.hpp"
#include "pipelab/sched/backoff.hpp"
#include "pipelab/sched/spin_lock.hpp"

namespace pipelab::phaser {

// A task that parked on a phaser: wake() must be cheap, non-blocking and safe from any thread.
class Sleeper {
 public:
  virtual void wake() noexcept = 0;

 protected:
  ~Sleeper() = default;
};

enum class WaitResult : std::uint8_t { kReady, kPending, kEnded };

class Phaser {
 public:
  static constexpr std::uint32_t kMaxBound = 1u << 20;
  static constexpr std::uint64_t kNoLimit = std::numeric_limits<std::uint64_t>::max();

  Phaser(std::uint32_t bound, std::uint32_t max_registrations, std::uint32_t id = 0)
      : regs_(validated_capacity(max_registrations)), bound_(validated_bound(bound)), id_(id) {}
  Phaser(const Phaser&) = delete;
  Phaser& operator=(const Phaser&) = delete;

  // Registers a task with `mode`, spawned by a task whose capability here is `parent_capability`
  // (its registration `parent`, or nullptr when it holds only a capability: it created the
  // phaser, or it is the root). Throws CapabilityError for a mode wider than that capability and
  // std::length_error past max_registrations. `payload` is published with the registration.
  // `creator`: the task creating the phaser registers itself; it may grant SIG_WAIT whatever it
  // does itself (registration.hpp: capability vs participation).
  Registration& attach(Mode mode, Mode parent_capability, const Registration* parent,
                       std::uint32_t task, void* payload = nullptr, bool creator = false) {
    check_capability(mode, creator ? Mode::kSigWait : parent_capability);
    if (mode == Mode::kNone) throw std::invalid_argument("a registration needs SIG or WAIT");
    Registration* r = nullptr;
    {
      std::lock_guard<sched::SpinLock> lock(list_lock_);
      const std::uint32_t n = count_.load(std::memory_order_relaxed);
      if (n == regs_.size()) {
        throw std::length_error("phaser " + std::to_string(id_) + ": more than " +
                                std::to_string(regs_.size()) + " registrations");
      }
      regs_[n] = std::make_unique<Registration>();
      r = regs_[n].get();
      r->mode = mode;
      r->capability = creator ? Mode::kSigWait : mode;
      r->index = n;
      r->task = task;
      r->payload = payload;
      const std::uint64_t s = parent ? parent->signalled() : 0;
      r->signals.store(s, std::memory_order_relaxed);
      r->first_signal = s;
      r->waits.store(parent ? parent->waited() : 0, std::memory_order_relaxed);
      count_.store(n + 1, std::memory_order_seq_cst);
    }
    wake_sleepers();  // a new waiter can change the bound for parked signallers
    return *r;
  }

  // Signals the registration's current phase (a no-op for WAIT). False when the bound refuses it:
  // the caller retries after a waiter advances (park with sleep()).
  [[nodiscard]] bool try_signal(Registration& r) noexcept {
    if (!can_signal(r.mode)) return true;
    const std::uint64_t q = r.signals.load(std::memory_order_relaxed);
    if (!bound_allows(q)) return false;
    r.signals.store(q + 1, std::memory_order_seq_cst);
    wake_sleepers();
    return true;
  }

  // Waits for the registration's next phase (a no-op for SIG): kReady once it is complete (the
  // wait is then counted), kPending while a live signaller has not signalled it, kEnded when no
  // one ever will.
  [[nodiscard]] WaitResult try_wait(Registration& r) noexcept {
    std::uint64_t seen;
    return try_wait(r, seen);
  }
  // Also gives the lowest live signal count it saw (for telemetry: the occupancy it observed).
  [[nodiscard]] WaitResult try_wait(Registration& r, std::uint64_t& seen_signalled) noexcept {
    seen_signalled = kNoLimit;
    if (!can_wait(r.mode)) return WaitResult::kReady;
    const std::uint64_t p = r.waits.load(std::memory_order_relaxed);
    const WaitResult state = phase_state(p, seen_signalled);
    if (state != WaitResult::kReady) return state;
    r.waits.store(p + 1, std::memory_order_seq_cst);
    wake_sleepers();
    return WaitResult::kReady;
  }

  // Deregisters: the task's counters become final and hold back no one. Idempotent.
  void drop(Registration& r) noexcept {
    {
      std::lock_guard<sched::SpinLock> lock(list_lock_);
      if (r.is_dropped()) return;
      // hi first, then the flag: a reader that sees the flag also sees this task's last phase.
      if (can_signal(r.mode)) raise(dropped_signals_hi_, r.signals.load(std::memory_order_relaxed));
      if (can_wait(r.mode)) waiter_dropped_.store(true, std::memory_order_seq_cst);
      r.dropped.store(true, std::memory_order_seq_cst);
      std::uint32_t first = first_live_.load(std::memory_order_relaxed);
      const std::uint32_t n = count_.load(std::memory_order_relaxed);
      while (first < n && regs_[first]->is_dropped()) ++first;
      first_live_.store(first, std::memory_order_seq_cst);
    }
    wake_sleepers();
  }

  // Signals without checking the bound again: the caller found bound_allows(its phase) true
  // (a stream checks before it fills the phase's slot, see stream.hpp). W only grows, so the check
  // still holds. Not for WAIT registrations.
  void commit_signal(Registration& r) noexcept {
    r.signals.store(r.signals.load(std::memory_order_relaxed) + 1, std::memory_order_seq_cst);
    wake_sleepers();
  }

  // Phase p's state as a waiter sees it now.
  WaitResult phase_state(std::uint64_t p) const noexcept {
    std::uint64_t lo;
    return phase_state(p, lo);
  }
  // Also gives the lowest live signal count it saw (kNoLimit when none is live).
  WaitResult phase_state(std::uint64_t p, std::uint64_t& lo) const noexcept {
    for (;;) {
      lo = kNoLimit;
      bool live_signaller = false;
      const std::uint32_t scanned = for_live([&](const Registration& r) {
        if (!can_signal(r.mode)) return;
        live_signaller = true;
        lo = std::min(lo, r.signalled());
      });
      if (live_signaller) return p < lo ? WaitResult::kReady : WaitResult::kPending;
      lo = dropped_signals_hi_.load(std::memory_order_seq_cst);
      if (stable(scanned)) return p < lo ? WaitResult::kReady : WaitResult::kEnded;
    }
  }

  // W: the lowest phase count among live waiters; kNoLimit once every waiter has dropped; 0
  // while none has registered (producers stop at the bound until a consumer arrives).
  std::uint64_t min_waited() const noexcept {
    for (;;) {
      std::uint64_t w = kNoLimit;
      bool live_waiter = false;
      const std::uint32_t scanned = for_live([&](const Registration& r) {
        if (!can_wait(r.mode)) return;
        live_waiter = true;
        w = std::min(w, r.waited());
      });
      if (live_waiter) return w;
      const bool dropped = waiter_dropped_.load(std::memory_order_seq_cst);
      if (stable(scanned)) return dropped ? kNoLimit : 0;
    }
  }
  // The lowest signal count among live signallers (kNoLimit when none is live).
  std::uint64_t min_signalled() const noexcept {
    std::uint64_t s = kNoLimit;
    for_live([&](const Registration& r) {
      if (can_signal(r.mode)) s = std::min(s, r.signalled());
    });
    return s;
  }
  // Whether a signal of phase q would pass the bound now.
  bool bound_allows(std::uint64_t q) const noexcept {
    const std::uint64_t w = min_waited();
    return w == kNoLimit || q < w + bound_;
  }
  bool can_signal_now(const Registration& r) const noexcept {
    return !can_signal(r.mode) || bound_allows(r.signals.load(std::memory_order_relaxed));
  }
  bool can_wait_now(const Registration& r) const noexcept {
    return !can_wait(r.mode) ||
           phase_state(r.waits.load(std::memory_order_relaxed)) != WaitResult::kPending;
  }

  // Parks `s` until the next change of any counter, registration or drop. The caller rechecks its
  // condition after this returns (and runs on if it now holds): see the Dekker note above.
  void sleep(Sleeper* s) {
    std::lock_guard<sched::SpinLock> lock(sleep_lock_);
    sleepers_.push_back(s);
    has_sleepers_.store(true, std::memory_order_seq_cst);
  }

  // Blocking forms for plain threads (tests, benchmarks): spin, yield, then short sleeps.
  void signal(Registration& r) noexcept {
    sched::Backoff backoff;
    while (!try_signal(r)) backoff.pause();
  }
  // False when the stream ended instead.
  bool wait(Registration& r) noexcept {
    sched::Backoff backoff;
    for (;;) {
      const WaitResult w = try_wait(r);
      if (w != WaitResult::kPending) return w == WaitResult::kReady;
      backoff.pause();
    }
  }
  bool next(Registration& r) noexcept {
    signal(r);
    return wait(r);
  }

  std::uint32_t bound() const noexcept { return bound_; }
  std::uint32_t id() const noexcept { return id_; }
  std::uint32_t registrations() const noexcept { return count_.load(std::memory_order_seq_cst); }
  // The i-th registration ever attached (i < registrations()).
  const Registration& registration(std::uint32_t i) const noexcept { return *regs_[i]; }

 private:
  static std::uint32_t validated_bound(std::uint32_t bound) {
    if (bound == 0 || bound > kMaxBound) {
      throw std::invalid_argument("phaser bound " + std::to_string(bound) +
                                  " is out of range (allowed 1.." + std::to_string(kMaxBound) +
                                  ")");
    }
    return bound;
  }
  static std::size_t validated_capacity(std::uint32_t n) {
    if (n == 0) throw std::invalid_argument("a phaser needs room for at least one registration");
    return n;
  }
  static void raise(std::atomic<std::uint64_t>& x, std::uint64_t v) noexcept {
    std::uint64_t cur = x.load(std::memory_order_seq_cst);
    while (cur < v && !x.compare_exchange_weak(cur, v, std::memory_order_seq_cst)) {
    }
  }

  // Calls f on each live registration; returns how many registrations it looked at.
  template <typename F>
  std::uint32_t for_live(F&& f) const noexcept {
    const std::uint32_t n = count_.load(std::memory_order_seq_cst);
    for (std::uint32_t i = first_live_.load(std::memory_order_seq_cst); i < n; ++i) {
      const Registration& r = *regs_[i];
      if (!r.is_dropped()) f(r);
    }
    return n;
  }
  // A scan that found no live registration of a kind holds only if none was attached meanwhile. A
  // child attaches (count_ grows) before its parent drops, so a scan that read the parent's drop
  // but took count_ before the child's attach saw nobody live although the child is: the sieve's
  // sink then read the primes stream as ended while a new tail held it (a quarter of native runs
  // lost the last primes). Both stores are seq_cst, so after reading the drop this load sees the
  // attach, and the caller scans again.
  bool stable(std::uint32_t scanned) const noexcept {
    return count_.load(std::memory_order_seq_cst) == scanned;
  }

  // wake() runs under the lock: it only queues the task (no phaser lock inside), and clearing in
  // place keeps the list's capacity, so a park/wake cycle allocates nothing.
  void wake_sleepers() noexcept {
    if (!has_sleepers_.load(std::memory_order_seq_cst)) return;
    std::lock_guard<sched::SpinLock> lock(sleep_lock_);
    has_sleepers_.store(false, std::memory_order_seq_cst);
    for (Sleeper* s : sleepers_) s->wake();
    sleepers_.clear();
  }

  std::vector<std::unique_ptr<Registration>> regs_;  // slots fixed at construction
  std::atomic<std::uint32_t> count_{0};
  std::atomic<std::uint32_t> first_live_{0};  // no live registration below this index
  std::atomic<std::uint64_t> dropped_signals_hi_{0};
  std::atomic<bool> waiter_dropped_{false};
  sched::SpinLock list_lock_;
  alignas(kCacheLineBytes) std::atomic<bool> has_sleepers_{false};
  sched::SpinLock sleep_lock_;
  std::vector<Sleeper*> sleepers_;
  std::uint32_t bound_;
  std::uint32_t id_;
};

}  // namespace pipelab::phaser
