// Randomized stress settings shared by the lock-free tests: the long mode, the seed, and a seeded
// yield injector that test hooks call at chosen points (Sync::point of a structure, or the copy
// of a queue item, which happens between a queue's index check and its index publication) to
// widen the windows between the steps of an operation.
//   PIPELAB_STRESS=long     stress tests run kLongFactor times longer, and the model checker
//                           explores one preemption more (npm test runs the short mode)
//   PIPELAB_STRESS_SEED=n   the base seed (default 1, so runs are reproducible); each test prints
//                           the seed it used
// In wasm, std::this_thread::yield() does not give the core away (Emscripten only runs queued
// calls), so there the injected yields only reorder work around the call; natively and under TSan
// they hand the core to another thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace pipelab::test_stress {

inline constexpr std::uint64_t kLongFactor = 20;

inline bool long_mode() {
  const char* mode = std::getenv("PIPELAB_STRESS");
  return mode != nullptr && std::strcmp(mode, "long") == 0;
}

// `n` in the short mode, kLongFactor * n in the long one.
inline std::uint64_t scaled(std::uint64_t n) { return long_mode() ? n * kLongFactor : n; }

inline std::uint64_t base_seed() {
  const char* seed = std::getenv("PIPELAB_STRESS_SEED");
  return seed != nullptr ? std::strtoull(seed, nullptr, 10) : 1;
}

inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Yield injection: start(seed, probability) turns it on for every thread, stop() turns it off.
// Each thread draws from its own generator, seeded on its first maybe_yield() after start() with
// seed + the order in which threads got there (so threads a helper starts are covered too).
class YieldInjector {
 public:
  // probability_per_65536: chance per call of a yield, in 1/65536ths.
  static void start(std::uint64_t seed, std::uint32_t probability_per_65536) {
    Global& g = global();
    g.seed.store(seed, std::memory_order_relaxed);
    g.threshold.store(probability_per_65536, std::memory_order_relaxed);
    g.threads.store(0, std::memory_order_relaxed);
    g.yields.store(0, std::memory_order_relaxed);
    g.epoch.fetch_add(1, std::memory_order_release);
  }
  static void stop() { start(0, 0); }
  // Yields injected since start(), all threads together (those still running included).
  static std::uint64_t yields() { return global().yields.load(std::memory_order_relaxed); }

  static void maybe_yield() {
    thread_local Local local;
    const Global& g = global();
    const std::uint64_t epoch = g.epoch.load(std::memory_order_acquire);
    if (local.epoch != epoch) {
      local.epoch = epoch;
      local.threshold = g.threshold.load(std::memory_order_relaxed);
      local.state = g.seed.load(std::memory_order_relaxed) +
                    global().threads.fetch_add(1, std::memory_order_relaxed);
    }
    if (local.threshold == 0 || (splitmix64(local.state) & 0xFFFF) >= local.threshold) return;
    global().yields.fetch_add(1, std::memory_order_relaxed);
    std::this_thread::yield();
  }

 private:
  struct Global {
    std::atomic<std::uint64_t> epoch{0}, seed{0}, threads{0}, yields{0};
    std::atomic<std::uint32_t> threshold{0};
  };
  struct Local {
    std::uint64_t epoch = 0, state = 0;
    std::uint32_t threshold = 0;
  };
  static Global& global() {
    static Global g;
    return g;
  }
};

inline void maybe_yield() { YieldInjector::maybe_yield(); }

}  // namespace pipelab::test_stress
