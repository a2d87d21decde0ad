// Queue micro-benchmark CLI: one process measures one group of contenders (or every group) and
// prints one JSON line per timed run, keyed "<group>/<contender>". Method (bench/lib/rounds.mjs
// runs one process per target, group and round): each contender gets a warm-up run, then a run
// that sizes its timed runs to --seconds; a timed run under 100 ms is run again with twice the
// items, so no figure rests on a short run. Then --runs timed runs of every contender, in an
// order rotated by --rotate (and by one more each run), so no contender always runs first.
//   usage: bench_queues [--group NAME] [--rotate K] [--runs N] [--seconds S] [--list-groups]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "harness.hpp"
#include "peer_queues.hpp"
#include "pipelab/queues/batch_queue.hpp"
#include "pipelab/queues/batch_queue_unpadded.hpp"
#include "pipelab/queues/cached_spsc_queue.hpp"
#include "pipelab/queues/fastforward_queue.hpp"
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
constexpr std::uint64_t kMaxItems = 400'000'000;
constexpr double kMinSeconds = 0.1;               // no timed run shorter than this is reported
constexpr std::int64_t kLatencyGapNs = 200;       // offered rate 5 M items/s for the latency probe
constexpr std::uint64_t kLatencyItems = 600'000;  // 120 ms at the offered rate

struct Options {
  double target_seconds = 0.15;
  std::string group;  // empty: every group
  int rotate = 0;
  int runs = 1;
};

struct Config {
  const char* queue;
  Variant variant;
  int stages;
  std::size_t capacity;
  std::size_t batch;  // items per publication: semi-buffer or batch size; 1 for per-item queues
};

// One measurement of a group: `run(items)` moves items through the chain and returns seconds.
struct Contender {
  std::string name;  // the key's part after the group
  Config config;
  std::function<double(std::uint64_t)> run;
  std::uint64_t items = 0;
};

const char* variant_name(Variant variant) { return variant == Variant::kComm ? "comm" : "matrix"; }

template <typename Queue, typename Make>
Contender make(std::string name, const Config& c, Make make_queue) {
  return {std::move(name), c,
          [c, make_queue](std::uint64_t items) {
            return run_chain<Queue>(make_queue, c.stages, c.variant, items);
          },
          0};
}

template <typename Queue>
Contender simple(std::string name, const Config& c) {
  return make<Queue>(std::move(name), c, [c] { return std::make_unique<Queue>(c.capacity); });
}

Contender contender(std::string name, const Config& c) {
  const std::string queue = c.queue;
  if (queue == "batch") return simple<BatchQueue<Item>>(name, c);
  if (queue == "batch-unpadded") return simple<UnpaddedBatchQueue<Item>>(name, c);
  if (queue == "lamport") return simple<LamportQueue<Item>>(name, c);
  if (queue == "lamport-unpadded") return simple<UnpaddedLamportQueue<Item>>(name, c);
  if (queue == "cached-spsc") return simple<CachedSpscQueue<Item>>(name, c);
  if (queue == "cached-spsc-batched") {
    return make<CachedSpscQueue<Item>>(
        name, c, [c] { return std::make_unique<CachedSpscQueue<Item>>(c.capacity, c.batch); });
  }
  if (queue == "mutex") return simple<MutexQueue<Item>>(name, c);
  if (queue == "vyukov-mpmc") return simple<VyukovMpmcQueue<Item>>(name, c);
  if (queue == "moodycamel-rwq") return simple<MoodycamelQueue<Item>>(name, c);
  if (queue == "boost-spsc") return simple<BoostSpscQueue<Item>>(name, c);
  if (queue == "fastforward") return simple<FastForwardQueue<Item>>(name, c);
  std::fprintf(stderr, "bench_queues: unknown queue %s\n", c.queue);
  std::exit(2);
}

constexpr const char* kAllQueues[] = {
    "batch",          "batch-unpadded",      "lamport",    "lamport-unpadded",
    "cached-spsc",    "cached-spsc-batched", "mutex",      "vyukov-mpmc",
    "moodycamel-rwq", "boost-spsc",          "fastforward"};
