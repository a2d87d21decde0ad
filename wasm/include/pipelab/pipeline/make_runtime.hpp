// make_runtime(): the runtime an ExperimentSpec asks for (static, collapsed, work-stealing, a
// two-stage I/O runtime, barrier or phaser), constructed but not started. Throws SpecError naming
// the field for a bad spec.
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

#include "pipelab/pipeline/barrier_runtime.hpp"
#include "pipelab/pipeline/phaser_graph/phaser_runtime.hpp"
#include "pipelab/pipeline/runtime.hpp"
#include "pipelab/pipeline/spec.hpp"
#include "pipelab/pipeline/static_runtime.hpp"
#include "pipelab/pipeline/two_stage_io/input_runtime.hpp"
#include "pipelab/pipeline/two_stage_io/output_runtime.hpp"
#include "pipelab/pipeline/work_stealing_runtime.hpp"

namespace pipelab::pipeline {

inline std::unique_ptr<Runtime> make_runtime(const ExperimentSpec& spec,
                                             const RunOptions& options = {}) {
  if (spec.runtime == RuntimeKind::kWorkStealing) {
    return std::make_unique<WorkStealingRuntime>(spec, options);
  }
  if (spec.runtime == RuntimeKind::kTwoStageOutput) {
    return std::make_unique<TwoStageOutputRuntime>(spec, options);
  }
  if (spec.runtime == RuntimeKind::kTwoStageInput) {
    return std::make_unique<TwoStageInputRuntime>(spec, options);
  }
  if (spec.runtime == RuntimeKind::kBarrier) return std::make_unique<BarrierRuntime>(spec, options);
  if (spec.runtime == RuntimeKind::kPhaser) return std::make_unique<PhaserRuntime>(spec, options);
  return std::make_unique<StaticRuntime>(spec, options);
}

}  // namespace pipelab::pipeline
