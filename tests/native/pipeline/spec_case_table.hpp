// The shared ExperimentSpec case table (tests/fixtures/spec-cases.json), embedded at configure time
// (wasm/cmake/spec-contract.cmake), for the C++ tests that run it or start from it.
#pragma once

#include <string>
#include <string_view>

#include "pipelab/pipeline/json.hpp"
#include "pipelab/pipeline/json_write.hpp"

namespace pipelab::pipeline::test {

// The table's "cases" array, parsed once.
inline const json::Value& spec_cases() {
  static const unsigned char bytes[] = {
#include "spec_cases.inc"
  };
  static const json::Value table =
      *json::parse(std::string_view(reinterpret_cast<const char*>(bytes), sizeof bytes))
           .find("cases");
  return table;
}

// The JSON text a case gives the parser: its `text` as it is, or its `input` written out.
inline std::string spec_case_text(const json::Value& c) {
  if (const json::Value* t = c.find("text")) return t->string;
  return json::stringify(*c.find("input"));
}

}  // namespace pipelab::pipeline::test