// One thread alone (the floor group): our queues and the fastest peer, per-item calls.
constexpr const char* kFloorQueues[] = {"batch",       "cached-spsc",    "lamport",
                                        "vyukov-mpmc", "moodycamel-rwq", "fastforward"};
constexpr std::size_t kSemiLines[] = {1, 2, 4, 8, 16, 64};  // semi-buffer sizes in cache lines

std::size_t batch_of(const std::string& queue) {
  return queue == "batch" || queue == "batch-unpadded" || queue == "cached-spsc-batched"
             ? kSemiItems
             : 1;
}

// The throughput groups: every queue at capacity 1024 (comm/matrix x 2/4 stages), and BatchQueue
// padded and unpadded against its semi-buffer size.
template <typename Queue>
Contender floor_contender(const char* queue) {
  return {std::string(queue),
          {queue, Variant::kComm, 1, kCapacity, batch_of(queue)},
          [](std::uint64_t items) {
            Queue q(kCapacity);
            return run_floor(q, kSemiItems, items);
          },
          0};
}

Contender floor_of(const std::string& queue) {
  if (queue == "batch") return floor_contender<BatchQueue<Item>>("batch");
  if (queue == "cached-spsc") return floor_contender<CachedSpscQueue<Item>>("cached-spsc");
  if (queue == "lamport") return floor_contender<LamportQueue<Item>>("lamport");
  if (queue == "vyukov-mpmc") return floor_contender<VyukovMpmcQueue<Item>>("vyukov-mpmc");
  if (queue == "moodycamel-rwq") return floor_contender<MoodycamelQueue<Item>>("moodycamel-rwq");
  return floor_contender<FastForwardQueue<Item>>("fastforward");
}

// Extra JSON fields of the next printed row (the costs group's wait counts), then cleared.
std::string g_row_extra;

template <typename Queue, typename Wait>
Contender pair_contender(std::string name, const char* queue, Wait wait) {
  return {std::move(name),
          {queue, Variant::kComm, 2, kCapacity, batch_of(queue)},
          [wait](std::uint64_t items) {
            Queue q(kCapacity);
            const PairRun r = run_pair(q, items, wait);
            char extra[96];
            std::snprintf(extra, sizeof extra,
                          ",\"producer_waits_per_item\":%.4f,\"consumer_waits_per_item\":%.4f",
                          double(r.producer_waits) / items, double(r.consumer_waits) / items);
            g_row_extra = extra;
            return r.seconds;
          },
          0};
}

Contender op_contender(std::string name, int threads, double (*run)(std::uint64_t)) {
  return {std::move(name), {"status-flag", Variant::kComm, threads, 1, 1}, run, 0};
}

std::vector<Contender> costs_contenders() {
  using B = BatchQueue<Item>;
  const ParkWait park(1u << 20);
  return {
      contender("batch-chain", {"batch", Variant::kComm, 2, kCapacity, kSemiItems}),
      pair_contender<B>("batch-park", "batch", park),
      pair_contender<B>("batch-spin", "batch", SpinWait{}),
      pair_contender<BasicBatchQueue<Item, kPrefetchPairBytes, kTouchOnTake>>("batch-touch-read",
                                                                              "batch", park),
      pair_contender<BasicBatchQueue<Item, kPrefetchPairBytes, kTouchOnRefill>>("batch-touch-write",
                                                                                "batch", park),
      pair_contender<BasicBatchQueue<Item, kPrefetchPairBytes, kTouchOnTake | kTouchOnRefill>>(
          "batch-touch-both", "batch", park),
      pair_contender<VyukovMpmcQueue<Item>>("vyukov-mpmc-park", "vyukov-mpmc", park),
      pair_contender<VyukovMpmcQueue<Item>>("vyukov-mpmc-spin", "vyukov-mpmc", SpinWait{}),
      op_contender("flip-release", 2, run_flips<std::memory_order_release>),
      op_contender("flip-seq-cst", 2, run_flips<std::memory_order_seq_cst>),
      op_contender("store-release", 1, run_stores<std::memory_order_release>),
      op_contender("store-seq-cst", 1, run_stores<std::memory_order_seq_cst>),
  };
}

