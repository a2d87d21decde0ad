// ExperimentSpec in C++ (contracts/spec.md): the value the runtimes run, read from the JSON the
// page sends, and the checks a runtime needs before it runs one.
//
// The rules a person reads are TypeScript's (src/spec): the page validates every spec there, with
// the contract's messages, and sends the normalised spec here. C++ checks only what memory safety
// and the runtimes' own invariants need — counts and sizes it allocates by, ranges (a service time
// past the limit would hang a run), enum words, each kind's stage shape and defaults, the phaser
// graph's well-formedness (spec_graph.hpp) — with a short message naming the field. It accepts
// every spec TypeScript accepts (tests/wasm/valid-specs.test.ts runs generated ones) and ignores
// fields it does not know. A kind's own fields are read and checked by its KindRules, named by its
// row in runtime_kinds.hpp; a field 0 means its default (threads by the kind's rule, tokens =
// threads, the two-stage batch and pool, the phaser's bound and batch). Times are microseconds.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pipelab/pipeline/spec_fields.hpp"

namespace pipelab::pipeline {

// Each enum's words, in enum order: to_string() and the JSON reader use them.
enum class RuntimeKind : std::uint8_t {
  kStatic,
  kCollapsed,
  kWorkStealing,
  kTwoStageOutput,
  kTwoStageInput,
  kBarrier,
  kPhaser,
};
inline constexpr const char* kRuntimeWords[] = {
    "static",          "collapsed", "work-stealing", "two-stage-output",
    "two-stage-input", "barrier",   "phaser"};
// Two-stage runtimes: the serial stage plus N parallel threads, one thread per stage (Dempsey's
// dual-thread comparison point), or one thread doing both stages.
enum class TwoStageVariant : std::uint8_t { kTwoStage, kDualThread, kSerial };
inline constexpr const char* kVariantWords[] = {"two-stage", "dual-thread", "serial"};
enum class BarrierKind : std::uint8_t { kSpin, kBlocking };
inline constexpr const char* kBarrierWords[] = {"spin", "blocking"};
enum class Schedule : std::uint8_t { kOs, kPacked };
inline constexpr const char* kScheduleWords[] = {"os", "packed"};
enum class StageMode : std::uint8_t { kSerialInOrder, kSerialOutOfOrder, kParallel };
inline constexpr const char* kModeWords[] = {"serial-in-order", "serial-out-of-order", "parallel"};
enum class ServiceKind : std::uint8_t { kFixed, kExponential, kUniform, kBimodal, kKernel };
inline constexpr const char* kServiceWords[] = {"fixed", "exponential", "uniform", "bimodal",
                                                "kernel"};
enum class KernelName : std::uint8_t {
  kMatrix,
  kDedupHash,
  kDedupCompress,
  kFerretFeatures,
  kFerretRank,
  kBlackScholes,
  kFormatPrices,
};
inline constexpr const char* kKernelWords[] = {"matrix",          "dedup-hash",  "dedup-compress",
                                               "ferret-features", "ferret-rank", "black-scholes",
                                               "format-prices"};
enum class QueueKind : std::uint8_t { kBatch, kLamport, kCachedSpsc, kMutex, kVyukovMpmc };
inline constexpr const char* kQueueWords[] = {"batch", "lamport", "cached-spsc", "mutex",
                                              "vyukov-mpmc"};
// Phaser runtime: what a stage's task does to each element (kNone: not a phaser stage), how a
// stream combines its signallers' values in one phase, and whether streams on a cycle stay batched.
enum class StageOp : std::uint8_t {
  kNone,
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
inline constexpr const char* kOpWords[] = {"none", "random", "count", "pass",  "avg",
                                           "abs",  "split",  "hop",   "token", "sieve"};
enum class StreamReduce : std::uint8_t { kAny, kSum, kMin, kMax };
inline constexpr const char* kReduceWords[] = {"any", "sum", "min", "max"};
enum class Batching : std::uint8_t { kAdaptive, kAlways };
inline constexpr const char* kBatchingWords[] = {"adaptive", "always"};

inline const char* to_string(RuntimeKind k) noexcept { return kRuntimeWords[int(k)]; }
inline const char* to_string(TwoStageVariant v) noexcept { return kVariantWords[int(v)]; }
inline const char* to_string(BarrierKind k) noexcept { return kBarrierWords[int(k)]; }
inline const char* to_string(Schedule s) noexcept { return kScheduleWords[int(s)]; }
inline const char* to_string(StageMode m) noexcept { return kModeWords[int(m)]; }
inline const char* to_string(ServiceKind k) noexcept { return kServiceWords[int(k)]; }
inline const char* to_string(KernelName k) noexcept { return kKernelWords[int(k)]; }
inline const char* to_string(QueueKind k) noexcept { return kQueueWords[int(k)]; }
inline const char* to_string(StageOp op) noexcept { return kOpWords[int(op)]; }
inline const char* to_string(StreamReduce r) noexcept { return kReduceWords[int(r)]; }
inline const char* to_string(Batching b) noexcept { return kBatchingWords[int(b)]; }

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
  std::uint32_t threads = 0;
  std::uint32_t tokens = 0;
  QueueSpec queue;
  TwoStageVariant variant = TwoStageVariant::kTwoStage;  // two-stage runtimes
  std::uint32_t batch_items = 0;                         // two-stage runtimes
  std::uint32_t buffers = 0;                             // two-stage output
  std::vector<StreamSpec> streams;                       // phaser
  std::uint32_t bound = 0;                               // phaser
  std::uint32_t batch = 0;                               // phaser
  Batching batching = Batching::kAdaptive;               // phaser
  std::uint64_t items = 0;
  std::uint32_t seed = 0;
  std::optional<std::uint32_t> cores;
  // Barrier runtime: `items` are intervals, and the one stage's fixed service is the work of one
  // interval, all threads together, split evenly over them.
  BarrierKind barrier = BarrierKind::kBlocking;
  Schedule schedule = Schedule::kOs;
  std::uint32_t quantum_us = std::uint32_t(limits::kDefaultQuantumUs);
};

// Limits other headers size or check against (runtime.hpp, the two-stage runtimes).
inline constexpr std::uint32_t kMaxStages = std::uint32_t(limits::kStages.hi);
inline constexpr std::uint64_t kMaxItems = std::uint64_t(limits::kItems.hi);

inline bool is_serial(StageMode m) noexcept { return m != StageMode::kParallel; }
// Which of a two-stage runtime's stages is the parallel one (the other is serial-in-order).
inline std::size_t parallel_stage(RuntimeKind k) noexcept {
  return k == RuntimeKind::kTwoStageInput ? 1 : 0;
}
// Items out of the last stage per item in: the product of the stages' emits.
inline std::uint64_t outputs_per_item(const std::vector<StageSpec>& stages) {
  std::uint64_t product = 1;
  for (const StageSpec& st : stages) product *= st.emits;
  return product;
}

// A runtime kind's spec in C++: how many threads it must have (nullptr: a pool of any size,
// default 1), whether its stages may emit several items and be bypassed, and how it reads and
// checks its own top-level fields (filling their defaults).
struct KindRules {
  std::uint32_t (*threads)(const ExperimentSpec& spec) = nullptr;
  bool stage_flow = false;
  void (*read)(const json::Value& root, ExperimentSpec& spec) = nullptr;
  void (*check)(ExperimentSpec& spec) = nullptr;
};

namespace spec_read {
using json::Value;
using spec_fields::at;
using spec_fields::join;

inline constexpr limits::Range kUint32{0, 4294967295.0};
inline constexpr limits::Range kAnyNumber{-HUGE_VAL, HUGE_VAL};

// Integers as the field's type can hold them, numbers as they are; validate() checks the limits.
inline std::uint32_t u32(const Value* v, const std::string& path, std::uint32_t absent) {
  return v ? std::uint32_t(spec_fields::integer(*v, path, kUint32)) : absent;
}
inline double number(const Value& v, const std::string& path) {
  return spec_fields::number(v, path, kAnyNumber);
}
template <typename Enum, std::size_t N>
void word(const Value& obj, const std::string& path, const char* key, Enum& out,
          const char* const (&words)[N]) {
  if (const Value* v = obj.find(key)) out = spec_fields::word<Enum>(*v, join(path, key), words);
}

inline ServiceSpec service(const Value& v, const std::string& p) {
  spec_fields::object(v, p);
  ServiceSpec s;
  s.kind = spec_fields::word<ServiceKind>(spec_fields::require(v, p, "kind"), join(p, "kind"),
                                          kServiceWords);
  const std::pair<const char*, double*> numbers[] = {{"us", &s.us},
                                                     {"meanUs", &s.mean_us},
                                                     {"minUs", &s.min_us},
                                                     {"maxUs", &s.max_us},
                                                     {"fastUs", &s.fast_us},
                                                     {"slowUs", &s.slow_us},
                                                     {"slowFraction", &s.slow_fraction}};
  for (auto [key, field] : numbers) {
    if (const Value* t = v.find(key)) *field = number(*t, join(p, key));
  }
  word(v, p, "name", s.kernel, kKernelWords);
  s.size = u32(v.find("size"), join(p, "size"), s.size);
  return s;
}

inline StageSpec stage(const Value& v, const std::string& p) {
  using spec_fields::require;
  spec_fields::object(v, p);
  StageSpec st;
  st.name = spec_fields::string_of(require(v, p, "name"), join(p, "name"));
  st.mode = spec_fields::word<StageMode>(require(v, p, "mode"), join(p, "mode"), kModeWords);
  st.threads = u32(v.find("threads"), join(p, "threads"), st.threads);
  st.service = service(require(v, p, "service"), join(p, "service"));
  st.emits = u32(v.find("emits"), join(p, "emits"), 1);
  if (const Value* b = v.find("bypass")) st.bypass = number(*b, join(p, "bypass"));
  word(v, p, "op", st.op, kOpWords);
  if (const Value* n = v.find("parent")) st.parent = spec_fields::string_of(*n, join(p, "parent"));
  return st;
}

// The fields every kind has; the kind's KindRules::read reads the rest.
inline void common(const Value& root, ExperimentSpec& s) {
  const auto& stages = spec_fields::array(spec_fields::require(root, "", "stages"), "stages");
  for (std::size_t i = 0; i < stages.size(); ++i)
    s.stages.push_back(stage(stages[i], at("stages", i)));
  s.threads = u32(root.find("threads"), "threads", 0);
  s.tokens = u32(root.find("tokens"), "tokens", 0);
  if (const Value* q = root.find("queue")) {
    spec_fields::object(*q, "queue");
    word(*q, "queue", "kind", s.queue.kind, kQueueWords);
    const Value* cap = q->find("capacity");
    if (cap && cap->type == Value::Type::kNull)
      s.queue.capacity.reset();
    else
      s.queue.capacity = u32(cap, "queue.capacity", *s.queue.capacity);
  }
  const Value& items = spec_fields::require(root, "", "items");
  s.items = std::uint64_t(spec_fields::integer(items, "items", {0, 9007199254740992.0}));
  s.seed = u32(&spec_fields::require(root, "", "seed"), "seed", 0);
  if (const Value* c = root.find("cores")) s.cores = u32(c, "cores", 0);
}
}  // namespace spec_read

namespace spec_check {
using spec_fields::at;
using spec_fields::check_range;
using spec_fields::join;

inline void need(bool ok, const std::string& path, const std::string& problem) {
  if (!ok) throw SpecError(path, problem);
}
// `n` of `noun` ("3 stages", "40 bytes") within `r`.
inline void count(const std::string& path, std::size_t n, limits::Range r, const char* noun) {
  need(double(n) >= r.lo && double(n) <= r.hi, path,
       std::to_string(n) + " " + noun + " is out of range (allowed " + spec_fields::allowed(r) +
           ")");
}
inline std::uint32_t stage_thread_sum(const ExperimentSpec& s) {
  std::uint32_t sum = 0;
  for (const StageSpec& st : s.stages) sum += st.threads;
  return sum;
}

inline void service(const std::string& p, const ServiceSpec& s) {
  const std::pair<const char*, double> times[] = {{"us", s.us},          {"meanUs", s.mean_us},
                                                  {"minUs", s.min_us},   {"maxUs", s.max_us},
                                                  {"fastUs", s.fast_us}, {"slowUs", s.slow_us}};
  for (auto [key, us] : times) check_range(join(p, key), us, limits::kServiceUs);
  check_range(join(p, "slowFraction"), s.slow_fraction, limits::kSlowFraction);
  check_range(join(p, "size"), s.size, limits::kKernelSize);
  need(s.min_us <= s.max_us, join(p, "minUs"), "above maxUs");
}

// Static, collapsed: the threads are the sum of the stage threads.
inline constexpr KindRules kPipelineRules{stage_thread_sum, true};
inline constexpr KindRules kPoolRules{};  // work-stealing: a pool of any size

// Two-stage I/O (Dempsey, seed 002): two stages (the parallel one where the kind has it, the other
// serial-in-order), the variant's threads, the batch, and the output's buffer pool in its budget.
inline void read_two_stage(const json::Value& root, ExperimentSpec& s) {
  spec_read::word(root, "", "variant", s.variant, kVariantWords);
  s.batch_items = spec_read::u32(root.find("batchItems"), "batchItems", 0);
  s.buffers = spec_read::u32(root.find("buffers"), "buffers", 0);
}
inline void check_two_stage(ExperimentSpec& s) {
  const std::size_t p = parallel_stage(s.runtime);
  need(s.stages.size() == 2, "stages", "the two-stage runtimes take 2 stages");
  for (std::size_t i = 0; i < 2; ++i) {
    const StageMode want = i == p ? StageMode::kParallel : StageMode::kSerialInOrder;
    need(s.stages[i].mode == want, join(at("stages", i), "mode"),
         std::string("must be ") + to_string(want));
  }
  need(s.variant == TwoStageVariant::kTwoStage || s.stages[p].threads == 1,
       join(at("stages", p), "threads"), "the dual-thread and serial variants take 1 thread");
  if (s.batch_items == 0) s.batch_items = std::uint32_t(limits::kDefaultBatchItems);
  check_range("batchItems", s.batch_items, limits::kBatchItems);
  if (s.runtime != RuntimeKind::kTwoStageOutput) return;
  if (s.buffers == 0) s.buffers = s.stages[p].threads + 2;
  check_range("buffers", s.buffers, limits::kBuffers);
  need(double(s.buffers) * s.batch_items * limits::kBudgetOutputLineBytes <=
           limits::kBudgetBufferPoolBytes,
       "buffers", "the pool exceeds its memory budget");
}
inline std::uint32_t two_stage_threads(const ExperimentSpec& s) {
  return s.variant == TwoStageVariant::kSerial ? 1 : stage_thread_sum(s);
}
inline constexpr KindRules kTwoStageRules{two_stage_threads, false, read_two_stage,
                                          check_two_stage};

// Barrier (thread packing, seed 004): one stage, whose fixed service is an interval's work.
inline void read_barrier(const json::Value& root, ExperimentSpec& s) {
  spec_read::word(root, "", "barrier", s.barrier, kBarrierWords);
  spec_read::word(root, "", "schedule", s.schedule, kScheduleWords);
  s.quantum_us = spec_read::u32(root.find("quantumUs"), "quantumUs", s.quantum_us);
}
inline void check_barrier(ExperimentSpec& s) {
  need(s.stages.size() == 1, "stages", "the barrier runtime takes 1 stage");
  need(s.stages[0].service.kind == ServiceKind::kFixed, "stages[0].service.kind", "must be fixed");
  check_range("quantumUs", s.quantum_us, limits::kQuantumUs);
  need(s.schedule == Schedule::kOs || s.cores, "cores",
       "missing (required for the packed schedule)");
}
inline constexpr KindRules kBarrierRules{nullptr, false, read_barrier, check_barrier};
}  // namespace spec_check

// Defined in spec_graph.hpp (included at the end of this file): the phaser's own fields and graph.
namespace spec_check {
inline void read_phaser(const json::Value& root, ExperimentSpec& s);
inline void check_phaser(ExperimentSpec& s);
inline constexpr KindRules kPhaserRules{nullptr, false, read_phaser, check_phaser};
}  // namespace spec_check
using spec_check::kBarrierRules;
using spec_check::kPhaserRules;
using spec_check::kPipelineRules;
using spec_check::kPoolRules;
using spec_check::kTwoStageRules;

// Checks a spec (read from JSON, or built in C++) for what a runtime needs, with the rules of its
// kind, and fills the defaults. Throws SpecError naming the first bad field.
inline void validate(ExperimentSpec& s, const KindRules& kind) {
  using namespace spec_check;
  count("stages", s.stages.size(), limits::kStages, "stages");
  std::uint64_t out_per_item = 1;
  for (std::size_t i = 0; i < s.stages.size(); ++i) {
    const StageSpec& st = s.stages[i];
    const std::string p = at("stages", i);
    count(join(p, "name"), st.name.size(), limits::kStageNameBytes, "bytes");
    check_range(join(p, "threads"), st.threads, limits::kStageThreads);
    need(!is_serial(st.mode) || st.threads == 1, join(p, "threads"), "a serial stage has 1 thread");
    service(join(p, "service"), st.service);
    check_range(join(p, "emits"), st.emits, limits::kStageEmits);
    check_range(join(p, "bypass"), st.bypass, limits::kStageBypass);
    need(kind.stage_flow || st.emits == 1, join(p, "emits"), "1 for this runtime");
    need(kind.stage_flow || st.bypass == 0, join(p, "bypass"), "0 for this runtime");
    need(st.bypass == 0 || (st.mode == StageMode::kParallel && i > 0 && st.emits == 1),
         join(p, "bypass"), "only a parallel stage after the first that emits 1 item is bypassed");
    out_per_item *= st.emits;
    need(double(out_per_item) <= limits::kItems.hi, join(p, "emits"), "too many items out");
  }
  if (kind.check) kind.check(s);
  const std::uint32_t want = kind.threads ? kind.threads(s) : 0;
  if (s.threads == 0) s.threads = want ? want : 1;
  check_range("threads", s.threads, limits::kThreads);
  need(want == 0 || s.threads == want, "threads", "must be " + std::to_string(want) + " here");
  if (s.tokens == 0) s.tokens = s.threads;
  check_range("tokens", s.tokens, limits::kTokens);
  if (s.queue.capacity) check_range("queue.capacity", *s.queue.capacity, limits::kQueueCapacity);
  check_range("items", double(s.items), limits::kItems);
  need(double(s.items * out_per_item) <= limits::kItems.hi, "items", "too many items out");
  if (s.cores) check_range("cores", *s.cores, limits::kCores);
}

}  // namespace pipelab::pipeline

#include "pipelab/pipeline/spec_graph.hpp"  // defines the phaser's rules, used by kPhaserRules
