// oneTBB's parallel_pipeline running an ExperimentSpec (see onetbb_pipeline.hpp).
#include "onetbb_pipeline.hpp"

#include <oneapi/tbb/parallel_pipeline.h>
#include <oneapi/tbb/task_arena.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "pipelab/pipeline/item.hpp"
#include "pipelab/workload/mix.hpp"
#include "pipelab/workload/stage_work.hpp"

namespace pipelab::bench {

using namespace pipelab::pipeline;
using namespace oneapi::tbb;

namespace {

filter_mode mode_of(StageMode mode) {
  switch (mode) {
    case StageMode::kSerialInOrder:
      return filter_mode::serial_in_order;
    case StageMode::kSerialOutOfOrder:
      return filter_mode::serial_out_of_order;
    case StageMode::kParallel:
      return filter_mode::parallel;
  }
  return filter_mode::parallel;
}

}  // namespace

double run_onetbb(const ExperimentSpec& spec) {
  std::vector<workload::StageWork> work;
  for (std::uint32_t s = 0; s < spec.stages.size(); ++s) {
    work.emplace_back(spec.stages[s].service, spec.seed, s);
  }
  // Atomic: a parallel first filter is called concurrently.
  std::atomic<std::uint64_t> next{0};
  filter<void, PipelineItem> chain = make_filter<void, PipelineItem>(
      mode_of(spec.stages[0].mode), [&](flow_control& fc) -> PipelineItem {
        const std::uint64_t seq = next.fetch_add(1, std::memory_order_relaxed);
        if (seq >= spec.items) {
          fc.stop();
          return {};
        }
        PipelineItem it{seq, workload::splitmix64(seq ^ spec.seed)};
        it.value = work[0].run(it.seq, it.value);
        return it;
      });
  for (std::size_t s = 1; s + 1 < spec.stages.size(); ++s) {
    chain = chain & make_filter<PipelineItem, PipelineItem>(
                        mode_of(spec.stages[s].mode), [&, s](PipelineItem it) {
                          it.value = work[s].run(it.seq, it.value);
                          return it;
                        });
  }
  std::atomic<std::uint64_t> done{0};
  const std::size_t last = spec.stages.size() - 1;
  const filter_mode last_mode = last == 0 ? filter_mode::parallel : mode_of(spec.stages[last].mode);
  filter<void, void> whole =
      chain & make_filter<PipelineItem, void>(last_mode, [&, last](PipelineItem it) {
        if (last != 0) work[last].run(it.seq, it.value);
        done.fetch_add(1, std::memory_order_relaxed);
      });
  task_arena arena(int(spec.threads));
  const auto t0 = std::chrono::steady_clock::now();
  arena.execute([&] { parallel_pipeline(spec.tokens, whole); });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (done.load() != spec.items) {
    throw std::runtime_error("onetbb: " + std::to_string(done.load()) + " of " +
                             std::to_string(spec.items) + " items came out");
  }
  return seconds;
}

}  // namespace pipelab::bench
