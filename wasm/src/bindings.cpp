// The wasm boundary: the ONLY Emscripten-aware file of the app module. Plain C exports (typed by
// hand in src/engine/wasmExports.ts); every call that can fail returns 0 on success or -1 with the
// message available from pl_last_error(), because a C++ exception must not cross into JavaScript.
#include <emscripten/emscripten.h>

#include <exception>
#include <string>
#include <thread>

#include "pipelab/counting/counting_threads.hpp"

namespace {

pipelab::counting::CountingThreads& counting() {
  static pipelab::counting::CountingThreads instance;  // constructed (and calibrated) on first use
  return instance;
}

std::string& last_error() {
  static std::string message;
  return message;
}

template <typename F>
int guarded(F&& f) {
  try {
    f();
    return 0;
  } catch (const std::exception& e) {
    last_error() = e.what();
    return -1;
  }
}

pipelab::counting::Layout layout_of(int padded) {
  return padded ? pipelab::counting::Layout::kPadded : pipelab::counting::Layout::kPacked;
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE const char* pl_last_error() { return last_error().c_str(); }

// 1 when built with pthreads (the threads engine), 0 for the single-threaded fallback.
EMSCRIPTEN_KEEPALIVE int pl_threaded() {
#ifdef __EMSCRIPTEN_PTHREADS__
  return 1;
#else
  return 0;
#endif
}

EMSCRIPTEN_KEEPALIVE int pl_hardware_concurrency() {
  return static_cast<int>(std::thread::hardware_concurrency());
}

EMSCRIPTEN_KEEPALIVE int pl_counting_max_threads() {
  return static_cast<int>(pipelab::counting::kMaxThreads);
}

EMSCRIPTEN_KEEPALIVE int pl_counting_start(int threads, int padded, double work_us) {
  return guarded([&] { counting().start(threads, layout_of(padded), work_us); });
}

EMSCRIPTEN_KEEPALIVE void pl_counting_request_stop() { counting().request_stop(); }

EMSCRIPTEN_KEEPALIVE int pl_counting_alive() { return static_cast<int>(counting().alive()); }

// Call once pl_counting_alive() is 0: the joins then return at once.
EMSCRIPTEN_KEEPALIVE void pl_counting_join() { counting().join(); }

EMSCRIPTEN_KEEPALIVE int pl_counting_run_slice(int threads, int padded, double work_us,
                                               double slice_us) {
  return guarded([&] { counting().run_slice(threads, layout_of(padded), work_us, slice_us); });
}

EMSCRIPTEN_KEEPALIVE const void* pl_counting_slots() { return counting().slots_base(); }
EMSCRIPTEN_KEEPALIVE int pl_counting_stride_bytes() {
  return static_cast<int>(counting().stride_bytes());
}
EMSCRIPTEN_KEEPALIVE double pl_counting_iterations_per_us() {
  return counting().busy_work().iterations_per_us();
}

}  // extern "C"
