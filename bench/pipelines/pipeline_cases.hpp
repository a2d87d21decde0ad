// The pipeline bench's cases, by group: each group a list of cases compared with one another (and
// across targets by bench/pipelines/report.mjs), each case one runtime on one ExperimentSpec (or
// Dempsey's two-stage output on its config) that pipeline_bench.cpp runs, times and reports.
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "page_drain.hpp"
#include "pipelab/pipeline/runtime_kinds.hpp"
#include "pipelab/pipeline/two_stage_io/input_runtime.hpp"
#include "pipelab/pipeline/two_stage_io/output_runtime.hpp"

#ifdef PIPELAB_BENCH_ONETBB
#include "onetbb_pipeline.hpp"
#endif

namespace pipelab::bench {

using namespace pipelab::pipeline;
using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Shapes: mode letters S = serial-in-order, O = serial-out-of-order, P = parallel.
inline ExperimentSpec shape(RuntimeKind rt, const std::string& modes, const std::vector<double>& us,
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

// What one timed run measured.
struct Sample {
  double seconds = 0;
  double mean_batch_latency_us = -1;  // two-stage output only
};

// One case of a group: `run(items)` runs it once with that many items.
struct Case {
  std::string name;  // the key's part after the group
  std::string runtime;
  std::string variant;
  ExperimentSpec spec;  // validated: threads and tokens filled in
  bool telemetry = false;
  std::function<Sample(std::uint64_t)> run;
  bool busy_work = true;  // stages are calibrated busy work (their achieved time is measured)
  std::uint32_t compute_threads = 0;  // two-stage output only
  std::uint32_t batch_items = 0;
  std::uint64_t max_items = kMaxItems;  // a run longer than this is refused by the runtime
};

inline ExperimentSpec validated(ExperimentSpec spec) {
  validate(spec);
  return spec;
}

inline Case ours(std::string name, const std::string& variant, const ExperimentSpec& spec,
                 bool telemetry = false) {
  return {std::move(name),
          to_string(spec.runtime),
          variant,
          validated(spec),
          telemetry,
          [spec, telemetry](std::uint64_t items) {
            ExperimentSpec s = spec;
            s.items = items;
            RunOptions o;
            o.telemetry = telemetry;
            auto rt = make_runtime(s, o);
            PageDrain drain(rt->telemetry());  // reads the rings as the page does (when on)
            const auto t0 = Clock::now();
            rt->run();
            return Sample{seconds_since(t0)};
          }};
}

// oneTBB at the same spec (native only: see onetbb_pipeline.hpp); adds nothing in wasm builds.
inline void add_onetbb(std::vector<Case>& cases, std::string name, const std::string& variant,
                       const ExperimentSpec& spec) {
#ifdef PIPELAB_BENCH_ONETBB
  cases.push_back(
      {std::move(name), "onetbb", variant, validated(spec), false, [spec](std::uint64_t items) {
         ExperimentSpec s = validated(spec);
         s.items = items;
         return Sample{pipelab::bench::run_onetbb(s)};
       }});
#else
  (void)cases, (void)name, (void)variant, (void)spec;
#endif
}

// Dempsey's two-stage output (or its dual-thread form): items/s, and the run's mean µs per batch
// from its first formatted item to the end of its write.
inline Case two_stage_output(std::string name, const std::string& runtime,
                             const std::string& variant, const TwoStageOutputConfig& config) {
  ExperimentSpec spec;
  spec.stages = {StageSpec{"format", StageMode::kParallel, config.threads, {}},
                 StageSpec{"write", StageMode::kSerialInOrder, 1, {}}};
  spec.items = config.items;
  Case c{std::move(name), runtime, variant, validated(spec), false, [config](std::uint64_t items) {
           TwoStageOutputConfig k = config;
           k.items = items;
           TwoStageOutputRuntime rt(k, RunOptions{false});
           rt.run();
           return Sample{rt.elapsed_us() * 1e-6, rt.mean_batch_latency_us()};
         }};
  c.busy_work = false;
  c.compute_threads = config.threads;
  c.batch_items = config.batch_items;
  return c;
}

// Dempsey's two-stage input (or its serial form: one thread scans a span, then parses it): a
// serial scan cutting in-memory text into spans, `threads` readers parsing them; items/s.
inline Case two_stage_input(std::string name, const std::string& variant,
                            const TwoStageInputConfig& config) {
  const ExperimentSpec spec = two_stage_input_spec(config);
  Case c{std::move(name),
         "two-stage-input",
         variant,
         validated(spec),
         false,
         [config](std::uint64_t items) {
           TwoStageInputConfig k = config;
           k.records = items;
           TwoStageInputRuntime rt(k, RunOptions{false});
           rt.run();
           return Sample{rt.elapsed_us() * 1e-6};
         }};
  c.busy_work = false;
  c.compute_threads = config.threads;
  c.batch_items = config.batch_records;
  c.max_items = TwoStageInputRuntime::kMaxRecords;  // it holds the whole text in memory
  return c;
}

// The groups: each a list of cases compared with one another (and across targets).
inline std::vector<Case> group_cases(const std::string& group, bool quick) {
  const auto cores = std::max(1u, std::thread::hardware_concurrency());
  // Runs of ~0.3 s (quick: ~0.12 s) at nominal service times.
  const double scale = quick ? 0.4 : 1.0;
  auto items_for = [&](double us_per_item_per_core) {
    return std::uint64_t(std::max(50.0, scale * 300000.0 / us_per_item_per_core));
  };
  auto ws = [&](const std::string& modes, const std::vector<double>& us, double us_per_item,
                std::uint32_t threads) {
    ExperimentSpec s = shape(RuntimeKind::kWorkStealing, modes, us, 1, items_for(us_per_item));
    s.threads = threads;
    s.tokens = 2 * threads;
    return s;
  };
  std::vector<Case> cases;
  // Work stealing vs oneTBB at equal tokens: serial → parallel → serial.
  for (int us : {10, 1000}) {
    const std::string v = "vs-onetbb-" + std::to_string(us) + "us";
    if (group != v) continue;
    const ExperimentSpec s =
        ws("SPS", {double(us), double(us), double(us)}, 3.0 * us / cores, cores);
    cases.push_back(ours("work-stealing", v, s));
    add_onetbb(cases, "onetbb", v, s);
  }
  // Scaling 1..cores on an all-parallel pipeline (10 µs stages).
  if (group == "scaling") {
    for (unsigned t = 1; t <= cores; ++t) {
      const ExperimentSpec s = ws("PPP", {10, 10, 10}, 30.0 / t, t);
      cases.push_back(ours("work-stealing-t" + std::to_string(t), "scaling", s));
      add_onetbb(cases, "onetbb-t" + std::to_string(t), "scaling", s);
    }
  }
  // Six vs three stages, same work per item (the paper's Table 2 shape).
  if (group == "stages") {
    const ExperimentSpec six = ws("SPPPPS", {10, 20, 20, 20, 20, 10}, 100.0 / cores, cores);
    const ExperimentSpec three = ws("SPS", {10, 80, 10}, 100.0 / cores, cores);
    cases.push_back(ours("work-stealing-6", "stages-6", six));
    cases.push_back(ours("work-stealing-3", "stages-3", three));
    add_onetbb(cases, "onetbb-6", "stages-6", six);
    add_onetbb(cases, "onetbb-3", "stages-3", three);
    cases.push_back(
        ours("static-6", "stages-6",
             shape(RuntimeKind::kStatic, "SPPPPS", {10, 20, 20, 20, 20, 10}, 1, six.items)));
    cases.push_back(ours("static-3", "stages-3",
                         shape(RuntimeKind::kStatic, "SPS", {10, 80, 10}, 4, three.items)));
  }
  // Static vs collapsed vs work stealing under imbalanced parallel stages (40 µs next to 5 µs).
  if (group == "imbalance") {
    const std::vector<double> us = {5, 40, 5, 5};
    const ExperimentSpec st = shape(RuntimeKind::kStatic, "SPPS", us, 1, items_for(55.0 / cores));
    cases.push_back(ours("static", "imbalance", st));
    cases.push_back(
        ours("collapsed", "imbalance", shape(RuntimeKind::kCollapsed, "SPPS", us, 1, st.items)));
    ExperimentSpec w = ws("SPPS", us, 55.0 / cores, cores);
    w.items = st.items;
    cases.push_back(ours("work-stealing", "imbalance", w));
  }
  // Telemetry on vs off (work stealing, 10 µs stages; with it on, a PageDrain reads the rings).
  if (group == "telemetry") {
    const ExperimentSpec s = ws("SPS", {10, 10, 10}, 30.0 / cores, cores);
    cases.push_back(ours("work-stealing-off", "telemetry", s, false));
    cases.push_back(ours("work-stealing-on", "telemetry", s, true));
  }
  // 100 µs stages: compared across targets (wasm vs native) by run.mjs.
  if (group == "cross-target-100us") {
    cases.push_back(ours("work-stealing", group, ws("SPS", {100, 100, 100}, 300.0 / cores, cores)));
  }
  // Two-stage output (Dempsey): N compute threads + 1 writer, buffers = N + 2, against the
  // dual-thread version (1 compute + 1 I/O thread, 3 buffers), per batch size, up to the largest
  // batch the spec takes (limits::kBatchItems: 4096).
  for (std::uint32_t batch : {64u, 1024u, 4096u}) {
    const std::string v = "io-output-b" + std::to_string(batch);
    if (group != v) continue;
    const std::uint64_t items = quick ? 500000 : 1000000;
    TwoStageOutputConfig serial{1, batch, items, 2, false};
    serial.variant = TwoStageVariant::kSerial;  // one thread formats a batch, then writes it
    cases.push_back(two_stage_output("serial-output", "serial-output", v, serial));
    cases.push_back(two_stage_output("dual-thread", "dual-thread", v,
                                     TwoStageOutputRuntime::dual_thread(items, batch, 2)));
    for (unsigned t = 1; t <= cores; ++t) {
      cases.push_back(two_stage_output("two-stage-output-t" + std::to_string(t), "two-stage-output",
                                       v, TwoStageOutputConfig{t, batch, items, 2, false}));
    }
  }
  // Two-stage input: the serial scan-and-parse against 1..cores readers behind the serial scan.
  if (group == "io-input-b1024") {
    const std::uint64_t records = quick ? 500000 : 1000000;
    TwoStageInputConfig serial{1, 1024, records, 2};
    serial.variant = TwoStageVariant::kSerial;
    cases.push_back(two_stage_input("serial-input", group, serial));
    for (unsigned t = 1; t <= cores; ++t) {
      cases.push_back(two_stage_input("two-stage-input-t" + std::to_string(t), group,
                                      TwoStageInputConfig{t, 1024, records, 2}));
    }
  }
  return cases;
}

inline const char* const kGroups[] = {
    "vs-onetbb-10us", "vs-onetbb-1000us",   "scaling",       "stages",          "imbalance",
    "telemetry",      "cross-target-100us", "io-output-b64", "io-output-b1024", "io-output-b4096",
    "io-input-b1024"};

}  // namespace pipelab::bench
