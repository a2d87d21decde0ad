// StageWork: what one stage does to one item, from its ServiceSpec — busy work for a drawn
// service time (fixed / exponential / uniform / bimodal, drawn from (seed, stage, item) so the
// same item gets the same time in every runtime) or a real kernel. Immutable after
// construction; any thread may call run() concurrently. bypassed() says whether an item skips the
// stage (a spec's `bypass` fraction), drawn from (seed, stage, item) too, so every runtime skips
// the same items.
#pragma once

#include <cmath>
#include <cstdint>

#include "pipelab/pipeline/spec.hpp"
#include "pipelab/workload/busy_work.hpp"
#include "pipelab/workload/kernels.hpp"
#include "pipelab/workload/mix.hpp"

namespace pipelab::workload {

class StageWork {
 public:
  StageWork(const pipeline::ServiceSpec& service, std::uint32_t seed, std::uint32_t stage,
            double bypass = 0)
      : s_(service), seed_(seed), stage_(stage), bypass_(bypass), busy_(&BusyWork::global()) {}

  bool bypassed(std::uint64_t item) const noexcept {
    return bypass_ > 0 && unit(key(seed_, stage_, item, kBypassSalt)) < bypass_;
  }

  // Service time in µs for this item (0 for kernels: their time is whatever the work takes).
  double draw_us(std::uint64_t item) const noexcept {
    using pipeline::ServiceKind;
    const double u = unit(key(seed_, stage_, item));
    switch (s_.kind) {
      case ServiceKind::kFixed:
        return s_.us;
      case ServiceKind::kExponential:
        return -s_.mean_us * std::log1p(-u);
      case ServiceKind::kUniform:
        return s_.min_us + u * (s_.max_us - s_.min_us);
      case ServiceKind::kBimodal:
        return unit(key(seed_, stage_, item, 1)) < s_.slow_fraction ? s_.slow_us : s_.fast_us;
      case ServiceKind::kKernel:
        return 0;
    }
    return 0;
  }

  // Serves the item: returns the value the next stage receives.
  std::uint64_t run(std::uint64_t item, std::uint64_t value) const noexcept {
    if (s_.kind == pipeline::ServiceKind::kKernel) {
      return run_kernel(s_.kernel, s_.size, item, value);
    }
    // The output must not depend on the chain (its length is calibrated per machine), but the
    // chain must stay observable or the loop is deleted: a volatile per-thread sink keeps it.
    sink_ = busy_->spin_us(draw_us(item), value | 1);
    return splitmix64(value ^ (std::uint64_t(stage_) << 56));
  }

 private:
  static constexpr std::uint32_t kBypassSalt = 2;  // 1 is the bimodal draw's

  pipeline::ServiceSpec s_;
  std::uint32_t seed_;
  std::uint32_t stage_;
  double bypass_;
  const BusyWork* busy_;
  static inline thread_local volatile std::uint64_t sink_ = 0;
};

}  // namespace pipelab::workload
