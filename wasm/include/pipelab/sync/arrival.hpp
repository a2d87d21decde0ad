// What SpinBarrier and BlockingBarrier share: what arrive() returns (split-phase barriers:
// arrive() never waits; wait(token, stop) waits for the phase the token names), and their
// capacity rule.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace pipelab::sync {

struct Arrival {
  // Names the phase this arrival belongs to; pass it to the barrier's wait() and passed().
  std::uint32_t token;
  // True for exactly one arrival per phase: the last one, which completed the phase (it need not
  // wait, and it is the one to count the phase).
  bool completed;
};

// Capacity rule of both barriers: 1..kMaxBarrierParties threads.
inline constexpr std::uint32_t kMaxBarrierParties = 1u << 16;

// `parties` if it is in range; else throws std::invalid_argument naming `barrier` (the class).
inline std::uint32_t checked_parties(const char* barrier, std::uint32_t parties) {
  if (parties == 0 || parties > kMaxBarrierParties) {
    throw std::invalid_argument(std::string(barrier) + " parties: " + std::to_string(parties) +
                                " is out of range (allowed 1.." +
                                std::to_string(kMaxBarrierParties) + ")");
  }
  return parties;
}

}  // namespace pipelab::sync
