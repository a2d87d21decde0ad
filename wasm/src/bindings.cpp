// The wasm boundary: the ONLY Emscripten-aware file of the app module. Plain C exports (typed by
// hand in src/engine/wasmExports.ts); every call that can fail returns 0 on success or -1 with the
// message available from pl_last_error(), because a C++ exception must not cross into JavaScript.
#include <emscripten/emscripten.h>

#include <exception>
#include <string>
#include <thread>

#include "pipelab/counting/counting_threads.hpp"
#include "pipelab/pipeline/runtime_kinds.hpp"
#include "pipelab/race/race_json.hpp"

namespace {

pipelab::counting::CountingThreads& counting() {
  static pipelab::counting::CountingThreads instance;  // constructed (and calibrated) on first use
  return instance;
}

// The pipeline run of a lesson: one at a time, kept after it ends so the page can read its last
// telemetry; replaced by the next pl_pipeline_create().
std::unique_ptr<pipelab::pipeline::Runtime>& pipeline() {
  static std::unique_ptr<pipelab::pipeline::Runtime> runtime;
  return runtime;
}

pipelab::pipeline::Runtime& active_pipeline() {
  if (!pipeline()) throw std::logic_error("no pipeline run: call pl_pipeline_create first");
  return *pipeline();
}

// The queue race of the lesson "Queues and cache lines": one run at a time, kept after it ends
// so the page can read its result; the engine worker sequences the runs.
pipelab::race::QueueRace& race() {
  static pipelab::race::QueueRace instance;
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

// Pipeline runs (lessons). Create parses the ExperimentSpec JSON (the page sends the normalised
// spec its validator returned; C++ checks what its runtimes need, naming the field) and builds the
// runtime its kind's row names (runtime_kinds.hpp), without starting it; start returns at once (the
// engine worker then returns to its event loop so extra pthread Workers can boot) and the caller
// polls finished().
EMSCRIPTEN_KEEPALIVE int pl_pipeline_create(const char* spec_json) {
  return guarded([&] {
    if (pipeline() && !pipeline()->finished())
      throw std::logic_error("a pipeline run is active: cancel it first");
    pipeline().reset();
    pipeline() =
        pipelab::pipeline::make_runtime(pipelab::pipeline::parse_experiment_spec(spec_json));
  });
}

EMSCRIPTEN_KEEPALIVE int pl_pipeline_start() {
  return guarded([] { active_pipeline().start(); });
}

EMSCRIPTEN_KEEPALIVE int pl_pipeline_finished() {
  return pipeline() && !pipeline()->finished() ? 0 : 1;
}

EMSCRIPTEN_KEEPALIVE void pl_pipeline_request_cancel() {
  if (pipeline()) pipeline()->request_cancel();
}

// Pause / resume (cooperative): workers park at their next item boundary. Both return at once;
// poll pl_pipeline_paused() for the acknowledgement (1 once every running worker has parked; the
// run clock, pl_pipeline_now_us(), stands still from then until resume). Cancel ends a paused run.
EMSCRIPTEN_KEEPALIVE void pl_pipeline_pause() {
  if (pipeline()) pipeline()->request_pause();
}

EMSCRIPTEN_KEEPALIVE void pl_pipeline_resume() {
  if (pipeline()) pipeline()->request_resume();
}

EMSCRIPTEN_KEEPALIVE int pl_pipeline_paused() { return pipeline() && pipeline()->paused() ? 1 : 0; }

// Call once pl_pipeline_finished() is 1: the joins then return at once.
EMSCRIPTEN_KEEPALIVE void pl_pipeline_join() {
  if (pipeline()) pipeline()->join();
}

EMSCRIPTEN_KEEPALIVE int pl_pipeline_workers() {
  return pipeline() ? static_cast<int>(pipeline()->telemetry().workers()) : 0;
}

EMSCRIPTEN_KEEPALIVE const void* pl_pipeline_ring(int worker) {
  auto& t = active_pipeline().telemetry();
  if (worker < 0 || static_cast<std::uint32_t>(worker) >= t.workers()) return nullptr;
  return t.ring(static_cast<std::uint32_t>(worker)).data();
}

EMSCRIPTEN_KEEPALIVE const void* pl_pipeline_counters() {
  return active_pipeline().telemetry().counters_data();
}

EMSCRIPTEN_KEEPALIVE double pl_pipeline_completed() {
  return pipeline() ? static_cast<double>(pipeline()->items_completed()) : 0;
}

// Phaser runs: the task and stream board (telemetry/phaser_board.hpp, contracts/telemetry.md),
// stable for the run; null for other runtimes.
EMSCRIPTEN_KEEPALIVE const void* pl_pipeline_board() {
  return pipeline() ? pipeline()->board_data() : nullptr;
}

// Why the last run stopped early (a phaser run that stalled: no task could ever run again), or
// "" when it did not; valid until the next call. Call once pl_pipeline_finished() is 1.
EMSCRIPTEN_KEEPALIVE const char* pl_pipeline_error() {
  static std::string message;
  message = pipeline() ? pipeline()->stop_reason() : std::string();
  return message.c_str();
}

// Run-clock µs (paused time excluded) from start until the last item left; 0 while running or
// when cancelled.
EMSCRIPTEN_KEEPALIVE double pl_pipeline_elapsed_us() {
  return pipeline() ? pipeline()->elapsed_us() : 0;
}

// What a finished two-stage run produced, as JSON text (valid until the next call; "null" for
// other runtimes or while running). Output: {"checksum": FNV-1a of the written text as 16 hex
// digits, "bytes", "batches"}; input: {"sum": the records' values summed, as 16 hex digits,
// "records", "bad", "misplaced"}. The page shows the output checksum beside the serial run's.
EMSCRIPTEN_KEEPALIVE const char* pl_pipeline_output() {
  static std::string result;
  result = pipeline() && pipeline()->finished() ? pipeline()->output_json() : "null";
  return result.c_str();
}

// The run clock: µs since start, paused time excluded.
EMSCRIPTEN_KEEPALIVE double pl_pipeline_now_us() {
  return pipeline() ? pipeline()->telemetry().now_us() : 0;
}

// The queue race (src/engine/race/wasmRace.ts drives these). Start parses the race config JSON
// (errors name the field: race/race_config.hpp), starts the run's threads and returns at once;
// the caller polls pl_race_alive() and joins when it is 0, then reads pl_race_result().
EMSCRIPTEN_KEEPALIVE int pl_race_start(const char* config_json) {
  return guarded([&] { race().start(pipelab::race::parse_race_config(config_json)); });
}

EMSCRIPTEN_KEEPALIVE void pl_race_request_cancel() { race().request_cancel(); }

EMSCRIPTEN_KEEPALIVE int pl_race_alive() { return static_cast<int>(race().alive()); }

// Call once pl_race_alive() is 0: the joins then return at once.
EMSCRIPTEN_KEEPALIVE void pl_race_join() { race().join(); }

// The joined run's result as JSON text (race_json.hpp), valid until the next call; null with
// pl_last_error() set when there is none.
EMSCRIPTEN_KEEPALIVE const char* pl_race_result() {
  static std::string text;
  const int status = guarded([] { text = to_json(race().result()); });
  return status == 0 ? text.c_str() : nullptr;
}

// Where the parts of a queue object sit (batch, batch-unpadded, lamport, lamport-unpadded) as
// JSON text, valid until the next call; null with pl_last_error() set for another name.
EMSCRIPTEN_KEEPALIVE const char* pl_queue_layout(const char* queue) {
  static std::string text;
  const int status = guarded([&] { text = pipelab::race::queue_layout_json(queue); });
  return status == 0 ? text.c_str() : nullptr;
}

}  // extern "C"
