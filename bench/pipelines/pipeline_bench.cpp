// Pipeline benchmark CLI (native and wasm-under-Node): our runtimes against oneTBB's
// parallel_pipeline on the same ExperimentSpec, scaling, 6 vs 3 stages, static vs collapsed
// under imbalance, telemetry on/off, the two-stage output of Dempsey (threads 1..cores vs the
// dual-thread version, items/s and mean latency per batch; `--only io-output` runs just those),
// and the busy-work calibration accuracy. Prints one JSON
// document ({"machine": ..., "results": [...]}) on stdout; bench/pipelines/run.mjs drives it.
// Each measurement: one warm-up run, then the median items/s of `repeats` runs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "pipelab/pipeline/make_runtime.hpp"
#include "pipelab/pipeline/two_stage_io/output_runtime.hpp"
#include "pipelab/workload/busy_work.hpp"

#ifdef PIPELAB_HAVE_TBB
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_pipeline.h>
#include <oneapi/tbb/task_arena.h>
#endif

namespace {

using namespace pipelab::pipeline;
using Clock = std::chrono::steady_clock;

struct Options {
  const char* target = "native";
  int repeats = 5;
  bool quick = false;
  std::string only;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Shapes: mode letters S = serial-in-order, O = serial-out-of-order, P = parallel.
ExperimentSpec shape(RuntimeKind rt, const std::string& modes, const std::vector<double>& us,
                     std::uint32_t par_threads, std::uint64_t items) {
  ExperimentSpec s;
  s.runtime = rt;
  for (std::size_t i = 0; i < modes.size(); ++i) {
    const StageMode m = modes[i] == 'S'   ? StageMode::kSerialInOrder
                        : modes[i] == 'O' ? StageMode::kSerialOutOfOrder
                                          : StageMode::kParallel;
    s.stages.push_back(StageSpec{"s" + std::to_string(i), m,
                                 m == StageMode::kParallel ? par_threads : 1u,
                                 ServiceSpec::fixed(us[i])});
  }
  s.items = items;
  s.seed = 1;
  s.queue = QueueSpec{QueueKind::kBatch, 16};
  return s;
}

double run_ours(const ExperimentSpec& spec, bool telemetry) {
  RunOptions o;
  o.telemetry = telemetry;
  auto rt = make_runtime(spec, o);
  const auto t0 = Clock::now();
  rt->run();
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  return double(spec.items) / s;
}

#ifdef PIPELAB_HAVE_TBB
double run_tbb(const ExperimentSpec& spec) {
  using namespace oneapi::tbb;
  std::vector<pipelab::workload::StageWork> work;
  for (std::uint32_t s = 0; s < spec.stages.size(); ++s) {
    work.emplace_back(spec.stages[s].service, spec.seed, s);
  }
  auto mode_of = [&](std::size_t s) {
    switch (spec.stages[s].mode) {
      case StageMode::kSerialInOrder:
        return filter_mode::serial_in_order;
      case StageMode::kSerialOutOfOrder:
        return filter_mode::serial_out_of_order;
      case StageMode::kParallel:
        return filter_mode::parallel;
    }
    return filter_mode::parallel;
  };
  // Atomic: a parallel first filter is called concurrently.
  std::atomic<std::uint64_t> next{0};
  filter<void, PipelineItem> chain =
      make_filter<void, PipelineItem>(mode_of(0), [&](flow_control& fc) -> PipelineItem {
        const std::uint64_t seq = next.fetch_add(1, std::memory_order_relaxed);
        if (seq >= spec.items) {
          fc.stop();
          return {};
        }
        PipelineItem it{seq, pipelab::workload::splitmix64(seq ^ spec.seed)};
        it.value = work[0].run(it.seq, it.value);
        return it;
      });
  for (std::size_t s = 1; s + 1 < spec.stages.size(); ++s) {
    chain = chain & make_filter<PipelineItem, PipelineItem>(mode_of(s), [&, s](PipelineItem it) {
              it.value = work[s].run(it.seq, it.value);
              return it;
            });
  }
  std::atomic<std::uint64_t> done{0};
  const std::size_t last = spec.stages.size() - 1;
  filter<void, void> whole =
      chain & make_filter<PipelineItem, void>(last == 0 ? filter_mode::parallel : mode_of(last),
                                              [&, last](PipelineItem it) {
                                                if (last != 0) work[last].run(it.seq, it.value);
                                                done.fetch_add(1, std::memory_order_relaxed);
                                              });
  task_arena arena(int(spec.threads));
  const auto t0 = Clock::now();
  arena.execute([&] { parallel_pipeline(spec.tokens, whole); });
  const double s = std::chrono::duration<double>(Clock::now() - t0).count();
  if (done.load() != spec.items) std::fprintf(stderr, "onetbb: lost items\n");
  return double(spec.items) / s;
}
#endif

// Cases of one comparison run round-robin (warm-up each, then repeat r of every case before
// repeat r + 1), so load from other processes hits every case alike; run.mjs compares cases by
// the median of their per-repeat ratios.
class Bench {
 public:
  explicit Bench(Options o) : o_(o) {}

