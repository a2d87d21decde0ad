// ExperimentSpec JSON parsing: the contracts/spec.md example parses with its defaults, and every
// kind of bad input is rejected with a message naming the field path and what is allowed.
#include <gtest/gtest.h>

#include <string>

#include "pipelab/pipeline/spec_parse.hpp"

namespace pipelab::pipeline {
namespace {

const char* kGood = R"({
  "runtime": "static",
  "stages": [
    {"name": "input", "mode": "serial-in-order", "threads": 1,
     "service": {"kind": "fixed", "us": 100}},
    {"name": "work", "mode": "parallel", "threads": 3,
     "service": {"kind": "bimodal", "fastUs": 50, "slowUs": 500, "slowFraction": 0.1}},
    {"name": "out", "mode": "serial-out-of-order",
     "service": {"kind": "kernel", "name": "format-prices", "size": 16}}
  ],
  "queue": {"kind": "vyukov-mpmc", "capacity": null},
  "items": 10000, "seed": 1, "cores": 2
})";

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const auto at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return s.replace(at, from.size(), to);
}

std::string error_of(const std::string& json) {
  try {
    parse_experiment_spec(json);
  } catch (const SpecError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(Spec, ParsesTheFormatExampleWithDefaults) {
  const ExperimentSpec s = parse_experiment_spec(kGood);
  EXPECT_EQ(s.runtime, RuntimeKind::kStatic);
  ASSERT_EQ(s.stages.size(), 3u);
  EXPECT_EQ(s.stages[1].threads, 3u);
  EXPECT_EQ(s.stages[2].threads, 1u);
  EXPECT_EQ(s.stages[1].service.kind, ServiceKind::kBimodal);
  EXPECT_DOUBLE_EQ(s.stages[1].service.slow_fraction, 0.1);
  EXPECT_EQ(s.stages[2].service.kernel, KernelName::kFormatPrices);
  EXPECT_EQ(s.threads, 5u);  // sum of stage threads
  EXPECT_EQ(s.tokens, 5u);   // = threads
  EXPECT_FALSE(s.queue.capacity.has_value());
  EXPECT_EQ(s.queue.kind, QueueKind::kVyukovMpmc);
  EXPECT_EQ(s.items, 10000u);
  EXPECT_EQ(*s.cores, 2u);
}

TEST(Spec, WorkStealingDefaults) {
  std::string j = replace(kGood, "\"static\"", "\"work-stealing\"");
  const ExperimentSpec s = parse_experiment_spec(j);
  EXPECT_EQ(s.threads, 1u);
  EXPECT_EQ(s.tokens, 1u);
  EXPECT_EQ(parse_experiment_spec(replace(j, "\"items\"", "\"threads\": 4, \"items\"")).tokens, 4u);
}

TEST(Spec, DefaultQueueIsBatch16) {
  const ExperimentSpec s = parse_experiment_spec(
      replace(kGood, R"("queue": {"kind": "vyukov-mpmc", "capacity": null},)", ""));
  EXPECT_EQ(s.queue.kind, QueueKind::kBatch);
  EXPECT_EQ(*s.queue.capacity, 16u);
}

TEST(Spec, RejectsNamingFieldAndRange) {
  EXPECT_EQ(error_of(replace(kGood, "\"threads\": 3", "\"threads\": 0")),
            "stages[1].threads: 0 is out of range (allowed 1..64)");
  EXPECT_EQ(error_of(replace(kGood, "\"threads\": 3", "\"threads\": 65")),
            "stages[1].threads: 65 is out of range (allowed 1..64)");
  EXPECT_EQ(error_of(replace(kGood, "\"items\": 10000", "\"items\": 0")),
            "items: 0 is out of range (allowed 1..100000000)");
  EXPECT_EQ(error_of(replace(kGood, "\"items\": 10000", "\"items\": 2.5")),
            "items: 2.5 is not an integer");
  EXPECT_EQ(error_of(replace(kGood, "\"capacity\": null", "\"capacity\": 0")),
            "queue.capacity: 0 is out of range (allowed 1..65536)");
  EXPECT_EQ(error_of(replace(kGood, "\"slowFraction\": 0.1", "\"slowFraction\": 1.5")),
            "stages[1].service.slowFraction: 1.5 is out of range (allowed 0..1)");
  EXPECT_EQ(error_of(replace(kGood, "\"us\": 100", "\"us\": -1")),
            "stages[0].service.us: -1 is out of range (allowed 0..1000000)");
  EXPECT_EQ(error_of(replace(kGood, "\"size\": 16", "\"size\": 5000")),
            "stages[2].service.size: 5000 is out of range (allowed 1..4096)");
}

TEST(Spec, RejectsUnknownFieldsAndWords) {
  EXPECT_EQ(error_of(replace(kGood, "\"seed\": 1", "\"seed\": 1, \"tokenz\": 3")),
            "tokenz: unknown field (allowed: runtime, stages, threads, tokens, queue, items, seed, "
            "cores)");
  EXPECT_EQ(error_of(replace(kGood, "\"threads\": 3", "\"threads\": 3, \"thread\": 1")),
            "stages[1].thread: unknown field (allowed: name, mode, threads, service)");
  EXPECT_EQ(error_of(replace(kGood, "\"us\": 100", "\"us\": 100, \"meanUs\": 3")),
            "stages[0].service.meanUs: unknown field (allowed: kind, us)");
  EXPECT_EQ(error_of(replace(kGood, "\"static\"", "\"pthreads\"")),
            "runtime: \"pthreads\" is not one of static | collapsed | work-stealing");
  EXPECT_EQ(error_of(replace(kGood, "\"parallel\"", "\"paralel\"")),
            "stages[1].mode: \"paralel\" is not one of serial-in-order | serial-out-of-order | "
            "parallel");
  EXPECT_EQ(error_of(replace(kGood, "\"vyukov-mpmc\"", "\"ring\"")),
            "queue.kind: \"ring\" is not one of batch | lamport | cached-spsc | mutex | "
            "vyukov-mpmc");
  EXPECT_EQ(error_of(replace(kGood, "\"format-prices\"", "\"fft\""))
                .rfind("stages[2].service.name: \"fft\" is not one of matrix |", 0),
            0u);
}

TEST(Spec, RejectsMissingWrongTypeAndCrossFieldErrors) {
  EXPECT_EQ(error_of(replace(kGood, "\"seed\": 1,", "")), "seed: missing (required)");
  EXPECT_EQ(error_of(replace(kGood, "\"items\": 10000", "\"items\": \"many\"")),
            "items: expected a number, got a string");
  EXPECT_EQ(error_of(replace(kGood, "\"mode\": \"serial-in-order\", \"threads\": 1",
                             "\"mode\": \"serial-in-order\", \"threads\": 2")),
            "stages[0].threads: 2 must be 1 for a serial-in-order stage (allowed 1..1)");
  EXPECT_EQ(error_of(replace(kGood, "\"items\"", "\"threads\": 4, \"items\"")),
            "threads: 4 must equal the sum of stage threads (5) for the static runtime");
  EXPECT_EQ(error_of(R"({"runtime": "static", "stages": [], "items": 1, "seed": 1})"),
            "stages.length: 0 is out of range (allowed 1..16)");
  EXPECT_EQ(error_of(replace(kGood, "\"name\": \"input\"", "\"name\": \"\"")),
            "stages[0].name: length 0 is out of range (allowed 1..32)");
  EXPECT_EQ(error_of(R"({"runtime": "static", "stages": [{"name": "a", "mode": "parallel",
      "service": {"kind": "uniform", "minUs": 10, "maxUs": 5}}], "items": 1, "seed": 1})"),
            "stages[0].service.maxUs: 5 is out of range (allowed 10..1000000)");
}

TEST(Spec, RejectsBadJsonByOffset) {
  EXPECT_EQ(error_of("{\"runtime\": }"), "invalid JSON at offset 12: expected a value");
  EXPECT_EQ(error_of("[1, 2]"), "spec: expected an object, got an array");
  EXPECT_EQ(error_of(R"({"runtime": "static", "runtime": "static"})").rfind("invalid JSON", 0), 0u);
}

TEST(Spec, ValidateChecksSpecsBuiltInCpp) {
  ExperimentSpec s;
  s.runtime = RuntimeKind::kWorkStealing;
  s.stages.push_back(StageSpec{"a", StageMode::kParallel, 1, ServiceSpec::fixed(1)});
  s.items = 10;
  s.threads = 2;
  s.tokens = 5000;
  try {
    validate(s);
    FAIL() << "accepted tokens 5000";
  } catch (const SpecError& e) {
    EXPECT_STREQ(e.what(), "tokens: 5000 is out of range (allowed 1..4096)");
  }
}

}  // namespace
}  // namespace pipelab::pipeline
