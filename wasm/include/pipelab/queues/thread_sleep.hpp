// sleep_us(): a short sleep that hands the core to another thread, natively and in wasm.
//
// Natively it is std::this_thread::sleep_for (Linux's timer slack stretches it to >= ~55 us).
// In wasm, sleep_for is Emscripten's emscripten_thread_sleep, which (3.1.6, library_pthread.c)
// busy-waits any remainder under 0.1 ms: a 4-64 us "sleep" keeps the core, which starves the thread
// we wait for when threads outnumber cores. Instead we wait on a word nobody ever changes with a
// timeout: emscripten_futex_wait is Atomics.wait in a Worker, a real blocking wait in the kernel;
// on a thread that may not block (the browser's main thread) Emscripten itself falls back to a
// busy-wait. Single-threaded wasm builds keep sleep_for. The core headers still build without
// Emscripten: only this function knows about it.
#pragma once

#include <chrono>
#include <cstdint>
#include <thread>

#if defined(__EMSCRIPTEN__) && defined(__EMSCRIPTEN_PTHREADS__)
#include <emscripten/threading.h>
#endif

namespace pipelab::queues {

inline void sleep_us(std::uint32_t us) noexcept {
#if defined(__EMSCRIPTEN__) && defined(__EMSCRIPTEN_PTHREADS__)
  // Every thread waits on the same word: nobody notifies it, so each wait ends at its timeout.
  static std::uint32_t never_notified = 0;
  emscripten_futex_wait(&never_notified, 0, static_cast<double>(us) / 1000.0);
#else
  std::this_thread::sleep_for(std::chrono::microseconds(us));
#endif
}

}  // namespace pipelab::queues
