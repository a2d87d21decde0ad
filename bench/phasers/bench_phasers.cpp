// Phaser stream micro-benchmarks (npm run bench:phasers drives it), after seed 003's two:
//   push-pop     one producer thread puts 0, 1, 2, ... on a bounded phaser stream and one consumer
//                thread takes them (checked: every item once, in order), non-batched (batch 1)
//                and adaptive-batched (batch --batch, kept on because the cycle detector finds no
//                cycle in producer -> consumer), beside our BatchQueue moving the same items
//                between two threads (bench/queues/harness.hpp's comm chain, semi-buffer = one
//                phaser batch, so both publish every --batch items).
//   thread-ring  a ring of --ring-tasks tasks passing a token through the phaser runtime
//                (PhaserRuntime, the lesson's "ring" graph) on --threads pool threads, with batch
//                --batch requested under adaptive batching (cycle detection turns every ring
//                stream non-batched) and with batch 1; time per hop = run time over hops.
// Why push-pop drives the streams on plain threads, outside the runtime's task scheduler: a
//   StreamWriter/StreamReader pair needs only its two registrations (the native stream tests do
//   the same), and the paper's push/pop measures the stream's communication cost, which a
//   scheduler between the two ends would add to. The adaptive decision is the runtime's own: the
//   two registrations go through phaser::CycleDetector as PhaserRuntime::note_registration does.
//   The ring goes through the runtime: a cycle of tasks needs it (and its cycle detection).
// Every waiting thread (phaser ends and BatchQueue alike) waits with queues::ParkWait (spin, then
//   yield, then sleep), the queue bench's policy, so no contender waits differently.
// Each contender's item (hop) count doubles until a run lasts at least --min-ms (the shorter runs
// warm up); contenders run in the order given by --order (the driver rotates it between rounds).
// Prints one JSON line per timed run.
//   usage: bench_phasers --variant push-pop|thread-ring [--order a,b,c] [--min-ms N] [--batch B]
//                        [--bound K] [--ring-tasks N] [--threads T]
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "../queues/harness.hpp"
#include "pipelab/phaser/cycle_detection.hpp"
#include "pipelab/phaser/stream.hpp"
#include "pipelab/pipeline/phaser_graph/phaser_runtime.hpp"
#include "pipelab/pipeline/runtime_kinds.hpp"
#include "pipelab/queues/batch_queue.hpp"
#include "pipelab/queues/wait_policy.hpp"

namespace pipelab::bench {
namespace {

using phaser::Value;

struct Options {
  std::string variant;
  std::vector<std::string> order;
  double min_ms = 100;
  std::uint32_t batch = 4096;  // the spec's largest batch (contracts/spec-limits.json)
  std::uint32_t bound = 8;     // the paper's bound
  std::uint32_t ring_tasks = 8;
  std::uint32_t threads = 2;
};

[[noreturn]] void fail(const std::string& why) {
  std::fprintf(stderr, "bench_phasers: %s\n", why.c_str());
  std::exit(2);
}

// Seconds to move `items` from a producer thread to a consumer thread through a stream with the
// given batch; `batched` says whether the stream batched (after the cycle detector's decision).
double phaser_push_pop(std::uint32_t batch, std::uint32_t bound, std::uint64_t items,
                       bool& batched) {
  phaser::Stream s(0, bound, batch, phaser::Reduce::kAny, 0, 2);
  phaser::StreamWriter writer(s, s.attach(phaser::Mode::kSig, phaser::Mode::kSigWait, nullptr, 0));
  phaser::StreamReader reader(s, s.attach(phaser::Mode::kWait, phaser::Mode::kSigWait, nullptr, 1));
  phaser::CycleDetector cycles;  // adaptive batching: producer signals 0, consumer waits on 0
  for (const auto& found : {cycles.add_task({}, {0}), cycles.add_task({0}, {})})
    if (!found.empty()) s.set_batched(false);
  batched = s.batched();

  std::atomic<bool> go{false};
  std::uint64_t received = 0, out_of_order = 0;
  std::thread consumer([&] {
    queues::ParkWait policy(1u << 20);
    while (!go.load(std::memory_order_acquire)) queues::cpu_relax();
    Value v = 0;
    Item sum = 0;
    for (;;) {
      const phaser::WaitResult r = reader.try_next(v);
      if (r == phaser::WaitResult::kEnded) break;
      if (r == phaser::WaitResult::kPending) {
        policy.wait();
        continue;
      }
      policy.reset();
      out_of_order += Item(v) != received;
      sum += Item(v);
      ++received;
    }
    reader.drop();
    g_sink.fetch_add(sum, std::memory_order_relaxed);
  });
  queues::ParkWait policy(1u << 20);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));  // let the consumer reach the gate
  const auto start = Clock::now();
  go.store(true, std::memory_order_release);
  for (std::uint64_t i = 0; i < items; ++i) {
    if (writer.try_put(Value(i)) == phaser::PutResult::kDone) continue;
    while (!writer.try_publish()) policy.wait();  // the bound refused the full phase
    policy.reset();
  }
  while (!writer.try_publish()) policy.wait();  // the last partial batch
  writer.drop();
  consumer.join();
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (received != items || out_of_order != 0)
    fail("push-pop lost or reordered items: " + std::to_string(received) + " of " +
         std::to_string(items) + " received, " + std::to_string(out_of_order) + " out of order");
  return seconds;
}