std::vector<Contender> group_contenders(const std::string& group) {
  std::vector<Contender> out;
  if (group == "costs") return costs_contenders();
  if (group == "floor") {
    for (const char* queue : kFloorQueues) out.push_back(floor_of(queue));
    return out;
  }
  if (group == "comm-2") {
    // BatchQueue moving whole batches per call, as ringbuf.js does (its rows: ringbuf-js-b512).
    out.push_back({"batch-b512",
                   {"batch", Variant::kComm, 2, kCapacity, kSemiItems},
                   [](std::uint64_t items) {
                     BatchQueue<Item> q(kCapacity);
                     return run_bulk_pair(q, kSemiItems, items);
                   },
                   0});
  }
  for (Variant variant : {Variant::kComm, Variant::kMatrix}) {
    for (int stages : {2, 4}) {
      if (group != std::string(variant_name(variant)) + "-" + std::to_string(stages)) continue;
      for (const char* queue : kAllQueues)
        out.push_back(contender(queue, {queue, variant, stages, kCapacity, batch_of(queue)}));
    }
  }
  if (group == "semi-sweep") {
    for (std::size_t lines : kSemiLines) {
      const std::size_t capacity = BatchQueue<Item>::capacity_for_lines(lines);
      const std::string semi = "-semi" + std::to_string(capacity / 2);
      for (const char* queue : {"batch", "batch-unpadded"})
        out.push_back(contender(queue + semi, {queue, Variant::kComm, 2, capacity, capacity / 2}));
    }
  }
  return out;
}

std::uint64_t items_for(double items_per_s, double seconds) {
  return static_cast<std::uint64_t>(
      std::clamp(items_per_s * seconds, double(kWarmItems), double(kMaxItems)));
}

// Warm-up (thread start, wasm tier-up, caches), then one warm run that sizes the timed runs.
void size(Contender& c, double target_seconds) {
  const double warm = c.run(kWarmItems);
  c.items = items_for(kWarmItems / warm, target_seconds);
  const double sizing = c.run(c.items);
  c.items = items_for(c.items / sizing, target_seconds);
}

// A timed run of at least kMinSeconds (a shorter one is run again with twice the items).
double timed(Contender& c) {
  g_row_extra.clear();  // only the timed run's own fields
  double seconds = c.run(c.items);
  while (seconds < kMinSeconds && c.items < kMaxItems) {
    c.items = std::min(kMaxItems, c.items * 2);
    seconds = c.run(c.items);
  }
  return seconds;
}

void print_sample(const std::string& group, const Contender& c, double seconds) {
  const Config& k = c.config;
  std::printf(
      "{\"key\":\"%s/%s\",\"group\":\"%s\",\"queue\":\"%s\",\"variant\":\"%s\",\"stages\":%d,"
      "\"threads\":%d,\"capacity\":%zu,\"batch\":%zu,\"items\":%llu,\"seconds\":%.6f,"
      "\"items_per_s\":%.1f,\"bytes_per_s\":%.1f%s}\n",
      group.c_str(), c.name.c_str(), group.c_str(), k.queue, variant_name(k.variant), k.stages,
      k.stages, k.capacity, k.batch, static_cast<unsigned long long>(c.items), seconds,
      c.items / seconds, c.items * sizeof(Item) / seconds, g_row_extra.c_str());
  g_row_extra.clear();
  std::fflush(stdout);
}

template <typename T>
std::vector<T*> rotated(std::vector<T>& list, int k) {
  std::vector<T*> out;
  const int n = static_cast<int>(list.size());
  for (int i = 0; i < n; ++i) out.push_back(&list[static_cast<std::size_t>(((i + k) % n + n) % n)]);
  return out;
}

void run_throughput(const std::string& group, const Options& o) {
  std::vector<Contender> contenders = group_contenders(group);
  for (Contender* c : rotated(contenders, o.rotate)) size(*c, o.target_seconds);
  for (int run = 0; run < o.runs; ++run) {
    for (Contender* c : rotated(contenders, o.rotate + run)) print_sample(group, *c, timed(*c));
  }
}

// Push-to-pop latency at an offered 5 M items/s without flushing, after a short warm-up probe.
struct LatencyContender {
  std::string name;
  const char* queue;
  std::size_t capacity;
  std::size_t batch;
  std::function<Latency(std::uint64_t)> probe;
};

