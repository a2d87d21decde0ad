// ExperimentSpec: the one description of a run (contracts/spec.md), as a C++ value type.
//
// Plain data, no threads: built by parse_experiment_spec() (spec_parse.hpp) or directly in C++
// (tests, benches) and then checked with validate(), which applies the same ranges and
// cross-field rules as the JSON parser and throws SpecError naming the field path, e.g.
// `stages[1].threads: 0 is out of range (allowed 1..64)`. Times are microseconds.
// Defaults follow contracts/spec.md: threads = sum of stage threads (static/collapsed) or 1
// (work-stealing), tokens = threads, queue = batch/16.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace pipelab::pipeline {

class SpecError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

enum class RuntimeKind : std::uint8_t { kStatic, kCollapsed, kWorkStealing };
enum class StageMode : std::uint8_t { kSerialInOrder, kSerialOutOfOrder, kParallel };
enum class ServiceKind : std::uint8_t { kFixed, kExponential, kUniform, kBimodal, kKernel };
enum class KernelName : std::uint8_t {
  kMatrix,
  kDedupHash,
  kDedupCompress,
  kFerretFeatures,
  kFerretRank,
  kBlackScholes,
  kFormatPrices,
};
enum class QueueKind : std::uint8_t { kBatch, kLamport, kCachedSpsc, kMutex, kVyukovMpmc };

struct ServiceSpec {
  ServiceKind kind = ServiceKind::kFixed;
  double us = 0;             // fixed
  double mean_us = 0;        // exponential
  double min_us = 0;         // uniform
  double max_us = 0;         // uniform
  double fast_us = 0;        // bimodal
  double slow_us = 0;        // bimodal
  double slow_fraction = 0;  // bimodal
  KernelName kernel = KernelName::kMatrix;
  std::uint32_t size = 16;  // kernel problem size

  static ServiceSpec fixed(double us) {
    ServiceSpec s;
    s.us = us;
    return s;
  }
  static ServiceSpec kernel_of(KernelName k, std::uint32_t size) {
    ServiceSpec s;
    s.kind = ServiceKind::kKernel;
    s.kernel = k;
    s.size = size;
    return s;
  }
};

struct StageSpec {
  std::string name;
  StageMode mode = StageMode::kParallel;
  std::uint32_t threads = 1;
  ServiceSpec service;
};

struct QueueSpec {
  QueueKind kind = QueueKind::kBatch;
  std::optional<std::uint32_t> capacity = 16;  // nullopt = unbounded (open model)
};

struct ExperimentSpec {
  RuntimeKind runtime = RuntimeKind::kStatic;
  std::vector<StageSpec> stages;
  std::uint32_t threads = 0;  // 0 = default (see file comment)
  std::uint32_t tokens = 0;   // 0 = default (threads)
  QueueSpec queue;
  std::uint64_t items = 0;
  std::uint32_t seed = 0;
  std::optional<std::uint32_t> cores;
};

// Limits shared with src/spec/experimentSpec.ts.
inline constexpr std::uint32_t kMaxStages = 16;
inline constexpr std::uint32_t kMaxStageThreads = 64;
inline constexpr std::uint32_t kMaxThreads = 256;
inline constexpr std::uint32_t kMaxTokens = 4096;
inline constexpr std::uint32_t kMaxCapacity = 65536;
inline constexpr std::uint64_t kMaxItems = 100000000;
inline constexpr double kMaxServiceUs = 1e6;
inline constexpr std::uint32_t kMaxKernelSize = 4096;

inline const char* to_string(RuntimeKind k) noexcept {
  switch (k) {
    case RuntimeKind::kStatic:
      return "static";
    case RuntimeKind::kCollapsed:
      return "collapsed";
    case RuntimeKind::kWorkStealing:
      return "work-stealing";
  }
  return "?";
}
inline const char* to_string(StageMode m) noexcept {
  switch (m) {
    case StageMode::kSerialInOrder:
      return "serial-in-order";
    case StageMode::kSerialOutOfOrder:
      return "serial-out-of-order";
    case StageMode::kParallel:
      return "parallel";
  }
  return "?";
}
inline const char* to_string(QueueKind k) noexcept {
  switch (k) {
    case QueueKind::kBatch:
      return "batch";
    case QueueKind::kLamport:
      return "lamport";
    case QueueKind::kCachedSpsc:
      return "cached-spsc";
    case QueueKind::kMutex:
      return "mutex";
    case QueueKind::kVyukovMpmc:
      return "vyukov-mpmc";
  }
  return "?";
}
inline const char* to_string(KernelName k) noexcept {
  switch (k) {
    case KernelName::kMatrix:
      return "matrix";
    case KernelName::kDedupHash:
      return "dedup-hash";
    case KernelName::kDedupCompress:
      return "dedup-compress";
    case KernelName::kFerretFeatures:
      return "ferret-features";
    case KernelName::kFerretRank:
      return "ferret-rank";
    case KernelName::kBlackScholes:
      return "black-scholes";
    case KernelName::kFormatPrices:
      return "format-prices";
  }
  return "?";
}