double batch_queue_push_pop(std::uint32_t batch, std::uint64_t items) {
  return run_chain<queues::BatchQueue<Item>>(
      [batch] { return std::make_unique<queues::BatchQueue<Item>>(2 * std::size_t(batch)); }, 2,
      Variant::kComm, items);
}

// The lesson's ring graph (tests/native/phaser/phaser_runtime_test.cpp builds the same one).
pipeline::ExperimentSpec ring_spec(const Options& o, std::uint32_t batch, std::uint64_t hops) {
  std::string stages, streams;
  for (std::uint32_t i = 0; i < o.ring_tasks; ++i) {
    const std::string name = "r" + std::to_string(i);
    const std::string next = "r" + std::to_string((i + 1) % o.ring_tasks);
    stages += std::string(i ? "," : "") + R"({"name":")" + name +
              R"(","mode":"serial-in-order","threads":1,"service":{"kind":"fixed","us":0},"op":")" +
              (i == 0 ? "token" : "hop") + "\"}";
    streams += std::string(i ? "," : "") + R"({"from":[")" + name + R"("],"to":[")" + next +
               R"("],"reduce":"any"})";
  }
  return pipeline::parse_experiment_spec(
      R"({"runtime":"phaser","stages":[)" + stages + R"(],"streams":[)" + streams +
      R"(],"threads":)" + std::to_string(o.threads) + R"(,"bound":)" + std::to_string(o.bound) +
      R"(,"batch":)" + std::to_string(batch) + R"(,"batching":"adaptive","items":)" +
      std::to_string(hops) + R"(,"seed":1})");
}

// Seconds from start() until the last hop (the runtime's run clock), no telemetry.
double thread_ring(const Options& o, std::uint32_t batch, std::uint64_t hops,
                   std::uint32_t& cyclic) {
  pipeline::RunOptions options;
  options.telemetry = false;
  pipeline::PhaserRuntime rt(ring_spec(o, batch, hops), options);
  rt.run();
  if (rt.stalled()) fail("thread-ring stalled: " + rt.stall_message());
  if (rt.items_completed() != hops)
    fail("thread-ring passed " + std::to_string(rt.items_completed()) + " of " +
         std::to_string(hops) + " hops");
  cyclic = rt.cyclic_streams();
  return rt.elapsed_us() / 1e6;
}

// Doubles n from `start` until run(n) lasts at least min_ms; returns {n, seconds}.
template <typename Run>
std::pair<std::uint64_t, double> timed(Run run, std::uint64_t n, std::uint64_t max, double min_ms) {
  for (;;) {
    const double seconds = run(n);
    if (seconds * 1000 >= min_ms || n >= max) return {n, seconds};
    n *= 2;
  }
}