  void ours(const std::string& variant, const ExperimentSpec& spec, bool telemetry = false) {
    add(to_string(spec.runtime), variant, spec, telemetry,
        [spec, telemetry] { return run_ours(spec, telemetry); });
  }
  void onetbb(const std::string& variant, const ExperimentSpec& spec) {
#ifdef PIPELAB_HAVE_TBB
    ExperimentSpec s = spec;
    s.runtime = RuntimeKind::kWorkStealing;
    add("onetbb", variant, s, false, [s] { return run_tbb(s); });
#else
    (void)variant;
    (void)spec;
#endif
  }

  // Two-stage output (or its dual-thread form): items/s, plus the run's mean µs per batch from
  // its first formatted item to the end of its write (median over repeats, like the rate).
  void two_stage_output(const std::string& runtime, const std::string& variant,
                        const TwoStageOutputConfig& config) {
    auto latencies = std::make_shared<std::vector<double>>();
    ExperimentSpec spec;
    spec.stages = {StageSpec{"format", StageMode::kParallel, config.threads, {}},
                   StageSpec{"write", StageMode::kSerialInOrder, 1, {}}};
    spec.items = config.items;
    const std::size_t before = group_.size();
    add(runtime, variant, spec, false, [config, latencies] {
      TwoStageOutputRuntime rt(config, RunOptions{false});
      rt.run();
      latencies->push_back(rt.mean_batch_latency_us());
      return double(config.items) / (rt.elapsed_us() * 1e-6);
    });
    if (group_.size() == before) return;  // filtered out by --only
    group_.back().latencies = latencies;
    group_.back().threads = config.threads;
    group_.back().batch_items = config.batch_items;
  }

  // Runs the cases added since the last call.
  void run_group() {
    for (Case& c : group_) c.once();  // warm-up (wasm tier-up, thread creation, caches)
    for (int r = 0; r < o_.repeats; ++r) {
      for (Case& c : group_) c.rates.push_back(c.once());
    }
    for (Case& c : group_) emit(c);
    group_.clear();
  }

  void print(const std::string& machine) const {
    std::printf("{\"machine\": %s, \"results\": [\n", machine.c_str());
    for (std::size_t i = 0; i < results_.size(); ++i) {
      std::printf("  %s%s\n", results_[i].c_str(), i + 1 < results_.size() ? "," : "");
    }
    std::printf("]}\n");
  }

 private:
  struct Case {
    std::string runtime, variant;
    ExperimentSpec spec;
    bool telemetry;
    std::function<double()> once;
    std::vector<double> rates;
    std::shared_ptr<std::vector<double>> latencies;  // two-stage output only (warm-up first)
    std::uint32_t threads = 0;                       // compute threads, when not spec.threads
    std::uint32_t batch_items = 0;
  };

  void add(const std::string& runtime, const std::string& variant, const ExperimentSpec& spec,
           bool telemetry, std::function<double()> once) {
    if (!o_.only.empty() && variant.find(o_.only) == std::string::npos) return;
    group_.push_back(Case{runtime, variant, spec, telemetry, std::move(once), {}, nullptr, 0, 0});
  }

