// ExperimentSpec: the one description of a run (contracts/spec.md), as a C++ value type.
//
// Plain data, no threads: built by parse_experiment_spec() (spec_parse.hpp) or directly in C++
// (tests, benches, the two-stage runtimes) and then checked with validate(): the ranges of
// contracts/spec-limits.json (through the generated spec_limits.hpp) and the cross-field rules,
// with the messages the JSON parser gives, e.g. `stages[1].threads: 0 is out of range (allowed
// 1..64)`. The rule helpers in `detail` word each message once for both paths. Times are
// microseconds. Defaults: threads = sum of stage threads (static/collapsed, two-stage) or 1
// (work-stealing, the serial two-stage variant, barrier), tokens = threads, queue = batch/16;
// two-stage: batch_items 1024, buffers = the parallel stage's threads + 2 (output); barrier:
// blocking barrier, os schedule, quantum_us = 4000 (the limits file).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "pipelab/pipeline/json_write.hpp"
#include "pipelab/pipeline/spec_limits.hpp"  // generated from contracts/spec-limits.json

namespace pipelab::pipeline {

// A bad spec: path() names the field (`stages[1].threads`, "" for the spec as a whole) and what()
// is "path: problem" (the problem alone for ""), as SpecError in src/spec/specFields.ts.
class SpecError : public std::invalid_argument {
 public:
  SpecError(std::string path, const std::string& problem)
      : std::invalid_argument(path.empty() ? problem : path + ": " + problem),
        path_(std::move(path)) {}
  // A message that names its field itself; path() is then "".
  explicit SpecError(const std::string& message) : std::invalid_argument(message) {}
  const std::string& path() const noexcept { return path_; }

 private:
  std::string path_;
};

enum class RuntimeKind : std::uint8_t {
  kStatic,
  kCollapsed,
  kWorkStealing,
  kTwoStageOutput,
  kTwoStageInput,
  kBarrier,
  kPhaser,
};
// The two-stage runtimes' `variant`: the serial stage plus N parallel threads, one thread per
// stage (Dempsey's dual-thread comparison point), or one thread doing both stages.
enum class TwoStageVariant : std::uint8_t { kTwoStage, kDualThread, kSerial };
// Barrier runtime: the barrier the threads meet at, and who places them on cores.
enum class BarrierKind : std::uint8_t { kSpin, kBlocking };
enum class Schedule : std::uint8_t { kOs, kPacked };
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
// Phaser runtime: what a stage's task does to each element (spec_graph.hpp), and how a stream
// combines its signallers' values in one phase.
enum class StageOp : std::uint8_t {
  kNone,  // not a phaser stage
  kRandom,
  kCount,
  kPass,
  kAvg,
  kAbs,
  kSplit,
  kHop,
  kToken,
  kSieve,
};
enum class StreamReduce : std::uint8_t { kAny, kSum, kMin, kMax };
// Phaser: adaptive = no batching on streams that lie on a cycle (cycle detection); always = keep
// them batched (a ring then deadlocks, which the runtime reports as a stall).
enum class Batching : std::uint8_t { kAdaptive, kAlways };

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
  std::uint32_t threads = std::uint32_t(limits::kDefaultStageThreads);
  ServiceSpec service;
  std::uint32_t emits = 1;      // items out per item served (dedup's FindAllAnchors)
  double bypass = 0;            // fraction of the items that skip this stage (dedup's Compress)
  StageOp op = StageOp::kNone;  // phaser only
  std::optional<std::string> parent{};  // phaser only: the stage whose task spawns this one
};

// Phaser only: a bounded phaser that the stages in `from` signal and those in `to` wait on.
struct StreamSpec {
  std::vector<std::string> from;
  std::vector<std::string> to;
  StreamReduce reduce = StreamReduce::kAny;
};

struct QueueSpec {
  QueueKind kind = QueueKind::kBatch;
  // nullopt = unbounded (open model)
  std::optional<std::uint32_t> capacity = std::uint32_t(limits::kDefaultQueueCapacity);
};

