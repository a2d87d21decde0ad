// parse_experiment_spec(): ExperimentSpec JSON (contracts/spec.md) → validated, normalised spec.
//
// The C++ twin of src/spec/experimentSpec.ts, check for check in the same order, so the first
// problem of a bad spec is the same field with the same message on both sides; the case table
// tests/fixtures/spec-cases.json holds them to it. Every unknown field, field the runtime does not
// take, wrong type, non-integer count, unknown enum word or out-of-range value throws SpecError
// naming the field path and what is allowed; syntax errors throw SpecError naming the byte
// offset. Runtime kinds are declared in runtime_kinds() below: their top-level fields and how
// they derive threads and tokens. Pure functions, no state.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pipelab/pipeline/json.hpp"
#include "pipelab/pipeline/spec.hpp"
#include "pipelab/pipeline/spec_fields.hpp"

namespace pipelab::pipeline {

namespace spec_detail {

using json::Value;
using spec_fields::Names;

// Every top-level field, in the order messages list them.
inline const Names kTopFields = {"runtime", "stages",     "threads",  "tokens",  "queue",
                                 "variant", "batchItems", "buffers",  "streams", "bound",
                                 "batch",   "batching",   "items",    "seed",    "cores",
                                 "barrier", "schedule",   "quantumUs"};
inline const Names kStageFields = {"name", "mode", "threads", "service", "emits", "bypass"};
inline const Names kPhaserStageFields = {"name",  "mode",   "threads", "service",
                                         "emits", "bypass", "op",      "parent"};
inline const Names kQueueFields = {"kind", "capacity"};
inline const Names kStreamFields = {"from", "to", "reduce"};

struct RuntimeRules {
  RuntimeKind kind;
  // The top-level fields it takes; any other known field is "not taken by the <kind> runtime".
  Names fields;
  // Fields a normalised spec carries for every runtime though this one takes none of them:
  // accepted only at their normalised value, so a normalised spec parses to itself.
  Names carries;
  // The thread count after defaults, checked against the stages.
  std::uint32_t (*threads)(const Value& root, const std::vector<StageSpec>& stages);
  // The token count after defaults.
  std::uint32_t (*tokens)(const Value& root, std::uint32_t threads, const RuntimeRules& self);
  // The stage shape, checked once the stages are read (two-stage kinds), and the kind's own
  // fields, read after `queue` (two-stage: variant, batchItems, buffers; barrier: barrier,
  // schedule, quantumUs and its rules; phaser: streams and the graph rules, bound, batch,
  // batching). Null for the other kinds.
  void (*check_stages)(RuntimeKind kind, const std::vector<StageSpec>& stages) = nullptr;
  void (*own_fields)(const Value& root, ExperimentSpec& spec) = nullptr;
};

inline std::string runtime_variant(RuntimeKind k) {
  return std::string("the ") + to_string(k) + " runtime";
}

inline std::uint32_t sum_of_stage_threads(const Value& root, const std::vector<StageSpec>& stages) {
  std::uint32_t sum = 0;
  for (const StageSpec& st : stages) sum += st.threads;
  const Value* t = root.find("threads");
  const auto given = t ? std::uint32_t(spec_fields::integer(*t, "threads", limits::kThreads)) : 0;
  return detail::stage_thread_total(given, sum);
}

inline std::uint32_t worker_threads(const Value& root, const std::vector<StageSpec>&) {
  const Value* t = root.find("threads");
  return t ? std::uint32_t(spec_fields::integer(*t, "threads", limits::kThreads)) : 1;
}

inline std::uint32_t tokens_in_flight(const Value& root, std::uint32_t threads,
                                      const RuntimeRules&) {
  const Value* t = root.find("tokens");
  return t ? std::uint32_t(spec_fields::integer(*t, "tokens", limits::kTokens)) : threads;
}

// A runtime without tokens carries tokens = threads in its normalised spec.
inline std::uint32_t tokens_as_threads(const Value& root, std::uint32_t threads,
                                       const RuntimeRules& self) {
  const Value* t = root.find("tokens");
  if (t && !(t->type == Value::Type::kNumber && t->number == threads)) {
    spec_fields::not_taken("tokens", self.fields, runtime_variant(self.kind));
  }
  return threads;
}

// Two-stage kinds (src/spec/twoStageRules.ts): the variant, then the thread count — the sum of
// the stage threads, or 1 for the serial variant (one thread does both stages).
inline TwoStageVariant read_variant(const Value& root) {
  const Value* v = root.find("variant");
  return v ? spec_fields::word(*v, "variant",
                               std::vector<TwoStageVariant>{TwoStageVariant::kTwoStage,
                                                            TwoStageVariant::kDualThread,
                                                            TwoStageVariant::kSerial})
           : TwoStageVariant::kTwoStage;
}

template <RuntimeKind Kind>
std::uint32_t two_stage_threads(const Value& root, const std::vector<StageSpec>& stages) {
  const TwoStageVariant variant = read_variant(root);
  detail::check_variant_threads(Kind, variant, stages);
  if (variant != TwoStageVariant::kSerial) return sum_of_stage_threads(root, stages);
  if (const Value* t = root.find("threads")) {
    detail::check_serial_variant_threads(spec_fields::integer(*t, "threads", limits::kThreads));
  }
  return 1;
}

inline void two_stage_fields(const Value& root, ExperimentSpec& spec) {
  spec.variant = read_variant(root);
  const Value* b = root.find("batchItems");
  spec.batch_items = b ? std::uint32_t(spec_fields::integer(*b, "batchItems", limits::kBatchItems))
                       : std::uint32_t(limits::kDefaultBatchItems);
  if (spec.runtime != RuntimeKind::kTwoStageOutput) return;
  const Value* n = root.find("buffers");
  spec.buffers = n ? std::uint32_t(spec_fields::integer(*n, "buffers", limits::kBuffers))
                   : spec.stages[parallel_stage(spec.runtime)].threads + 2;
  detail::check_buffer_pool(spec.buffers, spec.batch_items);
}

// The barrier runtime's own fields, after `queue`, then its rules (src/spec/barrierFields.ts):
// barrier, schedule, quantumUs; then detail::check_barrier (one fixed stage, enough work per
// thread, `cores` given when packed; its value is read after `seed`, as for every kind).
inline void barrier_fields(const Value& root, ExperimentSpec& spec) {
  using namespace spec_fields;
  if (const Value* b = root.find("barrier")) {
    spec.barrier =
        word(*b, "barrier", std::vector<BarrierKind>{BarrierKind::kSpin, BarrierKind::kBlocking});
  }
  if (const Value* s = root.find("schedule")) {
    spec.schedule = word(*s, "schedule", std::vector<Schedule>{Schedule::kOs, Schedule::kPacked});
  }
  if (const Value* q = root.find("quantumUs")) {
    spec.quantum_us = std::uint32_t(integer(*q, "quantumUs", limits::kQuantumUs));
  }
  detail::check_barrier(spec, root.find("cores") != nullptr);
}

inline std::vector<std::string> parse_names(const Value& v, const std::string& path) {
  using namespace spec_fields;
  std::vector<std::string> names;
  const Value& list = array(v, path, limits::kStreamStages, "stages");
  if (double(list.array.size()) > limits::kStreamStages.hi) {
    throw SpecError(path, std::to_string(list.array.size()) + " stages is out of range (allowed " +
                              detail::allowed(limits::kStreamStages) + ")");
  }
  for (std::size_t j = 0; j < list.array.size(); ++j) {
    const std::string at = path + "[" + std::to_string(j) + "]";
    names.push_back(string_of(list.array[j], at, limits::kStageNameBytes));
    detail::check_name(at, names.back());
  }
  return names;
}

inline std::vector<StreamSpec> parse_streams(const Value& v) {
  using namespace spec_fields;
  const Value& list = array(v, "streams", limits::kStreams, "streams");
  detail::check_stream_count(list.array.size());
  std::vector<StreamSpec> streams;
  for (std::size_t k = 0; k < list.array.size(); ++k) {
    const std::string path = "streams[" + std::to_string(k) + "]";
    const Value& s = list.array[k];
    object(s, path, kStreamFields);
    StreamSpec stream;
    stream.from = parse_names(require(s, path, "from"), join(path, "from"));
    stream.to = parse_names(require(s, path, "to"), join(path, "to"));
    if (const Value* r = s.find("reduce")) {
      stream.reduce = word(*r, join(path, "reduce"),
                           std::vector<StreamReduce>{StreamReduce::kAny, StreamReduce::kSum,
                                                     StreamReduce::kMin, StreamReduce::kMax});
    }
    streams.push_back(std::move(stream));
  }
  return streams;
}

// The phaser's fields after its carried queue: the streams and the graph rules, bound, batch,
// batching.
inline void parse_phaser_graph(const Value& root, ExperimentSpec& spec) {
  using namespace spec_fields;
  spec.streams = parse_streams(require(root, "", "streams"));
  check_phaser_graph(spec.stages, spec.streams);
  const Value* b = root.find("bound");
  spec.bound = b ? std::uint32_t(integer(*b, "bound", limits::kBound))
                 : std::uint32_t(limits::kDefaultBound);
  const Value* batch = root.find("batch");
  spec.batch = batch ? std::uint32_t(integer(*batch, "batch", limits::kBatch))
                     : std::uint32_t(limits::kDefaultBatch);
  if (const Value* b = root.find("batching")) {
    spec.batching =
        word(*b, "batching", std::vector<Batching>{Batching::kAdaptive, Batching::kAlways});
  }
}

// The runtime kinds, in the order messages list them: the one place to add a kind in C++
// (src/spec/runtimeKinds.ts is the TypeScript one; contracts/spec.md says what else to touch).
inline const std::vector<RuntimeRules>& runtime_kinds() {
  static const Names kPipelineFields = {"runtime", "stages", "threads", "tokens",
                                        "queue",   "items",  "seed",    "cores"};
  static const Names kStaticFields = {"runtime", "stages", "threads", "queue",
                                      "items",   "seed",   "cores"};
  static const Names kOutputFields = {"runtime", "stages", "threads", "variant", "batchItems",
                                      "buffers", "items",  "seed",    "cores"};
  static const Names kInputFields = {"runtime",    "stages", "threads", "variant",
                                     "batchItems", "items",  "seed",    "cores"};
  static const Names kBarrierFields = {"runtime", "stages",  "threads",  "items",    "seed",
                                       "cores",   "barrier", "schedule", "quantumUs"};
  // Phaser: tasks on bounded phasers, multiplexed onto `threads` pool threads. It has no queue:
  // `queue` is carried at its default only (parse_experiment_spec), as `tokens` is at `threads`.
  static const Names kPhaserFields = {"runtime", "stages",   "threads", "streams", "bound",
                                      "batch",   "batching", "items",   "seed",    "cores"};
  static const std::vector<RuntimeRules> kinds = {
      {RuntimeKind::kStatic, kStaticFields, {"tokens"}, sum_of_stage_threads, tokens_as_threads},
      {RuntimeKind::kCollapsed, kStaticFields, {"tokens"}, sum_of_stage_threads, tokens_as_threads},
      {RuntimeKind::kWorkStealing, kPipelineFields, {}, worker_threads, tokens_in_flight},
      // Dempsey's two-stage I/O (seed 002): tokens and queue carried at their normalised values.
      {RuntimeKind::kTwoStageOutput,
       kOutputFields,
       {"tokens", "queue"},
       two_stage_threads<RuntimeKind::kTwoStageOutput>,
       tokens_as_threads,
       detail::check_two_stage_shape,
       two_stage_fields},
      {RuntimeKind::kTwoStageInput,
       kInputFields,
       {"tokens", "queue"},
       two_stage_threads<RuntimeKind::kTwoStageInput>,
       tokens_as_threads,
       detail::check_two_stage_shape,
       two_stage_fields},
      // Thread packing (seed 004): tokens and queue carried at their normalised values.
      {RuntimeKind::kBarrier,
       kBarrierFields,
       {"tokens", "queue"},
       worker_threads,
       tokens_as_threads,
       nullptr,
       barrier_fields},
      {RuntimeKind::kPhaser,
       kPhaserFields,
       {"tokens", "queue"},
       worker_threads,
       tokens_as_threads,
       nullptr,
       parse_phaser_graph},
  };
  return kinds;
}

struct ServiceFields {
  ServiceKind kind;
  Names fields;
};

// Each service kind's fields, in the order messages list them.
inline const std::vector<ServiceFields>& service_kinds() {
  static const std::vector<ServiceFields> kinds = {
      {ServiceKind::kFixed, {"kind", "us"}},
      {ServiceKind::kExponential, {"kind", "meanUs"}},
      {ServiceKind::kUniform, {"kind", "minUs", "maxUs"}},
      {ServiceKind::kBimodal, {"kind", "fastUs", "slowUs", "slowFraction"}},
      {ServiceKind::kKernel, {"kind", "name", "size"}},
  };
  return kinds;
}

// Every service field, first seen first.
inline const Names& all_service_fields() {
  static const Names all = [] {
    Names out;
    for (const ServiceFields& k : service_kinds()) {
      for (std::string_view f : k.fields) {
        if (!spec_fields::contains(out, f)) out.push_back(f);
      }
    }
    return out;
  }();
  return all;
}

inline ServiceSpec parse_service(const Value& v, const std::string& path) {
  using namespace spec_fields;
  object(v, path, all_service_fields());
  std::vector<ServiceKind> kinds;
  for (const ServiceFields& k : service_kinds()) kinds.push_back(k.kind);
  ServiceSpec s;
  s.kind = word(require(v, path, "kind"), join(path, "kind"), kinds);
  for (const ServiceFields& k : service_kinds()) {
    if (k.kind == s.kind)
      only_taken(v, path, k.fields, std::string("the ") + to_string(s.kind) + " service");
  }
  const auto time = [&](std::string_view key) {
    return number(require(v, path, key), join(path, key), limits::kServiceUs);
  };
  switch (s.kind) {
    case ServiceKind::kFixed:
      s.us = time("us");
      break;
    case ServiceKind::kExponential:
      s.mean_us = time("meanUs");
      break;
    case ServiceKind::kUniform:
      s.min_us = time("minUs");
      s.max_us = time("maxUs");
      detail::check_uniform(path, s.min_us, s.max_us);
      break;
    case ServiceKind::kBimodal:
      s.fast_us = time("fastUs");
      s.slow_us = time("slowUs");
      s.slow_fraction = number(require(v, path, "slowFraction"), join(path, "slowFraction"),
                               limits::kSlowFraction);
      break;
    case ServiceKind::kKernel:
      s.kernel = word(require(v, path, "name"), join(path, "name"),
                      std::vector<KernelName>{
                          KernelName::kMatrix, KernelName::kDedupHash, KernelName::kDedupCompress,
                          KernelName::kFerretFeatures, KernelName::kFerretRank,
                          KernelName::kBlackScholes, KernelName::kFormatPrices});
      s.size =
          std::uint32_t(integer(require(v, path, "size"), join(path, "size"), limits::kKernelSize));
      break;
  }
  return s;
}

// `out_per_item`: how many items one input item has become before this stage. Phaser stages
// also take `op` (required) and `parent`; other runtimes know neither.
inline StageSpec parse_stage(const Value& v, const std::string& path, RuntimeKind runtime,
                             std::size_t index, std::uint64_t out_per_item) {
  const bool phaser = runtime == RuntimeKind::kPhaser;
  using namespace spec_fields;
  object(v, path, phaser ? kPhaserStageFields : kStageFields);
  StageSpec st;
  const std::string name_path = join(path, "name");
  st.name = string_of(require(v, path, "name"), name_path, limits::kStageNameBytes);
  detail::check_name(name_path, st.name);
  st.mode = word(require(v, path, "mode"), join(path, "mode"),
                 std::vector<StageMode>{StageMode::kSerialInOrder, StageMode::kSerialOutOfOrder,
                                        StageMode::kParallel});
  const std::string threads_path = join(path, "threads");
  if (const Value* t = v.find("threads")) {
    st.threads = std::uint32_t(integer(*t, threads_path, limits::kStageThreads));
  }
  detail::check_stage_threads(threads_path, st.mode, st.threads);
  st.service = parse_service(require(v, path, "service"), join(path, "service"));
  const std::string emits_path = join(path, "emits");
  if (const Value* e = v.find("emits")) {
    st.emits = std::uint32_t(integer(*e, emits_path, limits::kStageEmits));
  }
  detail::check_emits(emits_path, runtime, st.emits, out_per_item);
  const std::string bypass_path = join(path, "bypass");
  if (const Value* b = v.find("bypass")) st.bypass = number(*b, bypass_path, limits::kStageBypass);
  detail::check_bypass(bypass_path, runtime, st.mode, index, st.emits, st.bypass);
  if (!phaser) return st;
  st.op = word(require(v, path, "op"), join(path, "op"),
               std::vector<StageOp>{StageOp::kRandom, StageOp::kCount, StageOp::kPass,
                                    StageOp::kAvg, StageOp::kAbs, StageOp::kSplit, StageOp::kHop,
                                    StageOp::kToken, StageOp::kSieve});
  if (const Value* p = v.find("parent")) {
    const std::string parent_path = join(path, "parent");
    st.parent = string_of(*p, parent_path, limits::kStageNameBytes);
    detail::check_name(parent_path, *st.parent);
  }
  return st;
}

// An absent queue takes the default; a present one needs both fields, so a half-written queue
// is an error rather than a silent default. Null capacity = unbounded.
inline QueueSpec parse_queue(const Value* q) {
  using namespace spec_fields;
  QueueSpec queue;
  if (q == nullptr) return queue;
  object(*q, "queue", kQueueFields);
  queue.kind =
      word(require(*q, "queue", "kind"), "queue.kind",
           std::vector<QueueKind>{QueueKind::kBatch, QueueKind::kLamport, QueueKind::kCachedSpsc,
                                  QueueKind::kMutex, QueueKind::kVyukovMpmc});
  const Value& cap = require(*q, "queue", "capacity", "; null = unbounded");
  if (cap.type == Value::Type::kNull) {
    queue.capacity.reset();
  } else {
    queue.capacity = std::uint32_t(integer(cap, "queue.capacity", limits::kQueueCapacity));
  }
  return queue;
}

}  // namespace spec_detail

// Parses, validates and normalises (defaults filled); throws SpecError naming the field.
inline ExperimentSpec parse_experiment_spec(std::string_view text) {
  using namespace spec_detail;
  using namespace spec_fields;
  Value root;
  try {
    root = json::parse(text);
  } catch (const json::ParseError& e) {
    throw SpecError("", e.what());
  }
  object(root, "", kTopFields);
  std::vector<RuntimeKind> kinds;
  for (const RuntimeRules& r : runtime_kinds()) kinds.push_back(r.kind);
  ExperimentSpec spec;
  spec.runtime = word(require(root, "", "runtime"), "runtime", kinds);
  const RuntimeRules* rules = nullptr;
  for (const RuntimeRules& r : runtime_kinds()) {
    if (r.kind == spec.runtime) rules = &r;
  }
  only_taken(root, "", rules->fields, runtime_variant(spec.runtime), rules->carries);
  const Value& stages = array(require(root, "", "stages"), "stages", limits::kStages, "stages");
  detail::check_stage_count(stages.array.size());
  std::uint64_t out_per_item = 1;
  for (std::size_t i = 0; i < stages.array.size(); ++i) {
    spec.stages.push_back(
        parse_stage(stages.array[i], detail::stage_path(i), spec.runtime, i, out_per_item));
    out_per_item *= spec.stages.back().emits;
  }
  if (rules->check_stages) rules->check_stages(spec.runtime, spec.stages);
  spec.threads = rules->threads(root, spec.stages);
  spec.tokens = rules->tokens(root, spec.threads, *rules);
  spec.queue = parse_queue(root.find("queue"));
  // A carried queue is accepted only as the normalised spec writes it (the default).
  if (root.find("queue") && spec_fields::contains(rules->carries, "queue")) {
    const QueueSpec d;
    if (spec.queue.kind != d.kind || spec.queue.capacity != d.capacity) {
      spec_fields::not_taken("queue", rules->fields, runtime_variant(spec.runtime));
    }
  }
  if (rules->own_fields) rules->own_fields(root, spec);
  const double items = integer(require(root, "", "items"), "items", limits::kItems);
  detail::check_items(items, out_per_item);
  spec.items = std::uint64_t(items);
  if (spec.runtime == RuntimeKind::kPhaser && has_sieve(spec.stages)) {
    check_sieve_items(double(spec.items));
  }
  spec.seed = std::uint32_t(integer(require(root, "", "seed"), "seed", limits::kSeed));
  if (const Value* c = root.find("cores")) {
    spec.cores = std::uint32_t(integer(*c, "cores", limits::kCores));
  }
  return spec;
}

}  // namespace pipelab::pipeline