  void emit(const Case& c) {
    ExperimentSpec v = c.spec;
    validate(v);
    std::string rates = "[";
    for (double x : c.rates) rates += (rates.size() > 1 ? ", " : "") + std::to_string(x);
    rates += "]";
    char buf[768];
    std::snprintf(buf, sizeof buf,
                  "{\"bench\": \"pipelines\", \"target\": \"%s\", \"runtime\": \"%s\", "
                  "\"variant\": \"%s\", \"stage_us\": %g, \"tokens\": %u, \"stages\": %zu, "
                  "\"threads\": %u, \"items\": %llu, \"items_per_s\": %.1f, \"repeats\": %d, "
                  "\"telemetry\": %s, \"rates\": ",
                  o_.target, c.runtime.c_str(), c.variant.c_str(), c.spec.stages[0].service.us,
                  v.runtime == RuntimeKind::kWorkStealing ? v.tokens : 0u, c.spec.stages.size(),
                  v.threads, (unsigned long long)c.spec.items, median(c.rates), o_.repeats,
                  c.telemetry ? "true" : "false");
    const std::string head = buf;
    std::string io;
    if (c.latencies) {
      // Drop the warm-up run's latency: the rate list has no warm-up entry either.
      std::vector<double> lat(c.latencies->begin() + 1, c.latencies->end());
      std::snprintf(buf, sizeof buf,
                    ", \"compute_threads\": %u, \"buffers\": %u, \"batch_items\": %u, "
                    "\"mean_batch_latency_us\": %.1f",
                    c.threads, c.threads + 2, c.batch_items, median(lat));
      io = buf;
      std::fprintf(stderr, "  batch %u: mean latency %.1f us per batch\n", c.batch_items,
                   median(lat));
    }
    results_.push_back(head + rates + io + "}");
    std::fprintf(stderr, "%-16s %-22s t=%u %12.0f items/s\n", c.runtime.c_str(), c.variant.c_str(),
                 c.threads ? c.threads : v.threads, median(c.rates));
  }

  Options o_;
  std::vector<Case> group_;
  std::vector<std::string> results_;
};

volatile std::uint64_t sink_ = 0;  // keeps the timed loops alive

std::string calibration_json() {
  auto& busy = pipelab::workload::BusyWork::global();
  std::string out = "[";
  for (double target : {5.0, 10.0, 100.0, 1000.0}) {
    std::vector<double> samples;
    for (int i = 0; i < 301; ++i) {
      const auto t0 = Clock::now();
      sink_ = busy.spin_us(target, sink_ | 1);
      samples.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    }
    char buf[128];
    std::snprintf(buf, sizeof buf, "%s{\"target_us\": %g, \"median_us\": %.3f}",
                  out.size() > 1 ? ", " : "", target, median(samples));
    out += buf;
  }
  return out + "]";
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--target") && i + 1 < argc)
      o.target = argv[++i];
    else if (!std::strcmp(argv[i], "--repeats") && i + 1 < argc)
      o.repeats = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc)
      o.only = argv[++i];
    else if (!std::strcmp(argv[i], "--quick"))
      o.quick = true;
  }
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const double scale = o.quick ? 0.2 : 1.0;
  auto items_for = [&](double us_per_item_per_core) {
    return std::uint64_t(std::max(50.0, scale * 400000.0 / us_per_item_per_core));
  };
  Bench b(o);
  const RuntimeKind ws = RuntimeKind::kWorkStealing;

