// Test-only wasm module for tests/wasm/telemetry-layout.test.ts: C++ writes telemetry with the
// real headers (rings, counters, a real work-stealing run on pthreads) and the TypeScript decoder
// reads it back from wasm memory. Exposes plain C functions; no Emscripten headers needed.
#include <cstdint>
#include <memory>
#include <thread>

#include "pipelab/pipeline/work_stealing_runtime.hpp"
#include "pipelab/telemetry/run_telemetry.hpp"

namespace {
using pipelab::telemetry::Event;
using pipelab::telemetry::EventKind;
using pipelab::telemetry::Ring;

std::unique_ptr<Ring> g_ring;
std::thread g_writer;
std::atomic<int> g_writer_done{0};
std::unique_ptr<pipelab::telemetry::RunTelemetry> g_counters;
std::unique_ptr<pipelab::pipeline::WorkStealingRuntime> g_run;
}  // namespace

extern "C" {

// One ring at a time; returns the address of its header.
std::uintptr_t pl_tl_ring_create(std::uint32_t capacity, std::uint32_t worker) {
  g_ring = std::make_unique<Ring>(capacity, worker);
  return reinterpret_cast<std::uintptr_t>(g_ring->data());
}

int pl_tl_ring_push(double time_us, std::uint32_t item, std::uint32_t arg, std::uint32_t worker,
                    std::uint32_t stage, std::uint32_t kind) {
  return g_ring->push(
      Event{time_us, item, arg, std::uint16_t(worker), std::uint8_t(stage), EventKind(kind), 0});
}

// The arg of a batch-* event as the C++ packs it (telemetry::batch_arg).
std::uint32_t pl_tl_batch_arg(std::uint32_t half, std::uint32_t count, int flush) {
  return pipelab::telemetry::batch_arg(half, count, flush != 0);
}

// The contract's kinds as C++ names them: the name of kind code k ("" past the last kind).
const char* pl_tl_kind_name(std::uint32_t k) {
  return k < pipelab::telemetry::kEventKindCount ? to_string(EventKind(k)) : "";
}

// Starts a pthread that pushes `count` events (item i, kind i % kEventKindCount: every kind) as
// fast as it can, and returns.
void pl_tl_writer_start(std::uint32_t count) {
  g_writer_done.store(0, std::memory_order_relaxed);
  g_writer = std::thread([count] {
    for (std::uint32_t i = 0; i < count; ++i) {
      g_ring->push(Event{i * 0.5, i, i * 3, 1, std::uint8_t(i % 7),
                         EventKind(i % pipelab::telemetry::kEventKindCount), 0});
    }
    g_writer_done.store(1, std::memory_order_release);
  });
}
int pl_tl_writer_done() { return g_writer_done.load(std::memory_order_acquire); }
void pl_tl_writer_join() { g_writer.join(); }

// Counter lines for `stages` stages; field i of stage s is set to (s + 1) * 1000 + i.
std::uintptr_t pl_tl_counters_create(std::uint32_t stages) {
  g_counters = std::make_unique<pipelab::telemetry::RunTelemetry>(1, stages, 16, true);
  for (std::uint32_t s = 0; s < stages; ++s) {
    auto& c = g_counters->counters(s);
    std::uint64_t v = (s + 1) * 1000;
    for (auto* f :
         {&c.items_in, &c.items_out, &c.queue_occupancy, &c.busy_us, &c.idle_us, &c.blocked_us}) {
      f->store(v++, std::memory_order_relaxed);
    }
  }
  return reinterpret_cast<std::uintptr_t>(g_counters->counters_data());
}

// A real work-stealing run (3 stages, 10 µs each), started without blocking.
int pl_tl_pipeline_start(std::uint32_t items, std::uint32_t threads) {
  using namespace pipelab::pipeline;
  ExperimentSpec s;
  s.runtime = RuntimeKind::kWorkStealing;
  s.stages = {StageSpec{"in", StageMode::kSerialInOrder, 1, ServiceSpec::fixed(10)},
              StageSpec{"work", StageMode::kParallel, 1, ServiceSpec::fixed(10)},
              StageSpec{"out", StageMode::kSerialInOrder, 1, ServiceSpec::fixed(10)}};
  s.items = items;
  s.threads = threads;
  s.tokens = threads * 2;
  RunOptions o;
  o.ring_capacity = 8192;  // holds the whole run: the test checks nothing was dropped
  g_run = std::make_unique<WorkStealingRuntime>(s, o);
  g_run->start();
  return 0;
}
int pl_tl_pipeline_finished() { return g_run->finished() ? 1 : 0; }
void pl_tl_pipeline_join() { g_run->join(); }
std::uintptr_t pl_tl_pipeline_ring(std::uint32_t worker) {
  return reinterpret_cast<std::uintptr_t>(g_run->telemetry().ring(worker).data());
}
std::uintptr_t pl_tl_pipeline_counters() {
  return reinterpret_cast<std::uintptr_t>(g_run->telemetry().counters_data());
}
}