void push_pop(const std::string& mode, const Options& o) {
  bool batched = false;
  std::uint32_t batch = 1;
  std::pair<std::uint64_t, double> r;
  if (mode == "batch-queue") {
    batch = o.batch;
    batched = true;
    r = timed([&](std::uint64_t n) { return batch_queue_push_pop(o.batch, n); }, 1 << 16,
              std::uint64_t(1) << 34, o.min_ms);
  } else {
    batch = mode == "adaptive-batched" ? o.batch : 1;
    r = timed([&](std::uint64_t n) { return phaser_push_pop(batch, o.bound, n, batched); }, 1 << 16,
              std::uint64_t(1) << 34, o.min_ms);
  }
  std::printf(
      "{\"variant\": \"push-pop\", \"mode\": \"%s\", \"batch\": %u, \"bound\": %u, "
      "\"batched\": %s, \"threads\": 2, \"items\": %llu, \"seconds\": %.6f}\n",
      mode.c_str(), batch, mode == "batch-queue" ? 0u : o.bound, batched ? "true" : "false",
      static_cast<unsigned long long>(r.first), r.second);
}

void ring(const std::string& mode, const Options& o) {
  const std::uint32_t batch = mode == "adaptive-batched" ? o.batch : 1;
  std::uint32_t cyclic = 0;
  // The spec's item limit bounds the hops (contracts/spec-limits.json: items <= 1e8).
  const auto r = timed([&](std::uint64_t n) { return thread_ring(o, batch, n, cyclic); }, 1 << 12,
                       std::uint64_t(1) << 26, o.min_ms);
  std::printf(
      "{\"variant\": \"thread-ring\", \"mode\": \"%s\", \"batch\": %u, \"bound\": %u, "
      "\"tasks\": %u, \"threads\": %u, \"cyclic_streams\": %u, \"items\": %llu, "
      "\"seconds\": %.6f, \"us_per_hop\": %.6f}\n",
      mode.c_str(), batch, o.bound, o.ring_tasks, o.threads, cyclic,
      static_cast<unsigned long long>(r.first), r.second, r.second * 1e6 / double(r.first));
}

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  for (std::size_t at = 0; at <= list.size();) {
    const std::size_t comma = std::min(list.find(',', at), list.size());
    out.push_back(list.substr(at, comma - at));
    at = comma + 1;
  }
  return out;
}

std::uint32_t in_range(const std::string& flag, const char* value, std::uint32_t lo,
                       std::uint32_t hi) {
  const long v = std::strtol(value, nullptr, 10);
  if (v < long(lo) || v > long(hi))
    fail(flag + " " + value + " is out of range (allowed " + std::to_string(lo) + ".." +
         std::to_string(hi) + ")");
  return std::uint32_t(v);
}

}  // namespace
}  // namespace pipelab::bench

int main(int argc, char** argv) {
  using namespace pipelab::bench;
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const char* value = argv[i + 1];
    if (flag == "--variant")
      o.variant = value;
    else if (flag == "--order")
      o.order = split(value);
    else if (flag == "--min-ms")
      o.min_ms = in_range(flag, value, 1, 10000);
    else if (flag == "--batch")
      o.batch = in_range(flag, value, 2, 4096);
    else if (flag == "--bound")
      o.bound = in_range(flag, value, 1, 1024);
    else if (flag == "--ring-tasks")
      o.ring_tasks = in_range(flag, value, 2, 16);
    else if (flag == "--threads")
      o.threads = in_range(flag, value, 1, 64);
    else
      fail("unknown flag " + flag +
           " (allowed: --variant --order --min-ms --batch --bound --ring-tasks --threads)");
  }
  const bool ring_variant = o.variant == "thread-ring";
  if (!ring_variant && o.variant != "push-pop")
    fail("--variant '" + o.variant + "' is unknown (allowed push-pop, thread-ring)");
  if (o.order.empty()) {
    o.order = {"non-batched", "adaptive-batched"};
    if (!ring_variant) o.order.push_back("batch-queue");
  }
  for (const std::string& mode : o.order) {
    const bool known = mode == "non-batched" || mode == "adaptive-batched" ||
                       (!ring_variant && mode == "batch-queue");
    if (!known)
      fail("--order: mode '" + mode + "' is unknown for " + o.variant +
           " (allowed non-batched, adaptive-batched" + (ring_variant ? ")" : ", batch-queue)"));
    if (ring_variant)
      ring(mode, o);
    else
      push_pop(mode, o);
    std::fflush(stdout);
  }
  std::printf("{\"done\": true, \"sink\": %llu}\n", static_cast<unsigned long long>(g_sink.load()));
  return 0;
}