struct ExperimentSpec {
  RuntimeKind runtime = RuntimeKind::kStatic;
  std::vector<StageSpec> stages;
  std::uint32_t threads = 0;  // 0 = default (see file comment)
  std::uint32_t tokens = 0;   // 0 = default (threads)
  QueueSpec queue;
  // Two-stage runtimes only (printed and checked only for them).
  TwoStageVariant variant = TwoStageVariant::kTwoStage;
  std::uint32_t batch_items = 0;            // 0 = default (limits::kDefaultBatchItems)
  std::uint32_t buffers = 0;                // output only; 0 = default (parallel threads + 2)
  std::vector<StreamSpec> streams;          // phaser only
  std::uint32_t bound = 0;                  // phaser only; 0 = default
  std::uint32_t batch = 0;                  // phaser only; 0 = default
  Batching batching = Batching::kAdaptive;  // phaser only
  std::uint64_t items = 0;
  std::uint32_t seed = 0;
  std::optional<std::uint32_t> cores;
  // Barrier runtime only (contracts/spec.md): `items` are intervals, and the one stage's fixed
  // service is the work of one interval, all threads together, split evenly over them.
  BarrierKind barrier = BarrierKind::kBlocking;
  Schedule schedule = Schedule::kOs;
  std::uint32_t quantum_us = std::uint32_t(limits::kDefaultQuantumUs);
};

// Limits other headers size or check against (runtime.hpp, the two-stage runtimes).
inline constexpr std::uint32_t kMaxStages = std::uint32_t(limits::kStages.hi);
inline constexpr std::uint64_t kMaxItems = std::uint64_t(limits::kItems.hi);

