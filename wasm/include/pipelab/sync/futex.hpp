// futex_wait() / futex_wait_for() / futex_wake() / futex_wake_all(): sleep until a 32-bit atomic
// word changes (or a time limit passes), and wake its sleepers.
//
// The one place the blocking barrier (blocking_barrier.hpp), the two-stage output's writer and an
// idle work-stealing worker meet the operating system:
//   Linux          the futex system call (FUTEX_WAIT_PRIVATE / FUTEX_WAKE_PRIVATE on the word).
//   wasm threads   emscripten_futex_wait / emscripten_futex_wake: Atomics.wait / Atomics.notify on
//                  the shared memory, a real blocking wait inside a pthread Worker (on a thread
//                  that may not block, the browser's main thread, Emscripten busy-waits instead).
//   otherwise      (another OS, single-threaded wasm) a yield: callers loop until the word changes,
//                  so correctness never depends on really sleeping.
// Contract (as the Linux call's): futex_wait returns at once if the word no longer holds
// `expected` when it is called, and otherwise sleeps until a wake, or spuriously: callers always
// recheck their condition in a loop. A wake that comes before the waiter sleeps is not lost as long
// as the waker changed the word first (the kernel compares the word and sleeps atomically).
// Synchronisation is the word's own atomic operations (callers load it with acquire before
// deciding to wait): nothing is published through the system call, so ThreadSanitizer, which does
// not see futexes, still sees every happens-before edge.
#pragma once

#include <atomic>
#include <climits>
#include <cstdint>
#include <thread>

#if defined(__EMSCRIPTEN__) && defined(__EMSCRIPTEN_PTHREADS__)
#include <emscripten/threading.h>

#include <cmath>
#elif defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <ctime>
#endif

namespace pipelab::sync {

static_assert(sizeof(std::atomic<std::uint32_t>) == 4 &&
                  std::atomic<std::uint32_t>::is_always_lock_free,
              "a futex word is a plain lock-free 32-bit word");

// Sleeps while `word` holds `expected` (see the contract above).
inline void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected) noexcept {
#if defined(__EMSCRIPTEN__) && defined(__EMSCRIPTEN_PTHREADS__)
  emscripten_futex_wait(&word, expected, INFINITY);
#elif defined(__linux__)
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT_PRIVATE, expected, nullptr,
          nullptr, 0);
#else
  if (word.load(std::memory_order_acquire) == expected) std::this_thread::yield();
#endif
}

// futex_wait with a time limit: also returns after about `us` microseconds.
inline void futex_wait_for(std::atomic<std::uint32_t>& word, std::uint32_t expected,
                           std::uint32_t us) noexcept {
#if defined(__EMSCRIPTEN__) && defined(__EMSCRIPTEN_PTHREADS__)
  emscripten_futex_wait(&word, expected, static_cast<double>(us) / 1000.0);
#elif defined(__linux__)
  const timespec limit{static_cast<time_t>(us / 1000000), static_cast<long>(us % 1000000) * 1000};
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAIT_PRIVATE, expected, &limit,
          nullptr, 0);
#else
  if (word.load(std::memory_order_acquire) == expected) std::this_thread::yield();
  (void)us;
#endif
}

// Wakes up to `count` threads sleeping in futex_wait on `word`. Change the word before calling it.
inline void futex_wake(std::atomic<std::uint32_t>& word, int count) noexcept {
#if defined(__EMSCRIPTEN__) && defined(__EMSCRIPTEN_PTHREADS__)
  emscripten_futex_wake(&word, count);
#elif defined(__linux__)
  syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(&word), FUTEX_WAKE_PRIVATE, count, nullptr,
          nullptr, 0);
#else
  (void)word;
  (void)count;
#endif
}

// Wakes every thread sleeping in futex_wait on `word`. Change the word before calling it.
inline void futex_wake_all(std::atomic<std::uint32_t>& word) noexcept { futex_wake(word, INT_MAX); }

}  // namespace pipelab::sync
