// The runtime kinds in C++, one row each: the rules its spec is read and checked with (spec.hpp's
// KindRules: its own fields, its threads, its stage shape) and the runtime that runs it — the C++
// side of a kind's TypeScript module. What a kind's finished run leaves for the page (a two-stage
// run's checksum, a phaser run's task board and why it stopped) its runtime gives through
// Runtime's virtual output_json(), board() and stop_reason(), so the bindings (wasm/src/
// bindings.cpp) hold nothing per kind. Adding a kind: its enum value and word (spec.hpp), its
// KindRules, its runtime class, and a row here.
// Engine use (one controlling thread):
//   auto rt = make_runtime(parse_experiment_spec(json), RunOptions{});
//   rt->start();                       // returns at once; poll rt->finished() from the event loop
//   rt->telemetry().ring(w).data()     // worker w's ring, w < telemetry().workers()
//                                      // (layout: contracts/telemetry.md)
//   rt->telemetry().counters_data()    // stage counter lines, 64 bytes per stage
//   rt->request_cancel(); ... rt->join(); rt->start();   // stop and run again
// The addresses above stay valid until the runtime is destroyed.
#pragma once

#include <memory>
#include <string_view>

#include "pipelab/pipeline/barrier_runtime.hpp"
#include "pipelab/pipeline/phaser_graph/phaser_runtime.hpp"
#include "pipelab/pipeline/runtime.hpp"
#include "pipelab/pipeline/spec.hpp"
#include "pipelab/pipeline/static_runtime.hpp"
#include "pipelab/pipeline/two_stage_io/input_runtime.hpp"
#include "pipelab/pipeline/two_stage_io/output_runtime.hpp"
#include "pipelab/pipeline/work_stealing_runtime.hpp"

namespace pipelab::pipeline {

struct RuntimeKindRow {
  RuntimeKind kind;
  const KindRules& rules;
  std::unique_ptr<Runtime> (*make)(const ExperimentSpec& spec, const RunOptions& options);
};

template <typename R>
std::unique_ptr<Runtime> make_as(const ExperimentSpec& spec, const RunOptions& options) {
  return std::make_unique<R>(spec, options);
}

inline const RuntimeKindRow& runtime_kind(RuntimeKind kind) {
  static const RuntimeKindRow rows[] = {
      {RuntimeKind::kStatic, kPipelineRules, make_as<StaticRuntime>},
      {RuntimeKind::kCollapsed, kPipelineRules, make_as<StaticRuntime>},
      {RuntimeKind::kWorkStealing, kPoolRules, make_as<WorkStealingRuntime>},
      {RuntimeKind::kTwoStageOutput, kTwoStageRules, make_as<TwoStageOutputRuntime>},
      {RuntimeKind::kTwoStageInput, kTwoStageRules, make_as<TwoStageInputRuntime>},
      {RuntimeKind::kBarrier, kBarrierRules, make_as<BarrierRuntime>},
      {RuntimeKind::kPhaser, kPhaserRules, make_as<PhaserRuntime>},
  };
  for (const RuntimeKindRow& row : rows) {
    if (row.kind == kind) return row;
  }
  throw SpecError("runtime", "no row for this kind");
}

// Checks a spec of any kind with its kind's rules, filling the defaults (spec.hpp).
inline void validate(ExperimentSpec& spec) { validate(spec, runtime_kind(spec.runtime).rules); }

// The JSON text of an ExperimentSpec → a checked spec with its defaults filled; throws SpecError
// naming the field (the byte offset for a syntax error).
inline ExperimentSpec parse_experiment_spec(std::string_view text) {
  json::Value root;
  try {
    root = json::parse(text);
  } catch (const json::ParseError& e) {
    throw SpecError(e.what());
  }
  spec_fields::object(root, "");
  ExperimentSpec spec;
  spec.runtime = spec_fields::word<RuntimeKind>(spec_fields::require(root, "", "runtime"),
                                                "runtime", kRuntimeWords);
  const KindRules& rules = runtime_kind(spec.runtime).rules;
  spec_read::common(root, spec);
  if (rules.read) rules.read(root, spec);
  validate(spec, rules);
  return spec;
}

inline std::unique_ptr<Runtime> make_runtime(const ExperimentSpec& spec,
                                             const RunOptions& options = {}) {
  return runtime_kind(spec.runtime).make(spec, options);
}

}  // namespace pipelab::pipeline
