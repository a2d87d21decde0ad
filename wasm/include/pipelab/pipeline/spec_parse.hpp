// parse_experiment_spec(): ExperimentSpec JSON (contracts/spec.md) → validated ExperimentSpec.
//
// Accepts exactly the documented shape: every unknown field, wrong type, non-integer count,
// unknown enum word or out-of-range value throws SpecError naming the field path and what is
// allowed (`stages[1].threads: 0 is out of range (allowed 1..64)`), so typos never fall back to
// defaults. Syntax errors throw SpecError too, naming the byte offset. Pure function, no state.
#pragma once

#include <cmath>
#include <initializer_list>
#include <string>
#include <string_view>

#include "pipelab/pipeline/json.hpp"
#include "pipelab/pipeline/spec.hpp"

namespace pipelab::pipeline {

namespace spec_detail {

using json::Value;

inline void only_fields(const Value& obj, const std::string& path,
                        std::initializer_list<std::string_view> allowed) {
  for (const auto& [key, v] : obj.object) {
    bool known = false;
    std::string list;
    for (std::string_view a : allowed) {
      known = known || key == a;
      if (!list.empty()) list += ", ";
      list += a;
    }
    if (!known) {
      throw SpecError((path.empty() ? "" : path + ".") + key + ": unknown field (allowed: " + list +
                      ")");
    }
  }
}

inline std::string join(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

inline const Value& require(const Value& obj, const std::string& path, std::string_view key) {
  const Value* v = obj.find(key);
  if (v == nullptr) throw SpecError(join(path, key) + ": missing (required)");
  return *v;
}

inline const Value& as_object(const Value& v, const std::string& path) {
  if (v.type != Value::Type::kObject) {
    throw SpecError((path.empty() ? "spec" : path) + ": expected an object, got " + v.type_name());
  }
  return v;
}

inline double number(const Value& v, const std::string& path, double lo, double hi) {
  if (v.type != Value::Type::kNumber) {
    throw SpecError(path + ": expected a number, got " + v.type_name());
  }
  detail::check_range(path, v.number, lo, hi);
  return v.number;
}

inline double integer(const Value& v, const std::string& path, double lo, double hi) {
  const double x = number(v, path, lo, hi);
  if (std::floor(x) != x) throw SpecError(path + ": " + detail::num(x) + " is not an integer");
  return x;
}

template <typename Enum>
Enum word(const Value& v, const std::string& path, std::initializer_list<Enum> options) {
  std::string list;
  for (Enum e : options) {
    if (v.type == Value::Type::kString && v.string == to_string(e)) return e;
    if (!list.empty()) list += " | ";
    list += to_string(e);
  }
  const std::string got = v.type == Value::Type::kString ? "\"" + v.string + "\"" : v.type_name();
  throw SpecError(path + ": " + got + " is not one of " + list);
}

inline ServiceSpec parse_service(const Value& v, const std::string& path) {
  as_object(v, path);
  ServiceSpec s;
  const Value& kind = require(v, path, "kind");
  const std::string kp = path + ".kind";
  if (kind.type != Value::Type::kString) {
    throw SpecError(kp + ": expected a string, got " + kind.type_name());
  }
  const std::string& k = kind.string;
  if (k == "fixed") {
    only_fields(v, path, {"kind", "us"});
    s.us = number(require(v, path, "us"), path + ".us", 0, kMaxServiceUs);
  } else if (k == "exponential") {
    only_fields(v, path, {"kind", "meanUs"});
    s.kind = ServiceKind::kExponential;
    s.mean_us = number(require(v, path, "meanUs"), path + ".meanUs", 0, kMaxServiceUs);
  } else if (k == "uniform") {
    only_fields(v, path, {"kind", "minUs", "maxUs"});
    s.kind = ServiceKind::kUniform;
    s.min_us = number(require(v, path, "minUs"), path + ".minUs", 0, kMaxServiceUs);
    s.max_us = number(require(v, path, "maxUs"), path + ".maxUs", s.min_us, kMaxServiceUs);
  } else if (k == "bimodal") {
    only_fields(v, path, {"kind", "fastUs", "slowUs", "slowFraction"});
    s.kind = ServiceKind::kBimodal;
    s.fast_us = number(require(v, path, "fastUs"), path + ".fastUs", 0, kMaxServiceUs);
    s.slow_us = number(require(v, path, "slowUs"), path + ".slowUs", 0, kMaxServiceUs);
    s.slow_fraction = number(require(v, path, "slowFraction"), path + ".slowFraction", 0, 1);
  } else if (k == "kernel") {
    only_fields(v, path, {"kind", "name", "size"});
    s.kind = ServiceKind::kKernel;
    s.kernel = word(require(v, path, "name"), path + ".name",
                    {KernelName::kMatrix, KernelName::kDedupHash, KernelName::kDedupCompress,
                     KernelName::kFerretFeatures, KernelName::kFerretRank,
                     KernelName::kBlackScholes, KernelName::kFormatPrices});
    s.size = std::uint32_t(integer(require(v, path, "size"), path + ".size", 1, kMaxKernelSize));
  } else {
    throw SpecError(kp + ": \"" + k +
                    "\" is not one of fixed | exponential | uniform | bimodal | kernel");
  }
  return s;
}

inline StageSpec parse_stage(const Value& v, const std::string& path) {
  as_object(v, path);
  only_fields(v, path, {"name", "mode", "threads", "service"});
  StageSpec st;
  const Value& name = require(v, path, "name");
  if (name.type != Value::Type::kString) {
    throw SpecError(path + ".name: expected a string, got " + name.type_name());
  }
  st.name = name.string;
  st.mode = word(require(v, path, "mode"), path + ".mode",
                 {StageMode::kSerialInOrder, StageMode::kSerialOutOfOrder, StageMode::kParallel});
  if (const Value* t = v.find("threads")) {
    st.threads = std::uint32_t(integer(*t, path + ".threads", 1, kMaxStageThreads));
  }
  st.service = parse_service(require(v, path, "service"), path + ".service");
  return st;
}

}  // namespace spec_detail

// Parses and validates; throws SpecError (a std::invalid_argument) naming the field.
inline ExperimentSpec parse_experiment_spec(std::string_view text) {
  using namespace spec_detail;
  json::Value root;
  try {
    root = json::parse(text);
  } catch (const json::ParseError& e) {
    throw SpecError(e.what());
  }
  as_object(root, "");
  only_fields(root, "",
              {"runtime", "stages", "threads", "tokens", "queue", "items", "seed", "cores"});
  ExperimentSpec spec;
  spec.runtime = word(require(root, "", "runtime"), "runtime",
                      {RuntimeKind::kStatic, RuntimeKind::kCollapsed, RuntimeKind::kWorkStealing});
  const Value& stages = require(root, "", "stages");
  if (stages.type != Value::Type::kArray) {
    throw SpecError(std::string("stages: expected an array, got ") + stages.type_name());
  }
  detail::check_range("stages.length", double(stages.array.size()), 1, kMaxStages);
  for (std::size_t i = 0; i < stages.array.size(); ++i) {
    spec.stages.push_back(parse_stage(stages.array[i], "stages[" + std::to_string(i) + "]"));
  }
  if (const Value* t = root.find("threads")) {
    spec.threads = std::uint32_t(integer(*t, "threads", 1, kMaxThreads));
  }
  if (const Value* t = root.find("tokens")) {
    spec.tokens = std::uint32_t(integer(*t, "tokens", 1, kMaxTokens));
  }
  if (const Value* q = root.find("queue")) {
    as_object(*q, "queue");
    only_fields(*q, "queue", {"kind", "capacity"});
    spec.queue.kind = word(require(*q, "queue", "kind"), "queue.kind",
                           {QueueKind::kBatch, QueueKind::kLamport, QueueKind::kCachedSpsc,
                            QueueKind::kMutex, QueueKind::kVyukovMpmc});
    const Value& cap = require(*q, "queue", "capacity");
    if (cap.type == json::Value::Type::kNull) {
      spec.queue.capacity.reset();
    } else {
      spec.queue.capacity = std::uint32_t(integer(cap, "queue.capacity", 1, kMaxCapacity));
    }
  }
  spec.items = std::uint64_t(integer(require(root, "", "items"), "items", 1, double(kMaxItems)));
  spec.seed = std::uint32_t(integer(require(root, "", "seed"), "seed", 0, 4294967295.0));
  if (const Value* c = root.find("cores")) {
    spec.cores = std::uint32_t(integer(*c, "cores", 1, kMaxThreads));
  }
  validate(spec);
  return spec;
}

}  // namespace pipelab::pipeline