  // 1. Work stealing vs oneTBB at equal tokens: serial → parallel → serial, 10 µs and 1 ms.
  for (double us : {10.0, 1000.0}) {
    ExperimentSpec s = shape(ws, "SPS", {us, us, us}, 1, items_for(3 * us / cores));
    s.threads = cores;
    s.tokens = 2 * cores;
    const std::string v = "vs-onetbb-" + std::to_string(int(us)) + "us";
    b.ours(v, s);
    b.onetbb(v, s);
    b.run_group();
  }
  // 2. Scaling 1..cores on an all-parallel pipeline (10 µs stages).
  for (unsigned t = 1; t <= cores; ++t) {
    ExperimentSpec s = shape(ws, "PPP", {10, 10, 10}, 1, items_for(30.0 / t));
    s.threads = t;
    s.tokens = 2 * t;
    b.ours("scaling", s);
    b.onetbb("scaling", s);
  }
  b.run_group();
  // 3. Six vs three stages, same work per item (the paper's Table 2 shape).
  {
    ExperimentSpec six = shape(ws, "SPPPPS", {10, 20, 20, 20, 20, 10}, 1, items_for(100.0 / cores));
    ExperimentSpec three = shape(ws, "SPS", {10, 80, 10}, 1, items_for(100.0 / cores));
    six.threads = three.threads = cores;
    six.tokens = three.tokens = 2 * cores;
    b.ours("stages-6", six);
    b.ours("stages-3", three);
    b.onetbb("stages-6", six);
    b.onetbb("stages-3", three);
    for (RuntimeKind rt : {RuntimeKind::kStatic}) {
      ExperimentSpec s6 = shape(rt, "SPPPPS", {10, 20, 20, 20, 20, 10}, 1, six.items);
      ExperimentSpec s3 = shape(rt, "SPS", {10, 80, 10}, 4, three.items);
      b.ours("stages-6", s6);
      b.ours("stages-3", s3);
    }
    b.run_group();
  }
  // 4. Static vs collapsed under imbalanced parallel stages (40 µs next to 5 µs).
  {
    const std::vector<double> us = {5, 40, 5, 5};
    ExperimentSpec st = shape(RuntimeKind::kStatic, "SPPS", us, 1, items_for(55.0 / cores));
    ExperimentSpec co = shape(RuntimeKind::kCollapsed, "SPPS", us, 1, st.items);
    b.ours("imbalance", st);
    b.ours("imbalance", co);
    ExperimentSpec w = shape(ws, "SPPS", us, 1, st.items);
    w.threads = cores;
    w.tokens = 2 * cores;
    b.ours("imbalance", w);
    b.run_group();
  }
  // 5. Telemetry on vs off (work stealing, 10 µs stages).
  {
    ExperimentSpec s = shape(ws, "SPS", {10, 10, 10}, 1, items_for(30.0 / cores));
    s.threads = cores;
    s.tokens = 2 * cores;
    b.ours("telemetry", s, false);
    b.ours("telemetry", s, true);
    b.run_group();
  }
  // 6. 100 µs stages: compared across targets (wasm vs native) by run.mjs.
  {
    ExperimentSpec s = shape(ws, "SPS", {100, 100, 100}, 1, items_for(300.0 / cores));
    s.threads = cores;
    s.tokens = 2 * cores;
    b.ours("cross-target-100us", s);
    b.run_group();
  }
  // 7. Two-stage output (Dempsey): N compute threads + 1 writer, buffers = N + 2, against the
  //    dual-thread version (1 compute + 1 I/O thread, 3 buffers), per batch size.
  for (std::uint32_t batch : {64u, 1024u, 8192u}) {
    const std::uint64_t items = o.quick ? 200000 : 1000000;
    const std::string v = "io-output-b" + std::to_string(batch);
    b.two_stage_output("dual-thread", v, TwoStageOutputRuntime::dual_thread(items, batch, 2));
    for (unsigned t = 1; t <= cores; ++t) {
      b.two_stage_output("two-stage-output", v, TwoStageOutputConfig{t, batch, items, 2, false});
    }
    b.run_group();
  }
  char machine[512];
  std::snprintf(machine, sizeof machine,
                "{\"hardware_concurrency\": %u, \"busy_iterations_per_us\": %.2f, "
                "\"busy_work_calibration\": %s}",
                cores, pipelab::workload::BusyWork::global().iterations_per_us(),
                calibration_json().c_str());
  b.print(machine);
  return 0;
}
