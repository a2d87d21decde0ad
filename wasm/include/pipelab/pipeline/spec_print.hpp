// to_json(): a normalised ExperimentSpec as JSON text, byte for byte what JSON.stringify gives for
// the spec src/spec/experimentSpec.ts returns (same keys in the same order, JavaScript's numbers),
// so the case table compares both validators' results as text. `cores` only when present; the
// kinds' own fields (two-stage: variant, batchItems, buffers; barrier: barrier, schedule,
// quantumUs) only for them, always, right after `queue`; a stage's `emits` only when not 1 and
// `bypass` only when not 0.
#pragma once

#include <string>

#include "pipelab/pipeline/json_write.hpp"
#include "pipelab/pipeline/spec.hpp"

namespace pipelab::pipeline {

namespace print_detail {
using json::number_text;
using json::quote;

inline std::string field(const char* key, const std::string& json_value) {
  return quote(key) + ":" + json_value;
}

inline std::string service_json(const ServiceSpec& s) {
  std::string out = "{" + field("kind", quote(to_string(s.kind)));
  switch (s.kind) {
    case ServiceKind::kFixed:
      out += "," + field("us", number_text(s.us));
      break;
    case ServiceKind::kExponential:
      out += "," + field("meanUs", number_text(s.mean_us));
      break;
    case ServiceKind::kUniform:
      out +=
          "," + field("minUs", number_text(s.min_us)) + "," + field("maxUs", number_text(s.max_us));
      break;
    case ServiceKind::kBimodal:
      out += "," + field("fastUs", number_text(s.fast_us)) + "," +
             field("slowUs", number_text(s.slow_us)) + "," +
             field("slowFraction", number_text(s.slow_fraction));
      break;
    case ServiceKind::kKernel:
      out += "," + field("name", quote(to_string(s.kernel))) + "," +
             field("size", number_text(s.size));
      break;
  }
  return out + "}";
}

inline std::string names_json(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ",") + quote(n);
  return "[" + out + "]";
}

// The phaser's fields, after queue: streams, bound, batch, batching.
inline std::string graph_json(const ExperimentSpec& spec) {
  std::string streams;
  for (const StreamSpec& st : spec.streams) {
    streams += (streams.empty() ? "{" : ",{") + field("from", names_json(st.from)) + "," +
               field("to", names_json(st.to)) + "," + field("reduce", quote(to_string(st.reduce))) +
               "}";
  }
  return "," + field("streams", "[" + streams + "]") + "," +
         field("bound", number_text(spec.bound)) + "," + field("batch", number_text(spec.batch)) +
         "," + field("batching", quote(to_string(spec.batching)));
}
}  // namespace print_detail

inline std::string to_json(const ExperimentSpec& spec) {
  using namespace print_detail;
  std::string stages;
  for (const StageSpec& st : spec.stages) {
    stages += (stages.empty() ? "{" : ",{") + field("name", quote(st.name)) + "," +
              field("mode", quote(to_string(st.mode))) + "," +
              field("threads", number_text(st.threads)) + "," +
              field("service", service_json(st.service));
    if (st.emits != 1) stages += "," + field("emits", number_text(st.emits));
    if (st.bypass != 0) stages += "," + field("bypass", number_text(st.bypass));
    if (st.op != StageOp::kNone) stages += "," + field("op", quote(to_string(st.op)));
    if (st.parent) stages += "," + field("parent", quote(*st.parent));
    stages += "}";
  }
  const std::string capacity =
      spec.queue.capacity ? number_text(*spec.queue.capacity) : std::string("null");
  std::string out = "{" + field("runtime", quote(to_string(spec.runtime))) + "," +
                    field("stages", "[" + stages + "]") + "," +
                    field("threads", number_text(spec.threads)) + "," +
                    field("tokens", number_text(spec.tokens)) + "," +
                    field("queue", "{" + field("kind", quote(to_string(spec.queue.kind))) + "," +
                                       field("capacity", capacity) + "}");
  if (is_two_stage(spec.runtime)) {
    out += "," + field("variant", quote(to_string(spec.variant))) + "," +
           field("batchItems", number_text(spec.batch_items));
  }
  if (spec.runtime == RuntimeKind::kTwoStageOutput) {
    out += "," + field("buffers", number_text(spec.buffers));
  }
  if (spec.runtime == RuntimeKind::kBarrier) {
    out += "," + field("barrier", quote(to_string(spec.barrier))) + "," +
           field("schedule", quote(to_string(spec.schedule))) + "," +
           field("quantumUs", number_text(spec.quantum_us));
  }
  if (spec.runtime == RuntimeKind::kPhaser) out += graph_json(spec);
  out += "," + field("items", number_text(double(spec.items))) + "," +
         field("seed", number_text(spec.seed));
  if (spec.cores) out += "," + field("cores", number_text(*spec.cores));
  return out + "}";
}

}  // namespace pipelab::pipeline
