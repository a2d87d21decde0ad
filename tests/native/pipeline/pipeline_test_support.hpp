// Helpers for the runtime tests: spec builders and the invariant checks every gold run asserts.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "pipelab/pipeline/runtime_kinds.hpp"
#include "support/thread_sanitizer.hpp"  // PIPELAB_TEST_TSAN: the pipeline tests size runs down

namespace pipelab::pipeline::testing {

#if defined(PIPELAB_TEST_TSAN)
inline constexpr std::uint64_t kGoldItems = 1500;
#elif defined(__EMSCRIPTEN__)
inline constexpr std::uint64_t kGoldItems = 2000;
#else
inline constexpr std::uint64_t kGoldItems = 10000;
#endif

// Requests cancel and waits for every thread to exit; returns the ms between the two, then joins.
inline double cancel_and_time_exit_ms(Runtime& rt) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  rt.request_cancel();
  while (!rt.finished()) std::this_thread::sleep_for(std::chrono::microseconds(100));
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  rt.join();
  return ms;
}

inline StageSpec stage(const char* name, StageMode mode, std::uint32_t threads = 1, double us = 0) {
  return StageSpec{name, mode, threads, ServiceSpec::fixed(us)};
}

// in-order → parallel → out-of-order → parallel → in-order: every mode, reorder after parallel.
// The parallel stages draw exponential service times (mean 1 µs) so items overtake each other.
inline ExperimentSpec mixed_spec(RuntimeKind rt, std::uint32_t par_threads, std::uint64_t items) {
  ExperimentSpec s;
  s.runtime = rt;
  s.stages = {stage("in", StageMode::kSerialInOrder), stage("a", StageMode::kParallel, par_threads),
              stage("mid", StageMode::kSerialOutOfOrder),
              stage("b", StageMode::kParallel, par_threads),
              stage("out", StageMode::kSerialInOrder)};
  ServiceSpec jitter;
  jitter.kind = ServiceKind::kExponential;
  jitter.mean_us = 1;
  s.stages[1].service = s.stages[3].service = jitter;
  s.items = items;
  s.seed = 11;
  return s;
}

inline RunOptions checking() {
  RunOptions o;
  o.check_invariants = true;
  o.collect_outputs = true;
  o.ring_capacity = 256;
  return o;
}

// Runs to completion and asserts the invariants every runtime owes; returns outputs by item.
inline std::vector<std::uint64_t> run_and_check(const ExperimentSpec& spec,
                                                const std::string& label) {
  auto rt = make_runtime(spec, checking());
  rt->run();
  const RunChecks& c = rt->checks();
  const std::uint64_t items_out = spec.items * outputs_per_item(spec.stages);
  EXPECT_EQ(rt->items_out(), items_out) << label;
  EXPECT_EQ(rt->items_completed(), items_out) << label;
  EXPECT_EQ(c.count_delivered(1), items_out) << label << ": each item out exactly once";
  EXPECT_EQ(c.serial_overlaps(), 0u) << label << ": serial stage ran concurrently with itself";
  EXPECT_EQ(c.order_violations(), 0u) << label << ": serial-in-order stage saw items out of order";
  if (spec.runtime == RuntimeKind::kWorkStealing) {
    const std::uint32_t tokens = rt->spec().tokens;
    EXPECT_LE(c.max_in_flight(), tokens) << label << ": items in flight exceeded tokens";
    EXPECT_GE(c.max_in_flight(), 1u) << label;
  }
  if (auto* st = dynamic_cast<StaticRuntime*>(rt.get())) {
    for (std::size_t l = 0; l < st->links().size(); ++l) {
      const Link& link = *st->links()[l];
      const std::uint64_t cap = link.effective_capacity();
      const std::uint64_t consumers = st->groups()[l + 1].threads;
      if (cap != 0) {
        EXPECT_LE(link.max_occupancy(), cap + consumers - 1)
            << label << ": link " << l << " (" << link.name() << ") over capacity";
      }
    }
  }
  return c.outputs();
}

}  // namespace pipelab::pipeline::testing