template <typename Queue>
LatencyContender latency(std::string name, const char* queue, std::size_t capacity,
                         std::size_t batch) {
  return {std::move(name), queue, capacity, batch, [capacity](std::uint64_t items) {
            Queue q(capacity);
            return measure_latency(q, items, kLatencyGapNs);
          }};
}

void run_latency(const Options& o) {
  std::vector<LatencyContender> contenders;
  for (std::size_t lines : kSemiLines) {
    const std::size_t capacity = BatchQueue<Item>::capacity_for_lines(lines);
    contenders.push_back(latency<BatchQueue<Item>>("batch-semi" + std::to_string(capacity / 2),
                                                   "batch", capacity, capacity / 2));
  }
  contenders.push_back(latency<CachedSpscQueue<Item>>("cached-spsc", "cached-spsc", kCapacity, 1));
  contenders.push_back(latency<LamportQueue<Item>>("lamport", "lamport", kCapacity, 1));
  for (LatencyContender* c : rotated(contenders, o.rotate)) (void)c->probe(kLatencyItems / 10);
  for (int run = 0; run < o.runs; ++run) {
    for (LatencyContender* c : rotated(contenders, o.rotate + run)) {
      const Latency l = c->probe(kLatencyItems);
      std::printf(
          "{\"key\":\"latency/%s\",\"group\":\"latency\",\"queue\":\"%s\",\"variant\":\"latency\","
          "\"stages\":2,\"threads\":2,\"capacity\":%zu,\"batch\":%zu,\"items\":%llu,"
          "\"seconds\":%.6f,\"items_per_s\":%.1f,\"offered_items_per_s\":%.1f,"
          "\"latency_ns_median\":%.0f,\"latency_ns_p99\":%.0f}\n",
          c->name.c_str(), c->queue, c->capacity, c->batch,
          static_cast<unsigned long long>(kLatencyItems), kLatencyItems * kLatencyGapNs * 1e-9,
          1e9 / kLatencyGapNs, 1e9 / kLatencyGapNs, l.median_ns, l.p99_ns);
      std::fflush(stdout);
    }
  }
}

constexpr const char* kGroups[] = {"comm-2",     "comm-4",  "matrix-2", "matrix-4",
                                   "semi-sweep", "latency", "floor",    "costs"};

void run_group(const std::string& group, const Options& o) {
  if (group == "latency") return run_latency(o);
  run_throughput(group, o);
}

[[noreturn]] void usage(const char* problem) {
  std::fprintf(stderr,
               "bench_queues: %s\nusage: bench_queues [--group NAME] [--rotate K] [--runs N 1..100]"
               " [--seconds S 0.1..10] [--list-groups]\n",
               problem);
  std::exit(2);
}

}  // namespace
}  // namespace pipelab::bench

int main(int argc, char** argv) {
  using namespace pipelab::bench;
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--list-groups") {
      std::printf("{\"groups\":[");
      for (const char* g : kGroups) std::printf("%s\"%s\"", g == kGroups[0] ? "" : ",", g);
      std::printf("]}\n");
      return 0;
    }
    if (i + 1 >= argc) usage(("missing value after " + flag).c_str());
    const char* value = argv[++i];
    if (flag == "--seconds") {
      o.target_seconds = std::atof(value);
      if (!(o.target_seconds >= kMinSeconds && o.target_seconds <= 10))
        usage("--seconds is out of range (allowed 0.1..10)");
    } else if (flag == "--group") {
      o.group = value;
      if (std::none_of(std::begin(kGroups), std::end(kGroups),
                       [&](const char* g) { return o.group == g; }))
        usage(("unknown group " + o.group).c_str());
    } else if (flag == "--rotate") {
      o.rotate = std::atoi(value);
    } else if (flag == "--runs") {
      o.runs = std::atoi(value);
      if (o.runs < 1 || o.runs > 100) usage("--runs is out of range (allowed 1..100)");
    } else {
      usage(("unknown flag " + flag).c_str());
    }
  }
  if (!o.group.empty()) {
    run_group(o.group, o);
  } else {
    for (const char* group : kGroups) run_group(group, o);
  }
  std::printf("{\"done\":true,\"sink\":%llu}\n", static_cast<unsigned long long>(g_sink.load()));
  return 0;
}
