// Small ExperimentSpec texts, one per runtime kind, as the page sends them (defaults left out):
// the starting points of the C++ spec tests and of their fuzzer's mutations.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "pipelab/pipeline/spec.hpp"

namespace pipelab::pipeline::test {

inline std::string fixed_stage(const std::string& name, const std::string& mode, int threads = 1,
                               const std::string& extra = "") {
  return R"({"name":")" + name + R"(","mode":")" + mode + R"(","threads":)" +
         std::to_string(threads) + R"(,"service":{"kind":"fixed","us":1})" + extra + "}";
}

// One small spec per kind, as the page would send it (defaults left out).
inline const std::vector<std::pair<RuntimeKind, std::string>>& kind_specs() {
  static const std::vector<std::pair<RuntimeKind, std::string>> specs = {
      {RuntimeKind::kStatic,
       R"({"runtime":"static","stages":[)" + fixed_stage("in", "serial-in-order") + "," +
           fixed_stage("work", "parallel", 2, R"(,"emits":3)") + "," +
           fixed_stage("out", "parallel", 1, R"(,"bypass":0.5)") +
           R"(],"queue":{"kind":"mutex","capacity":null},"items":9,"seed":1})"},
      {RuntimeKind::kCollapsed, R"({"runtime":"collapsed","stages":[)" +
                                    fixed_stage("a", "parallel", 2) + "," +
                                    fixed_stage("b", "parallel", 2) + R"(],"items":9,"seed":1})"},
      {RuntimeKind::kWorkStealing, R"({"runtime":"work-stealing","stages":[)" +
                                       fixed_stage("a", "serial-out-of-order") +
                                       R"(],"threads":3,"tokens":5,"items":9,"seed":1})"},
      {RuntimeKind::kTwoStageOutput,
       R"({"runtime":"two-stage-output","stages":[)" + fixed_stage("format", "parallel", 3) + "," +
           fixed_stage("write", "serial-in-order") + R"(],"batchItems":4,"items":9,"seed":1})"},
      {RuntimeKind::kTwoStageInput,
       R"({"runtime":"two-stage-input","stages":[)" + fixed_stage("scan", "serial-in-order") + "," +
           fixed_stage("read", "parallel") + R"(],"variant":"serial","items":9,"seed":1})"},
      {RuntimeKind::kBarrier, R"({"runtime":"barrier","stages":[)" +
                                  fixed_stage("compute", "parallel") +
                                  R"(],"threads":2,"schedule":"packed","cores":1,"quantumUs":50,)"
                                  R"("barrier":"spin","items":3,"seed":1})"},
      {RuntimeKind::kPhaser,
       R"({"runtime":"phaser","stages":[)" + fixed_stage("src", "parallel", 1, R"(,"op":"count")") +
           "," + fixed_stage("sieve", "parallel", 1, R"(,"op":"sieve")") + "," +
           fixed_stage("sink", "parallel", 1, R"(,"op":"pass")") +
           R"(],"streams":[{"from":["src"],"to":["sieve"]},{"from":["sieve"],"to":["sink"],)"
           R"("reduce":"sum"}],"batching":"always","items":30,"seed":1})"},
  };
  return specs;
}

inline std::string kind_text(RuntimeKind k) {
  for (const auto& [kind, text] : kind_specs()) {
    if (kind == k) return text;
  }
  return "";
}

}  // namespace pipelab::pipeline::test
