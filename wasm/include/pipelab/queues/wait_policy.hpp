// Waiting policies for a thread whose try_push / try_pop failed, kept apart from the queues.
//
// A queue's try_* never blocks; a runtime picks how to wait between attempts:
//   SpinWait   busy-waits with the CPU's pause hint: lowest hand-off latency (~one cache-line
//              round trip), burns a core; right when every thread has its own core.
//   YieldWait  spins briefly, then yields the core: for more threads than cores, natively. In wasm
//              std::this_thread::yield() does not yield (Emscripten's sched_yield only runs queued
//              calls), so YieldWait degrades to spinning there: use ParkWait in wasm instead.
//   ParkWait   spins (4096 attempts by default, about what a sleep and wake-up cost), yields,
//              then sleeps 100 us doubling to 400 us (20 to 100 us in wasm, see below): idle
//              stages cost almost nothing, at the price of up to ~0.4 ms of wake-up delay. It needs
//              no notifier, so it works with every queue (a futex hand-off costs ~40-50 us here).
//              Its sleeps are sleep_us() (thread_sleep.hpp), a real blocking wait in wasm too,
//              where sleep_for busy-waits anything under 0.1 ms; they start at 100 us because
//              Linux's timer slack stretches shorter ones to ~55 us anyway. Pass a short spin when
//              threads outnumber cores.
// Each policy is a small value type: call wait() after a failed attempt, reset() after a success.
// push() / pop() below loop a queue's try_* with a policy; they return only on success.
//
// The success path is what a stream of items pays per item, so reset() writes nothing when the
// attempt did not wait, and ParkWait keeps its yield/sleep code out of line. In wasm this decided
// BatchQueue's 2-thread throughput under Node: the previous ParkWait (state stored by every
// reset(), sleep code inline) held the chain at ~70 M items/s, where a bare spin ran ~270 and this
// one ~150-230. The exact mechanism in V8's code is not pinned down (no CPU counters on our VM).
#pragma once

#include <cstdint>
#include <thread>

#include "pipelab/queues/thread_sleep.hpp"

namespace pipelab::queues {

// Tells the core we are spinning (saves power, frees the sibling hyper-thread); a no-op elsewhere.
inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

class SpinWait {
 public:
  void wait() noexcept { cpu_relax(); }
  void reset() noexcept {}
};

class YieldWait {
 public:
  static constexpr unsigned kSpins = 64;
  void wait() noexcept {
    if (attempts_ < kSpins) {
      ++attempts_;
      cpu_relax();
    } else {
      std::this_thread::yield();
    }
  }
  void reset() noexcept { attempts_ = 0; }

 private:
  unsigned attempts_ = 0;
};

class ParkWait {
 public:
  // The default spin suits threads that each have a core. When threads outnumber cores, pass a
  // short spin (e.g. 64): the thread we wait for can only run once we give the core up.
  static constexpr unsigned kDefaultSpins = 4096;
  static constexpr unsigned kYields = 64;
#if defined(__EMSCRIPTEN__)
  // wasm has no yield, so a waiting thread frees its core only by sleeping: shorter sleeps pass
  // a batch on sooner when threads outnumber cores (4 stages on 2 cores under Node: 3.7 M items/s
  // with 20..100 us, 1.45 with 100..400 us; native, whose yields work, ran 50).
  static constexpr std::uint32_t kMinSleepUs = 20;
  static constexpr std::uint32_t kMaxSleepUs = 100;
#else
  static constexpr std::uint32_t kMinSleepUs = 100;
  static constexpr std::uint32_t kMaxSleepUs = 400;
#endif

  explicit ParkWait(unsigned spins = kDefaultSpins) noexcept : spins_(spins) {}

  void wait() noexcept {
    if (attempts_ < spins_) {
      ++attempts_;
      cpu_relax();
      return;
    }
    wait_long();
  }
  void reset() noexcept {
    if (attempts_ != 0) attempts_ = 0;  // no store on the hot path: most attempts do not wait
  }

 private:
  // Out of line: callers inline wait() and reset() into their per-item loop, not this.
  [[gnu::noinline]] void wait_long() noexcept {
    const unsigned past_spins = attempts_ - spins_;
    if (attempts_ != ~0u) ++attempts_;
    if (past_spins < kYields) {
      std::this_thread::yield();
      return;
    }
    // kMinSleepUs doubling up to kMaxSleepUs (the count of attempts is the only state).
    const unsigned doublings = past_spins - kYields;
    const std::uint32_t us = doublings < 8 ? kMinSleepUs << doublings : kMaxSleepUs;
    sleep_us(us < kMaxSleepUs ? us : kMaxSleepUs);
  }

  unsigned spins_;
  unsigned attempts_ = 0;
};

// Pushes `item`, waiting with `policy` while the queue is full.
template <typename Queue, typename T, typename Policy>
void push(Queue& queue, const T& item, Policy& policy) noexcept {
  while (!queue.try_push(item)) policy.wait();
  policy.reset();
}

// Pops into `out`, waiting with `policy` while the queue is empty.
template <typename Queue, typename T, typename Policy>
void pop(Queue& queue, T& out, Policy& policy) noexcept {
  while (!queue.try_pop(out)) policy.wait();
  policy.reset();
}

}  // namespace pipelab::queues