inline bool is_serial(StageMode m) noexcept { return m != StageMode::kParallel; }

namespace detail {
inline std::string num(double v) {
  std::string s = std::to_string(v);
  // std::to_string prints 6 decimals; trim them so messages read like the JSON input.
  if (s.find('.') != std::string::npos) {
    while (!s.empty() && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
  }
  return s;
}
// `note` is added inside the parentheses, after the range (e.g. why the bound is what it is).
inline void check_range(const std::string& path, double v, double lo, double hi,
                        const std::string& note = "") {
  if (!(v >= lo && v <= hi)) {
    throw SpecError(path + ": " + num(v) + " is out of range (allowed " + num(lo) + ".." + num(hi) +
                    note + ")");
  }
}
}  // namespace detail

// Checks ranges and cross-field rules, then fills the defaults (threads, tokens). Throws
// SpecError naming the first bad field.
inline void validate(ExperimentSpec& spec) {
  using detail::check_range;
  const auto n = spec.stages.size();
  check_range("stages.length", double(n), 1, kMaxStages);
  std::uint32_t stage_thread_sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const StageSpec& st = spec.stages[i];
    const std::string p = "stages[" + std::to_string(i) + "]";
    if (st.name.empty() || st.name.size() > 32) {
      throw SpecError(p + ".name: length " + std::to_string(st.name.size()) +
                      " is out of range (allowed 1..32)");
    }
    check_range(p + ".threads", st.threads, 1, kMaxStageThreads);
    if (st.mode != StageMode::kParallel && st.threads != 1) {
      throw SpecError(p + ".threads: " + std::to_string(st.threads) + " must be 1 for a " +
                      to_string(st.mode) + " stage (allowed 1..1)");
    }
    stage_thread_sum += st.threads;
    const ServiceSpec& s = st.service;
    const std::string sp = p + ".service";
    switch (s.kind) {
      case ServiceKind::kFixed:
        check_range(sp + ".us", s.us, 0, kMaxServiceUs);
        break;
      case ServiceKind::kExponential:
        check_range(sp + ".meanUs", s.mean_us, 0, kMaxServiceUs);
        break;
      case ServiceKind::kUniform:
        check_range(sp + ".minUs", s.min_us, 0, kMaxServiceUs);
        check_range(sp + ".maxUs", s.max_us, s.min_us, kMaxServiceUs);
        break;
      case ServiceKind::kBimodal:
        check_range(sp + ".fastUs", s.fast_us, 0, kMaxServiceUs);
        check_range(sp + ".slowUs", s.slow_us, 0, kMaxServiceUs);
        check_range(sp + ".slowFraction", s.slow_fraction, 0, 1);
        break;
      case ServiceKind::kKernel:
        check_range(sp + ".size", s.size, 1, kMaxKernelSize);
        break;
    }
  }
  const bool ws = spec.runtime == RuntimeKind::kWorkStealing;
  if (spec.threads == 0) spec.threads = ws ? 1 : stage_thread_sum;
  check_range("threads", spec.threads, 1, kMaxThreads);
  if (!ws && spec.threads != stage_thread_sum) {
    throw SpecError("threads: " + std::to_string(spec.threads) +
                    " must equal the sum of stage threads (" + std::to_string(stage_thread_sum) +
                    ") for the " + to_string(spec.runtime) + " runtime");
  }
  if (spec.tokens == 0) spec.tokens = std::min<std::uint32_t>(spec.threads, kMaxTokens);
  check_range("tokens", spec.tokens, 1, kMaxTokens);
  if (spec.queue.capacity) check_range("queue.capacity", *spec.queue.capacity, 1, kMaxCapacity);
  check_range("items", double(spec.items), 1, double(kMaxItems));
  if (spec.cores) check_range("cores", *spec.cores, 1, kMaxThreads);
}

}  // namespace pipelab::pipeline