inline const char* to_string(RuntimeKind k) noexcept {
  switch (k) {
    case RuntimeKind::kStatic:
      return "static";
    case RuntimeKind::kCollapsed:
      return "collapsed";
    case RuntimeKind::kWorkStealing:
      return "work-stealing";
    case RuntimeKind::kTwoStageOutput:
      return "two-stage-output";
    case RuntimeKind::kTwoStageInput:
      return "two-stage-input";
    case RuntimeKind::kBarrier:
      return "barrier";
    case RuntimeKind::kPhaser:
      return "phaser";
  }
  return "?";
}
inline const char* to_string(TwoStageVariant v) noexcept {
  switch (v) {
    case TwoStageVariant::kTwoStage:
      return "two-stage";
    case TwoStageVariant::kDualThread:
      return "dual-thread";
    case TwoStageVariant::kSerial:
      return "serial";
  }
  return "?";
}
inline const char* to_string(BarrierKind k) noexcept {
  return k == BarrierKind::kSpin ? "spin" : "blocking";
}
inline const char* to_string(Schedule s) noexcept { return s == Schedule::kOs ? "os" : "packed"; }
inline const char* to_string(StageOp op) noexcept {
  switch (op) {
    case StageOp::kNone:
      return "none";
    case StageOp::kRandom:
      return "random";
    case StageOp::kCount:
      return "count";
    case StageOp::kPass:
      return "pass";
    case StageOp::kAvg:
      return "avg";
    case StageOp::kAbs:
      return "abs";
    case StageOp::kSplit:
      return "split";
    case StageOp::kHop:
      return "hop";
    case StageOp::kToken:
      return "token";
    case StageOp::kSieve:
      return "sieve";
  }
  return "?";
}
inline const char* to_string(Batching b) noexcept {
  return b == Batching::kAlways ? "always" : "adaptive";
}
inline const char* to_string(StreamReduce r) noexcept {
  switch (r) {
    case StreamReduce::kAny:
      return "any";
    case StreamReduce::kSum:
      return "sum";
    case StreamReduce::kMin:
      return "min";
    case StreamReduce::kMax:
      return "max";
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
inline const char* to_string(ServiceKind k) noexcept {
  switch (k) {
    case ServiceKind::kFixed:
      return "fixed";
    case ServiceKind::kExponential:
      return "exponential";
    case ServiceKind::kUniform:
      return "uniform";
    case ServiceKind::kBimodal:
      return "bimodal";
    case ServiceKind::kKernel:
      return "kernel";
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

// Stages that emit several items or that items bypass: only the static and collapsed runtimes
// (and their twin) implement them; every other kind takes emits 1 and bypass 0.
inline bool takes_stage_flow(RuntimeKind k) noexcept {
  return k == RuntimeKind::kStatic || k == RuntimeKind::kCollapsed;
}

inline bool is_two_stage(RuntimeKind k) noexcept {
  return k == RuntimeKind::kTwoStageOutput || k == RuntimeKind::kTwoStageInput;
}
// Which of a two-stage runtime's stages is the parallel one (the other is serial-in-order).
inline std::size_t parallel_stage(RuntimeKind k) noexcept {
  return k == RuntimeKind::kTwoStageInput ? 1 : 0;
}

// The rules both validate() and the JSON parser apply, each message worded once (the wording of
// contracts/spec.md, shared with src/spec/experimentSpec.ts).
namespace detail {
using limits::Range;

inline std::string num(double v) { return json::number_text(v); }
inline std::string allowed(Range r) { return num(r.lo) + ".." + num(r.hi); }

// `note` is added inside the parentheses, after the range (e.g. why the bound is what it is).
inline void check_range(const std::string& path, double v, double lo, double hi,
                        const std::string& note = "") {
  if (!(v >= lo && v <= hi)) {
    throw SpecError(path,
                    num(v) + " is out of range (allowed " + num(lo) + ".." + num(hi) + note + ")");
  }
}
inline void check_range(const std::string& path, double v, Range r) {
  check_range(path, v, r.lo, r.hi);
}

inline std::string stage_path(std::size_t i) { return "stages[" + std::to_string(i) + "]"; }

// `n` entries of the list at `path` (`stages`, `streams`), as in "3 stages is out of range".
inline void check_count(const char* path, std::size_t n, Range r) {
  if (double(n) < r.lo || double(n) > r.hi) {
    throw SpecError(
        path, std::to_string(n) + " " + path + " is out of range (allowed " + allowed(r) + ")");
  }
}
inline void check_stage_count(std::size_t n) { check_count("stages", n, limits::kStages); }
inline void check_stream_count(std::size_t n) { check_count("streams", n, limits::kStreams); }

// Names are counted in UTF-8 bytes on both sides (TextEncoder in TypeScript).
inline void check_name(const std::string& path, const std::string& name) {
  const Range r = limits::kStageNameBytes;
  if (double(name.size()) < r.lo || double(name.size()) > r.hi) {
    throw SpecError(path, json::quote(name) + " has " + std::to_string(name.size()) +
                              " bytes (allowed " + allowed(r) + ")");
  }
}

// Serial stages need one thread under every runtime (work-stealing ignores the count).
inline void check_stage_threads(const std::string& path, StageMode mode, double threads) {
  check_range(path, threads, limits::kStageThreads);
  if (is_serial(mode) && threads != 1) {
    throw SpecError(
        path, num(threads) + " is out of range (allowed 1 for a " + to_string(mode) + " stage)");
  }
}

// Items out per item in after `stages` (the product of their emits).
inline std::uint64_t outputs_per_item(const std::vector<StageSpec>& stages) {
  std::uint64_t product = 1;
  for (const StageSpec& st : stages) product *= st.emits;
  return product;
}

// A stage's emits, given how many items one input item has become before it: static/collapsed
// only, and the items out stay within the items limit.
inline void check_emits(const std::string& path, RuntimeKind runtime, double emits,
                        std::uint64_t out_per_item) {
  check_range(path, emits, limits::kStageEmits);
  if (emits != 1 && !takes_stage_flow(runtime)) {
    throw SpecError(path, num(emits) + " is out of range (allowed 1 for the " + to_string(runtime) +
                              " runtime)");
  }
  const double most =
      std::min(limits::kStageEmits.hi, std::floor(limits::kItems.hi / double(out_per_item)));
  if (emits > most) {
    throw SpecError(path, num(emits) + " is out of range (allowed 1.." + num(most) + " after the " +
                              num(double(out_per_item)) + " items per item of the stages before)");
  }
}

// Only a parallel stage that is not the first and emits one item may be bypassed, and only under
// the static and collapsed runtimes.
inline void check_bypass(const std::string& path, RuntimeKind runtime, StageMode mode,
                         std::size_t index, std::uint32_t emits, double bypass) {
  check_range(path, bypass, limits::kStageBypass);
  if (bypass == 0) return;
  std::string rule;
  if (!takes_stage_flow(runtime)) {
    rule = std::string("the ") + to_string(runtime) + " runtime";
  } else if (mode != StageMode::kParallel) {
    rule = std::string("a ") + to_string(mode) + " stage";
  } else if (index == 0) {
    rule = "the first stage";
  } else if (emits != 1) {
    rule = "a stage that emits " + std::to_string(emits) + " items";
  }
  if (!rule.empty()) {
    throw SpecError(path, num(bypass) + " is out of range (allowed 0 for " + rule + ")");
  }
}

// Items in, so that the items out (items × outputs per item) stay within the items limit.
inline void check_items(double items, std::uint64_t out_per_item) {
  check_range("items", items, limits::kItems);
  const double most = std::floor(limits::kItems.hi / double(out_per_item));
  if (items > most) {
    throw SpecError("items", num(items) + " is out of range (allowed " + num(limits::kItems.lo) +
                                 ".." + num(most) + " with " + num(double(out_per_item)) +
                                 " items out per item in)");
  }
}

inline void check_uniform(const std::string& service_path, double min_us, double max_us) {
  if (min_us > max_us) {
    throw SpecError(service_path + ".minUs",
                    num(min_us) + " is above maxUs " + num(max_us) + " (allowed minUs <= maxUs)");
  }
}

// Static and collapsed runtimes: the thread count is the sum of the stage threads (a fused stage
// of the collapsed runtime is served by the sum of its threads). `given` is 0 when absent.
inline std::uint32_t stage_thread_total(std::uint32_t given, std::uint32_t sum) {
  if (given == 0) {
    if (double(sum) > limits::kThreads.hi) {
      throw SpecError("stages", std::to_string(sum) +
                                    " threads in total is out of range (allowed " +
                                    allowed(limits::kThreads) + ")");
    }
    return sum;
  }
  check_range("threads", given, limits::kThreads);
  if (given != sum) {
    throw SpecError("threads", std::to_string(given) +
                                   " differs from the sum of stage threads (allowed " +
                                   std::to_string(sum) + ")");
  }
  return given;
}

// Two-stage runtimes (src/spec/twoStageRules.ts has the same rules and messages): exactly two
// stages, the parallel one where the kind has it and the other serial-in-order.
inline void check_two_stage_shape(RuntimeKind kind, const std::vector<StageSpec>& stages) {
  if (stages.size() != 2) {
    throw SpecError("stages", std::to_string(stages.size()) +
                                  " stages is out of range (allowed 2 for the " + to_string(kind) +
                                  " runtime)");
  }
  for (std::size_t i = 0; i < 2; ++i) {
    const StageMode want =
        i == parallel_stage(kind) ? StageMode::kParallel : StageMode::kSerialInOrder;
    if (stages[i].mode != want) {
      throw SpecError(stage_path(i) + ".mode", json::quote(to_string(stages[i].mode)) +
                                                   " is not one of " + to_string(want) +
                                                   " (allowed for stage " + std::to_string(i) +
                                                   " of the " + to_string(kind) + " runtime)");
    }
  }
}

// Dual-thread and serial take one parallel thread; serial runs on one thread in all.
inline void check_variant_threads(RuntimeKind kind, TwoStageVariant v,
                                  const std::vector<StageSpec>& stages) {
  const std::size_t p = parallel_stage(kind);
  if (v != TwoStageVariant::kTwoStage && stages[p].threads != 1) {
    throw SpecError(stage_path(p) + ".threads", std::to_string(stages[p].threads) +
                                                    " is out of range (allowed 1 for the " +
                                                    to_string(v) + " variant)");
  }
}
inline void check_serial_variant_threads(double given) {
  check_range("threads", given, limits::kThreads);
  if (given != 1) {
    throw SpecError("threads",
                    num(given) + " differs from the serial variant's one thread (allowed 1)");
  }
}

// The most buffers of `batch_items` items the pool budget holds (and the buffers range allows).
inline double max_buffers(double batch_items) {
  const double per_buffer = batch_items * limits::kBudgetOutputLineBytes;
  const double fit = double(std::uint64_t(limits::kBudgetBufferPoolBytes / per_buffer));
  return fit < limits::kBuffers.hi ? fit : limits::kBuffers.hi;
}
inline void check_buffer_pool(double buffers, double batch_items) {
  const double max = max_buffers(batch_items);
  if (buffers > max) {
    throw SpecError("buffers",
                    num(buffers) + " is out of range (allowed " + num(limits::kBuffers.lo) + ".." +
                        num(max) + " for batches of " + num(batch_items) + " items at " +
                        num(limits::kBudgetOutputLineBytes) +
                        " bytes each: " + num(limits::kBudgetBufferPoolBytes) + " bytes in all)");
  }
}

// The barrier runtime's cross-field rules, after its own fields are read (barrierFields.ts in
// TypeScript): one stage, a fixed service (the work of one interval, all threads together), at
// least kBarrierThreadUs.lo µs of it per thread, and `cores` given for the packed schedule (the
// parser checks this before it reads `cores`, so it says whether `cores` was given).
inline void check_barrier(const ExperimentSpec& spec, bool cores_given) {
  if (spec.stages.size() != 1) {
    throw SpecError("stages", std::to_string(spec.stages.size()) +
                                  " stages is out of range (allowed 1 for the barrier runtime)");
  }
  const ServiceSpec& work = spec.stages[0].service;
  if (work.kind != ServiceKind::kFixed) {
    throw SpecError("stages[0].service.kind", json::quote(to_string(work.kind)) +
                                                  " is not one of fixed (for the barrier runtime)");
  }
  const double per_thread_us = work.us / spec.threads;
  if (per_thread_us < limits::kBarrierThreadUs.lo) {
    throw SpecError("stages[0].service.us",
                    num(work.us) + " over threads = " + num(spec.threads) + " is " +
                        num(per_thread_us) + " µs per thread, too short to measure (allowed " +
                        allowed(limits::kBarrierThreadUs) + " µs per thread)");
  }
  if (spec.schedule == Schedule::kPacked && !cores_given) {
    throw SpecError("cores", "missing (required for the packed schedule)");
  }
}

inline void check_service(const std::string& path, const ServiceSpec& s) {
  const Range us = limits::kServiceUs;
  switch (s.kind) {
    case ServiceKind::kFixed:
      check_range(path + ".us", s.us, us);
      break;
    case ServiceKind::kExponential:
      check_range(path + ".meanUs", s.mean_us, us);
      break;
    case ServiceKind::kUniform:
      check_range(path + ".minUs", s.min_us, us);
      check_range(path + ".maxUs", s.max_us, us);
      check_uniform(path, s.min_us, s.max_us);
      break;
    case ServiceKind::kBimodal:
      check_range(path + ".fastUs", s.fast_us, us);
      check_range(path + ".slowUs", s.slow_us, us);
      check_range(path + ".slowFraction", s.slow_fraction, limits::kSlowFraction);
      break;
    case ServiceKind::kKernel:
      check_range(path + ".size", s.size, limits::kKernelSize);
      break;
  }
}
}  // namespace detail

// Defined in spec_graph.hpp (included at the end of this file): the phaser graph's rules.
inline void check_phaser_graph(const std::vector<StageSpec>& stages,
                               const std::vector<StreamSpec>& streams);
inline void check_sieve_items(double items);
inline bool has_sieve(const std::vector<StageSpec>& stages);

// Checks a spec built in C++ (ranges and cross-field rules, in the JSON parser's order), then
// fills the defaults (threads, tokens, and the phaser's bound and batch). Throws SpecError naming
// the first bad field. What only JSON can get wrong (types, unknown fields, fields a runtime does
// not take) is the parser's; a phaser stage without an op is told so here too.
inline void validate(ExperimentSpec& spec) {
  using detail::check_range;
  const bool phaser = spec.runtime == RuntimeKind::kPhaser;
  detail::check_stage_count(spec.stages.size());
  std::uint32_t stage_thread_sum = 0;
  std::uint64_t out_per_item = 1;
  for (std::size_t i = 0; i < spec.stages.size(); ++i) {
    const StageSpec& st = spec.stages[i];
    const std::string p = detail::stage_path(i);
    detail::check_name(p + ".name", st.name);
    detail::check_stage_threads(p + ".threads", st.mode, st.threads);
    detail::check_service(p + ".service", st.service);
    detail::check_emits(p + ".emits", spec.runtime, st.emits, out_per_item);
    detail::check_bypass(p + ".bypass", spec.runtime, st.mode, i, st.emits, st.bypass);
    out_per_item *= st.emits;
    if (phaser && st.op == StageOp::kNone) throw SpecError(p + ".op", "missing (required)");
    if (!phaser && (st.op != StageOp::kNone || st.parent)) {
      throw SpecError(p, std::string("op and parent are for phaser stages, not the ") +
                             to_string(spec.runtime) + " runtime");
    }
    stage_thread_sum += st.threads;
  }
  const bool two_stage = is_two_stage(spec.runtime);
  if (two_stage) detail::check_two_stage_shape(spec.runtime, spec.stages);
  if (two_stage) detail::check_variant_threads(spec.runtime, spec.variant, spec.stages);
  if (spec.runtime == RuntimeKind::kWorkStealing || spec.runtime == RuntimeKind::kBarrier ||
      phaser) {
    if (spec.threads == 0) spec.threads = 1;
    check_range("threads", spec.threads, limits::kThreads);
  } else if (two_stage && spec.variant == TwoStageVariant::kSerial) {
    if (spec.threads == 0) spec.threads = 1;
    detail::check_serial_variant_threads(spec.threads);
  } else {
    spec.threads = detail::stage_thread_total(spec.threads, stage_thread_sum);
  }
  if (spec.tokens == 0) spec.tokens = spec.threads;
  check_range("tokens", spec.tokens, limits::kTokens);
  if (spec.queue.capacity)
    check_range("queue.capacity", *spec.queue.capacity, limits::kQueueCapacity);
  if (two_stage) {
    if (spec.batch_items == 0) spec.batch_items = std::uint32_t(limits::kDefaultBatchItems);
    check_range("batchItems", spec.batch_items, limits::kBatchItems);
  }
  if (spec.runtime == RuntimeKind::kTwoStageOutput) {
    if (spec.buffers == 0) spec.buffers = spec.stages[parallel_stage(spec.runtime)].threads + 2;
    check_range("buffers", spec.buffers, limits::kBuffers);
    detail::check_buffer_pool(spec.buffers, spec.batch_items);
  }
  if (spec.runtime == RuntimeKind::kBarrier) {
    check_range("quantumUs", spec.quantum_us, limits::kQuantumUs);
    detail::check_barrier(spec, spec.cores.has_value());
  }
  if (phaser) {
    detail::check_stream_count(spec.streams.size());
    check_phaser_graph(spec.stages, spec.streams);
    if (spec.bound == 0) spec.bound = std::uint32_t(limits::kDefaultBound);
    check_range("bound", spec.bound, limits::kBound);
    if (spec.batch == 0) spec.batch = std::uint32_t(limits::kDefaultBatch);
    check_range("batch", spec.batch, limits::kBatch);
  }
  detail::check_items(double(spec.items), out_per_item);
  if (phaser && has_sieve(spec.stages)) check_sieve_items(double(spec.items));
  if (spec.cores) check_range("cores", *spec.cores, limits::kCores);
}

}  // namespace pipelab::pipeline

#include "pipelab/pipeline/spec_graph.hpp"  // defines check_phaser_graph(), used by validate()
