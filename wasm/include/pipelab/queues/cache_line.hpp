// Cache-line constants shared by every queue and the pipeline runtimes: one place to change them.
//
// kCacheLineBytes is the coherence unit of the x86-64 and ARM cores PipeLab runs on (and of the
// hosts a wasm module runs on; WebAssembly itself has no notion of it). kFalseSharingRangeBytes is
// twice that because Intel's adjacent-line prefetcher fetches lines in 128-byte aligned pairs, so
// two hot variables 64 bytes apart can still ping-pong. std::hardware_destructive_interference_size
// is not used: GCC warns that its value may change between compiler versions (an ABI hazard).
#pragma once

#include <cstddef>

namespace pipelab::queues {

inline constexpr std::size_t kCacheLineBytes = 64;
inline constexpr std::size_t kFalseSharingRangeBytes = 2 * kCacheLineBytes;

// Rounds a byte count up to whole cache lines, so a buffer never shares a line with its neighbour.
constexpr std::size_t round_up_to_lines(std::size_t bytes) noexcept {
  return (bytes + kCacheLineBytes - 1) / kCacheLineBytes * kCacheLineBytes;
}

}  // namespace pipelab::queues
