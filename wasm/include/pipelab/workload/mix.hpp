// Counter-based randomness: splitmix64 and a [0,1) draw keyed by (seed, stage, item).
//
// Why counter-based: a draw depends only on its key, never on which thread asks or in what
// order, so every runtime and thread count sees the same service times and kernel inputs for
// the same spec (the "identical results in every runtime" test relies on it). Pure functions.
#pragma once

#include <cstdint>

namespace pipelab::workload {

constexpr std::uint64_t splitmix64(std::uint64_t x) noexcept {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

constexpr std::uint64_t key(std::uint32_t seed, std::uint32_t stage, std::uint64_t item,
                            std::uint32_t salt = 0) noexcept {
  return splitmix64(splitmix64((std::uint64_t(seed) << 32) | (std::uint64_t(stage) << 16) | salt) ^
                    item);
}

// Uniform in [0, 1) with 53 random bits.
constexpr double unit(std::uint64_t bits) noexcept {
  return double(bits >> 11) * (1.0 / 9007199254740992.0);
}

}  // namespace pipelab::workload
