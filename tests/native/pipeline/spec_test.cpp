// ExperimentSpec in C++: every case of the shared table tests/fixtures/spec-cases.json (embedded
// at configure time, see wasm/cmake/spec-contract.cmake) through parse_experiment_spec(), with
// the normalised spec compared as text (to_json) and errors by path and full message; then what
// only C++ has: validate() on specs built in C++, agreeing with the JSON path.
#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "pipelab/pipeline/json_write.hpp"
#include "pipelab/pipeline/spec_parse.hpp"
#include "pipelab/pipeline/spec_print.hpp"
#include "spec_case_table.hpp"

namespace pipelab::pipeline {
namespace {

using test::spec_case_text;
const json::Value& cases() { return test::spec_cases(); }
std::string text_of(const json::Value& c) { return spec_case_text(c); }

class SpecCase : public testing::TestWithParam<std::size_t> {
 protected:
  const json::Value& spec_case() const { return cases().array[GetParam()]; }
};

TEST_P(SpecCase, MatchesTheTable) {
  const json::Value& c = spec_case();
  const std::string text = text_of(c);
  if (const json::Value* expected = c.find("spec")) {
    ExperimentSpec spec;
    ASSERT_NO_THROW(spec = parse_experiment_spec(text)) << text;
    EXPECT_EQ(to_json(spec), json::stringify(*expected));
    // Normalised specs parse to themselves (the threads engine receives them so), and validate()
    // finds nothing more to fill or reject in them.
    EXPECT_EQ(to_json(parse_experiment_spec(to_json(spec))), to_json(spec));
    ExperimentSpec again = spec;
    validate(again);
    EXPECT_EQ(to_json(again), to_json(spec));
    return;
  }
  const json::Value& error = *c.find("error");
  try {
    parse_experiment_spec(text);
    ADD_FAILURE() << "accepted: " << text;
  } catch (const SpecError& e) {
    EXPECT_EQ(e.path(), error.find("path")->string);
    EXPECT_EQ(std::string(e.what()), error.find("message")->string);
  }
}

std::string case_label(const testing::TestParamInfo<std::size_t>& info) {
  std::string label = "c" + std::to_string(info.param) + "_";
  for (char ch : cases().array[info.param].find("name")->string) {
    if (label.size() >= 60) break;
    if (std::isalnum(static_cast<unsigned char>(ch)))
      label += ch;
    else if (label.back() != '_')
      label += '_';
  }
  return label;
}

std::vector<std::size_t> case_indices() {
  std::vector<std::size_t> out(cases().array.size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = i;
  return out;
}

INSTANTIATE_TEST_SUITE_P(Table, SpecCase, testing::ValuesIn(case_indices()), case_label);

TEST(SpecTable, IsLargeAndHasBothKinds) {
  std::size_t good = 0, bad = 0;
  for (const json::Value& c : cases().array) (c.find("spec") ? good : bad) += 1;
  EXPECT_GE(good, 20u);
  EXPECT_GE(bad, 100u);
}

// validate(): what a spec built in C++ gets, worded as the JSON path words it.
std::string validate_error(ExperimentSpec s) {
  try {
    validate(s);
  } catch (const SpecError& e) {
    return e.what();
  }
  return "(accepted)";
}

ExperimentSpec one_stage(RuntimeKind runtime, StageSpec stage) {
  ExperimentSpec s;
  s.runtime = runtime;
  s.stages.push_back(std::move(stage));
  s.items = 10;
  return s;
}

TEST(SpecValidate, FillsTheDefaultsPerRuntime) {
  ExperimentSpec s = one_stage(RuntimeKind::kStatic, {"a", StageMode::kParallel, 3, {}});
  validate(s);
  EXPECT_EQ(s.threads, 3u);
  EXPECT_EQ(s.tokens, 3u);
  EXPECT_EQ(s.queue.kind, QueueKind::kBatch);
  EXPECT_EQ(*s.queue.capacity, 16u);
  ExperimentSpec ws = one_stage(RuntimeKind::kWorkStealing, {"a", StageMode::kParallel, 3, {}});
  validate(ws);
  EXPECT_EQ(ws.threads, 1u);
  EXPECT_EQ(ws.tokens, 1u);
}

TEST(SpecValidate, RejectsWithTheJsonPathsMessages) {
  const auto stage = [](StageSpec st) { return one_stage(RuntimeKind::kStatic, std::move(st)); };
  EXPECT_EQ(validate_error(stage({"", StageMode::kParallel, 1, {}})),
            "stages[0].name: \"\" has 0 bytes (allowed 1..32)");
  EXPECT_EQ(validate_error(stage({"a", StageMode::kSerialInOrder, 2, {}})),
            "stages[0].threads: 2 is out of range (allowed 1 for a serial-in-order stage)");
  ServiceSpec uniform;
  uniform.kind = ServiceKind::kUniform;
  uniform.min_us = 10;
  uniform.max_us = 5;
  EXPECT_EQ(validate_error(stage({"a", StageMode::kParallel, 1, uniform})),
            "stages[0].service.minUs: 10 is above maxUs 5 (allowed minUs <= maxUs)");
  ExperimentSpec sum = stage({"a", StageMode::kParallel, 2, {}});
  sum.threads = 3;
  EXPECT_EQ(validate_error(sum), "threads: 3 differs from the sum of stage threads (allowed 2)");
  ExperimentSpec ws = one_stage(RuntimeKind::kWorkStealing, {"a", StageMode::kParallel, 1, {}});
  ws.threads = 2;
  ws.tokens = 5000;
  EXPECT_EQ(validate_error(ws), "tokens: 5000 is out of range (allowed 1..4096)");
  EXPECT_EQ(validate_error(ExperimentSpec{}), "stages: 0 stages is out of range (allowed 1..16)");
}

// The barrier runtime's rules for specs built in C++ (the bench, tests): the same checks and
// messages as barrier_fields() on the JSON path.
TEST(SpecValidate, BarrierRulesAsTheJsonPathWordsThem) {
  const auto barrier = [](double us, std::uint32_t threads) {
    ExperimentSpec s = one_stage(RuntimeKind::kBarrier,
                                 {"compute", StageMode::kParallel, 1, ServiceSpec::fixed(us)});
    s.threads = threads;
    return s;
  };
  ExperimentSpec ok = barrier(1000, 0);
  validate(ok);
  EXPECT_EQ(ok.threads, 1u);
  EXPECT_EQ(ok.tokens, 1u);
  EXPECT_EQ(ok.barrier, BarrierKind::kBlocking);
  EXPECT_EQ(ok.schedule, Schedule::kOs);
  EXPECT_EQ(ok.quantum_us, 4000u);
  EXPECT_EQ(validate_error(barrier(1000, 16)),
            "stages[0].service.us: 1000 over threads = 16 is 62.5 µs per thread, too short to "
            "measure (allowed 100..1000000 µs per thread)");
  ExperimentSpec two = barrier(1000, 1);
  two.stages.push_back(two.stages[0]);
  EXPECT_EQ(validate_error(two),
            "stages: 2 stages is out of range (allowed 1 for the barrier runtime)");
  ExperimentSpec packed = barrier(1000, 2);
  packed.schedule = Schedule::kPacked;
  EXPECT_EQ(validate_error(packed), "cores: missing (required for the packed schedule)");
  packed.cores = 2;
  EXPECT_EQ(validate_error(packed), "(accepted)");
  packed.quantum_us = 10;
  EXPECT_EQ(validate_error(packed), "quantumUs: 10 is out of range (allowed 50..100000)");
}

TEST(SpecValidate, CheckRangeKeepsItsNote) {
  try {
    detail::check_range("threads", 65, 1, 63, "; the writer is thread 64");
    FAIL() << "accepted 65";
  } catch (const SpecError& e) {
    EXPECT_EQ(e.path(), "threads");
    EXPECT_STREQ(e.what(), "threads: 65 is out of range (allowed 1..63; the writer is thread 64)");
  }
}

}  // namespace
}  // namespace pipelab::pipeline
