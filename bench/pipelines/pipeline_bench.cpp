// Pipeline benchmark CLI (native and wasm under Node): one process measures one group of compared
// cases (or every group) and prints one JSON line per timed run, keyed "<group>/<case>". Groups:
// our work stealing against oneTBB's parallel_pipeline at equal tokens (10 µs and 1 ms stages),
// scaling over 1..cores, 6 vs 3 stages, static vs collapsed under imbalance, telemetry on/off,
// 100 µs stages for the wasm/native ratio, and Dempsey's two-stage output against its dual-thread
// version per batch size. Method (bench/lib/rounds.mjs runs one process per target, group and
// round): every case gets a quarter-length warm-up run, then --runs timed runs in an order
// rotated by --rotate (and by one more each run); a run under 100 ms is run again with twice the
// items. After each timed run of busy-work stages, a probe times what the stages really took
// (the achieved service time): the busy-work calibration can run short, in wasm by ~10%.
//   usage: pipeline_bench --target NAME [--group NAME] [--rotate K] [--runs N] [--quick]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "pipelab/workload/stage_work.hpp"
#include "pipeline_cases.hpp"

namespace {

using namespace pipelab::bench;

constexpr double kChunkUs = 400;  // the achieved-service probe: chunks of this many µs per stage
constexpr int kProbeChunks = 11;
constexpr double kMinSeconds = 0.1;  // no timed run shorter than this is reported

struct Options {
  std::string target;
  std::string group;  // empty: every group
  int rotate = 0;
  int runs = 1;
  bool quick = false;
};

volatile std::uint64_t g_sink = 0;  // keeps the probe's work alive

// Achieved service time: the µs per call of each stage's StageWork::run (what the runtimes call
// per item), timed on this thread right after a timed run: kProbeChunks chunks of >= kChunkUs,
// keeping the fastest chunk's mean per call. Why the fastest: other processes only ever lengthen
// a timing, and the probe is after the busy work's calibration error, not the machine's load.
// Returns the first stage's time and the sum over the stages (work per item).
std::pair<double, double> probe_service_us(const ExperimentSpec& spec) {
  double first = 0;
  double total = 0;
  for (std::uint32_t s = 0; s < spec.stages.size(); ++s) {
    const pipelab::workload::StageWork work(spec.stages[s].service, spec.seed, s);
    const int calls = std::max(1, int(kChunkUs / std::max(1.0, spec.stages[s].service.us)));
    std::uint64_t value = g_sink | 1;
    double fastest = 1e30;
    for (int chunk = 0; chunk < kProbeChunks; ++chunk) {
      const auto t0 = Clock::now();
      for (int i = 0; i < calls; ++i) value = work.run(std::uint64_t(i), value);
      fastest = std::min(fastest, seconds_since(t0) * 1e6 / calls);
    }
    g_sink = value;
    if (s == 0) first = fastest;
    total += fastest;
  }
  return {first, total};
}

void print_sample(const Options& o, const std::string& group, const Case& c, std::uint64_t items,
                  const Sample& sample) {
  std::printf(
      "{\"key\":\"%s/%s\",\"group\":\"%s\",\"runtime\":\"%s\",\"variant\":\"%s\","
      "\"stage_us\":%g,\"tokens\":%u,\"stages\":%zu,\"threads\":%u,\"telemetry\":%s,"
      "\"items\":%llu,\"seconds\":%.6f,\"items_per_s\":%.1f",
      group.c_str(), c.name.c_str(), group.c_str(), c.runtime.c_str(), c.variant.c_str(),
      c.spec.stages[0].service.us,
      c.spec.runtime == RuntimeKind::kWorkStealing ? c.spec.tokens : 0u, c.spec.stages.size(),
      c.spec.threads, c.telemetry ? "true" : "false", static_cast<unsigned long long>(items),
      sample.seconds, items / sample.seconds);
  if (c.busy_work) {
    double nominal = 0;
    for (const StageSpec& st : c.spec.stages) nominal += st.service.us;
    const auto [first, total] = probe_service_us(c.spec);
    std::printf(
        ",\"stage_us_achieved\":%.3f,\"work_us_per_item\":%g,"
        "\"work_us_per_item_achieved\":%.3f",
        first, nominal, total);
  } else {
    std::printf(
        ",\"compute_threads\":%u,\"buffers\":%u,\"batch_items\":%u,"
        "\"mean_batch_latency_us\":%.1f",
        c.compute_threads, c.compute_threads + 2, c.batch_items, sample.mean_batch_latency_us);
  }
  std::printf("}\n");
  std::fflush(stdout);
  std::fprintf(stderr, "  %-8s %-40s %12.0f items/s\n", o.target.c_str(),
               (group + "/" + c.name).c_str(), items / sample.seconds);
}

void run_group(const std::string& group, const Options& o) {
  std::vector<Case> cases = group_cases(group, o.quick);
  const int n = static_cast<int>(cases.size());
  auto at = [&](int i, int k) -> Case& { return cases[std::size_t(((i + k) % n + n) % n)]; };
  std::vector<std::uint64_t> items;  // per case: grows if a run is shorter than kMinSeconds
  for (const Case& c : cases) items.push_back(c.spec.items);
  auto items_of = [&](const Case& c) -> std::uint64_t& {
    return items[std::size_t(&c - &cases[0])];
  };
  // Warm-up (thread creation, wasm tier-up, caches) at a quarter of the items.
  for (int i = 0; i < n; ++i) {
    Case& c = at(i, o.rotate);
    (void)c.run(std::max<std::uint64_t>(10, items_of(c) / 4));
  }
  for (int run = 0; run < o.runs; ++run) {
    for (int i = 0; i < n; ++i) {
      const Case& c = at(i, o.rotate + run);
      std::uint64_t& count = items_of(c);
      Sample sample = c.run(count);
      while (sample.seconds < kMinSeconds && count * 2 <= kMaxItems) {
        count *= 2;  // too short to matter: run it again, longer
        sample = c.run(count);
      }
      print_sample(o, group, c, count, sample);
    }
  }
}

[[noreturn]] void usage(const std::string& problem) {
  std::fprintf(stderr,
               "pipeline_bench: %s\nusage: pipeline_bench --target NAME [--group NAME] "
               "[--rotate K] [--runs N 1..100] [--quick]\n",
               problem.c_str());
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--quick") {
      o.quick = true;
      continue;
    }
    if (i + 1 >= argc) usage("missing value after " + flag);
    const std::string value = argv[++i];
    if (flag == "--target") {
      o.target = value;
    } else if (flag == "--group") {
      o.group = value;
      if (std::none_of(std::begin(kGroups), std::end(kGroups),
                       [&](const char* g) { return value == g; }))
        usage("unknown group " + value);
    } else if (flag == "--rotate") {
      o.rotate = std::atoi(value.c_str());
    } else if (flag == "--runs") {
      o.runs = std::atoi(value.c_str());
      if (o.runs < 1 || o.runs > 100)
        usage("--runs " + value + " is out of range (allowed 1..100)");
    } else {
      usage("unknown flag " + flag);
    }
  }
  if (o.target.empty()) usage("--target is required (native or wasm-node)");
  if (!o.group.empty()) {
    run_group(o.group, o);
  } else {
    for (const char* group : kGroups) run_group(group, o);
  }
  return 0;
}
