// Waiting policies for a thread whose try_push / try_pop failed, kept apart from the queues.
//
// A queue's try_* never blocks; a runtime picks how to wait between attempts:
//   SpinWait   busy-waits with the CPU's pause hint: lowest hand-off latency (~one cache-line
//              round trip), burns a core; right when every thread has its own core.
//   YieldWait  spins briefly, then yields the core: for more threads than cores, natively. In wasm
//              std::this_thread::yield() does not yield (Emscripten's sched_yield only runs queued
//              calls), so YieldWait degrades to spinning there: use ParkWait in wasm instead.
//   ParkWait   spins (4096 pauses by default, about what a sleep and wake-up cost), yields,
//              then sleeps 100 us doubling to 400 us: idle stages cost almost nothing, at the
//              price of up to ~0.4 ms of wake-up delay. It needs no notifier, so it works with
//              every queue (a futex hand-off costs ~40-50 us here). Sleeps start at 100 us because
//              shorter ones do not give the core away: Emscripten (3.1.6) busy-waits any sleep
//              under 0.1 ms, and Linux's timer slack stretches a 1 us sleep to ~55 us anyway.
//              Pass a short spin when threads outnumber cores.
// Each policy is a small value type: call wait() after a failed attempt, reset() after a success.
// push() / pop() below loop a queue's try_* with a policy; they return only on success.
#pragma once

#include <chrono>
#include <thread>

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
  static constexpr std::chrono::microseconds kMinSleep{100};
  static constexpr std::chrono::microseconds kMaxSleep{400};

  explicit ParkWait(unsigned spins = kDefaultSpins) noexcept : spins_(spins) {}

  void wait() noexcept {
    if (attempts_ < spins_) {
      cpu_relax();
    } else if (attempts_ < spins_ + kYields) {
      std::this_thread::yield();
    } else {
      std::this_thread::sleep_for(sleep_);
      if (sleep_ < kMaxSleep) sleep_ *= 2;
    }
    ++attempts_;
  }
  void reset() noexcept {
    attempts_ = 0;
    sleep_ = kMinSleep;
  }

 private:
  unsigned spins_;
  unsigned attempts_ = 0;
  std::chrono::microseconds sleep_ = kMinSleep;
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
