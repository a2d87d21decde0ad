// Pipeline benchmark CLI (native and wasm under Node): one process measures one group of compared
// cases (or every group) and prints one JSON line per timed run, keyed "<group>/<case>". Groups:
// our work stealing against oneTBB's parallel_pipeline at equal tokens (10 µs and 1 ms stages),
// scaling over 1..cores, 6 vs 3 stages, static vs collapsed under imbalance, telemetry on/off,
// 100 µs stages for the wasm/native ratio, Dempsey's two-stage output against its serial and
// dual-thread versions per batch size, and his two-stage input against its serial version. Method
// (bench/lib/rounds.mjs runs one process per target, group and round): every case gets a
// quarter-length warm-up run, then --runs timed runs in an order rotated by --rotate (and by one
// more each run); a run under 100 ms is run again with twice the items. After each timed run of
// busy-work stages, BusyWork::measure_us_per_call() gives what the stages really take on this
// target (the achieved service time), recorded beside the target.
//   usage: pipeline_bench --target NAME [--group NAME] [--rotate K] [--runs N] [--quick]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "pipelab/workload/busy_work.hpp"
#include "pipeline_cases.hpp"

namespace {

using namespace pipelab::bench;

constexpr double kMinSeconds = 0.1;  // no timed run shorter than this is reported

struct Options {
  std::string target;
  std::string group;  // empty: every group
  int rotate = 0;
  int runs = 1;
  bool quick = false;
};

// Achieved service time per stage: BusyWork::measure_us_per_call() (the fastest of several
// timings of back-to-back spin_us() calls, the loop every busy stage runs), taken on this thread
// right after a timed run. Returns the first stage's time and the sum over the stages (work per
// item).
std::pair<double, double> achieved_service_us(const ExperimentSpec& spec) {
  const auto& busy = pipelab::workload::BusyWork::global();
  double first = 0;
  double total = 0;
  for (const StageSpec& stage : spec.stages) {
    const double us = busy.measure_us_per_call(stage.service.us);
    if (&stage == &spec.stages.front()) first = us;
    total += us;
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
    const auto [first, total] = achieved_service_us(c.spec);
    std::printf(
        ",\"stage_us_achieved\":%.3f,\"work_us_per_item\":%g,"
        "\"work_us_per_item_achieved\":%.3f",
        first, nominal, total);
  } else {
    std::printf(",\"compute_threads\":%u,\"batch_items\":%u", c.compute_threads, c.batch_items);
    if (c.runtime != "two-stage-input") {  // the input has no buffer pool, no batch latency
      std::printf(",\"buffers\":%u,\"mean_batch_latency_us\":%.1f", c.compute_threads + 2,
                  sample.mean_batch_latency_us);
    }
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
      while (sample.seconds < kMinSeconds && count * 2 <= c.max_items) {
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
