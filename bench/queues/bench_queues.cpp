// Queue micro-benchmark CLI: one process measures every configuration once (after an in-process
// warm-up that also sizes the run, then the best of 3 timed runs) and prints one JSON object per
// line. bench/queues/run.mjs runs
// it natively, in wasm under Node and in Chromium, five processes each, and takes medians.
//   usage: bench_queues [--seconds S] [--only NAME]   (S: target time per timed run, default 0.25)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "harness.hpp"
#include "peer_queues.hpp"
#include "pipelab/queues/batch_queue.hpp"
#include "pipelab/queues/batch_queue_unpadded.hpp"
#include "pipelab/queues/cached_spsc_queue.hpp"
#include "pipelab/queues/lamport_queue.hpp"
#include "pipelab/queues/lamport_queue_unpadded.hpp"
#include "pipelab/queues/mutex_queue.hpp"
#include "pipelab/queues/vyukov_mpmc_queue.hpp"

namespace pipelab::bench {
namespace {

using namespace pipelab::queues;

constexpr std::size_t kCapacity = 1024;  // items in every queue of the main comparison
constexpr std::size_t kSemiItems = 512;  // BatchQueue semi-buffer = 64 lines of 8-byte items
constexpr std::uint64_t kWarmItems = 200'000;
constexpr int kTimedRuns = 3;
constexpr std::int64_t kLatencyGapNs = 200;  // offered rate 5 M items/s for the latency probe
constexpr std::uint64_t kLatencyItems = 100'000;

double g_target_seconds = 0.25;
const char* g_only = nullptr;

struct Config {
  const char* queue;
  Variant variant;
  int stages;
  std::size_t capacity;
  std::size_t batch;  // items per publication: semi-buffer or batch size; 1 for per-item queues
};

const char* variant_name(Variant variant) { return variant == Variant::kComm ? "comm" : "matrix"; }

template <typename Queue, typename Make>
void measure(const Config& config, Make make) {
  const double warm_seconds = run_chain<Queue>(make, config.stages, config.variant, kWarmItems);
  const double rate = static_cast<double>(kWarmItems) / warm_seconds;
  const auto items =
      static_cast<std::uint64_t>(std::clamp(rate * g_target_seconds, double(kWarmItems), 200e6));
  // Best of kTimedRuns: on a shared 2-core machine a run can lose whole time slices to other
  // processes; the fastest run is the one closest to what the queue itself costs.
  double seconds = 1e30;
  for (int run = 0; run < kTimedRuns; ++run) {
    seconds = std::min(seconds, run_chain<Queue>(make, config.stages, config.variant, items));
  }
  std::printf(
      "{\"queue\":\"%s\",\"variant\":\"%s\",\"stages\":%d,\"threads\":%d,\"capacity\":%zu,"
      "\"batch\":%zu,\"items\":%llu,\"seconds\":%.6f,\"items_per_s\":%.1f,\"bytes_per_s\":%.1f,"
      "\"timed_runs\":%d}\n",
      config.queue, variant_name(config.variant), config.stages, config.stages, config.capacity,
      config.batch, static_cast<unsigned long long>(items), seconds, items / seconds,
      items * sizeof(Item) / seconds, kTimedRuns);
  std::fflush(stdout);
}

template <typename Queue>
void measure_simple(const Config& config) {
  measure<Queue>(config, [&] { return std::make_unique<Queue>(config.capacity); });
}

void run(const Config& c) {
  const std::string name = c.queue;
  if (g_only && name != g_only) return;
  if (name == "batch") return measure_simple<BatchQueue<Item>>(c);
  if (name == "batch-unpadded") return measure_simple<UnpaddedBatchQueue<Item>>(c);
  if (name == "lamport") return measure_simple<LamportQueue<Item>>(c);
  if (name == "lamport-unpadded") return measure_simple<UnpaddedLamportQueue<Item>>(c);
  if (name == "cached-spsc") return measure_simple<CachedSpscQueue<Item>>(c);
  if (name == "cached-spsc-batched") {
    return measure<CachedSpscQueue<Item>>(
        c, [&] { return std::make_unique<CachedSpscQueue<Item>>(c.capacity, c.batch); });
  }
  if (name == "mutex") return measure_simple<MutexQueue<Item>>(c);
  if (name == "vyukov-mpmc") return measure_simple<VyukovMpmcQueue<Item>>(c);
  if (name == "moodycamel-rwq") return measure_simple<MoodycamelQueue<Item>>(c);
  if (name == "boost-spsc") return measure_simple<BoostSpscQueue<Item>>(c);
  std::fprintf(stderr, "unknown queue %s\n", c.queue);
  std::exit(2);
}

template <typename Queue>
void latency_row(const char* name, std::size_t capacity, std::size_t batch) {
  if (g_only && std::strcmp(name, g_only) != 0) return;
  Queue warm(capacity);
  (void)measure_latency(warm, kLatencyItems / 10, kLatencyGapNs);
  Queue queue(capacity);
  const Latency latency = measure_latency(queue, kLatencyItems, kLatencyGapNs);
  std::printf(
      "{\"queue\":\"%s\",\"variant\":\"latency\",\"stages\":2,\"threads\":2,\"capacity\":%zu,"
      "\"batch\":%zu,\"items\":%llu,\"items_per_s\":%.1f,\"latency_ns_median\":%.0f,"
      "\"latency_ns_p99\":%.0f}\n",
      name, capacity, batch, static_cast<unsigned long long>(kLatencyItems), 1e9 / kLatencyGapNs,
      latency.median_ns, latency.p99_ns);
  std::fflush(stdout);
}

constexpr const char* kAllQueues[] = {
    "batch",          "batch-unpadded",      "lamport", "lamport-unpadded",
    "cached-spsc",    "cached-spsc-batched", "mutex",   "vyukov-mpmc",
    "moodycamel-rwq", "boost-spsc"};

std::size_t batch_of(const char* queue) {
  const std::string name = queue;
  return name == "batch" || name == "batch-unpadded" || name == "cached-spsc-batched" ? kSemiItems
                                                                                      : 1;
}

void run_all() {
  for (Variant variant : {Variant::kComm, Variant::kMatrix}) {
    for (int stages : {2, 4}) {
      for (const char* queue : kAllQueues)
        run({queue, variant, stages, kCapacity, batch_of(queue)});
    }
  }
  // Throughput and latency against the semi-buffer size (1 to 64 lines of 8 items).
  for (std::size_t lines : {1, 2, 4, 8, 16, 64}) {
    const std::size_t capacity = BatchQueue<Item>::capacity_for_lines(lines);
    if (lines != 64) run({"batch", Variant::kComm, 2, capacity, capacity / 2});
    if (lines != 64) run({"batch-unpadded", Variant::kComm, 2, capacity, capacity / 2});
    latency_row<BatchQueue<Item>>("batch", capacity, capacity / 2);
  }
  latency_row<CachedSpscQueue<Item>>("cached-spsc", kCapacity, 1);
  latency_row<LamportQueue<Item>>("lamport", kCapacity, 1);
}

}  // namespace
}  // namespace pipelab::bench

int main(int argc, char** argv) {
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--seconds") == 0) {
      pipelab::bench::g_target_seconds = std::atof(argv[i + 1]);
    } else if (std::strcmp(argv[i], "--only") == 0) {
      pipelab::bench::g_only = argv[i + 1];
    } else {
      std::fprintf(stderr, "usage: bench_queues [--seconds S] [--only QUEUE]\n");
      return 2;
    }
  }
  pipelab::bench::run_all();
  std::printf("{\"done\":true,\"sink\":%llu}\n",
              static_cast<unsigned long long>(pipelab::bench::g_sink.load()));
  return 0;
}
