// oneTBB's parallel_pipeline running an ExperimentSpec: the peer the work-stealing runtime is
// measured against. Native builds only (oneTBB is not built for wasm here); CMake requires oneTBB
// for the native pipeline bench, so a native report never lacks its peer.
#pragma once

#include "pipelab/pipeline/spec.hpp"

namespace pipelab::bench {

// Moves spec.items items through one filter per stage (serial stages in order or out of order,
// parallel stages parallel), each doing the stage's StageWork, with spec.tokens tokens on an arena
// of spec.threads threads. Returns the wall time in seconds; throws if an item is lost.
double run_onetbb(const pipeline::ExperimentSpec& spec);

}  // namespace pipelab::bench
