// SpinLock: a test-and-test-and-set lock for critical sections of a few instructions (token
// admission, a serial stage's reorder buffer). Any thread may lock; the holder never blocks or
// runs user work inside. Acquire on lock, release on unlock. After a short spin it yields, so a
// preempted holder (oversubscription: more threads than cores) gets its core back.
#pragma once

#include <atomic>
#include <thread>

namespace pipelab::sched {

class SpinLock {
 public:
  void lock() noexcept {
    for (unsigned spins = 0;; ++spins) {
      if (!locked_.exchange(true, std::memory_order_acquire)) return;
      while (locked_.load(std::memory_order_relaxed)) {
        if (++spins > 64) std::this_thread::yield();
      }
    }
  }
  void unlock() noexcept { locked_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> locked_{false};
};

}  // namespace pipelab::sched
