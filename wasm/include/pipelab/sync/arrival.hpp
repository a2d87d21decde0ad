// What a barrier's arrive() returns, shared by SpinBarrier and BlockingBarrier (split-phase
// barriers: arrive() never waits; wait(token, stop) waits for the phase the token names).
#pragma once

#include <cstdint>

namespace pipelab::sync {

struct Arrival {
  // Names the phase this arrival belongs to; pass it to the barrier's wait() and passed().
  std::uint32_t token;
  // True for exactly one arrival per phase: the last one, which completed the phase (it need not
  // wait, and it is the one to count the phase).
  bool completed;
};

}  // namespace pipelab::sync
