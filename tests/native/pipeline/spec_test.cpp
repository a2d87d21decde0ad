// ExperimentSpec in C++ (spec.hpp, spec_graph.hpp, runtime_kinds.hpp): each kind's JSON is read
// with its own fields and defaults; every check a runtime relies on rejects what breaks it, naming
// the field; every kind's registry row makes its runtime, which hands the bindings what they read.
// The messages people read are TypeScript's (tests/unit/spec); here only the field is asserted.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pipelab/pipeline/runtime_kinds.hpp"
#include "spec_samples.hpp"

namespace pipelab::pipeline {
namespace {

using test::fixed_stage;
using test::kind_specs;
using test::kind_text;

// `text` with `from` replaced by `to` (once).
std::string edited(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

TEST(SpecRead, EveryKindReadsItsFieldsAndFillsItsDefaults) {
  for (const auto& [kind, text] : kind_specs()) {
    const ExperimentSpec s = parse_experiment_spec(text);
    EXPECT_EQ(s.runtime, kind) << text;
    EXPECT_EQ(s.tokens, kind == RuntimeKind::kWorkStealing ? 5u : s.threads) << text;
  }
  const auto spec = [](RuntimeKind k) { return parse_experiment_spec(kind_text(k)); };
  const ExperimentSpec st = spec(RuntimeKind::kStatic);
  EXPECT_EQ(st.threads, 4u);
  EXPECT_EQ(st.stages[1].emits, 3u);
  EXPECT_EQ(st.stages[2].bypass, 0.5);
  EXPECT_EQ(st.queue.kind, QueueKind::kMutex);
  EXPECT_FALSE(st.queue.capacity);
  EXPECT_EQ(spec(RuntimeKind::kCollapsed).queue.capacity, 16u);
  const ExperimentSpec out = spec(RuntimeKind::kTwoStageOutput);
  EXPECT_EQ(out.batch_items, 4u);
  EXPECT_EQ(out.buffers, 5u) << "the formatters + 2";
  const ExperimentSpec in = spec(RuntimeKind::kTwoStageInput);
  EXPECT_EQ(in.variant, TwoStageVariant::kSerial);
  EXPECT_EQ(in.threads, 1u);
  EXPECT_EQ(in.batch_items, 1024u);
  const ExperimentSpec b = spec(RuntimeKind::kBarrier);
  EXPECT_EQ(b.barrier, BarrierKind::kSpin);
  EXPECT_EQ(b.schedule, Schedule::kPacked);
  EXPECT_EQ(b.quantum_us, 50u);
  EXPECT_EQ(b.cores, 1u);
  const ExperimentSpec p = spec(RuntimeKind::kPhaser);
  EXPECT_EQ(p.stages[1].op, StageOp::kSieve);
  EXPECT_EQ(p.streams[1].reduce, StreamReduce::kSum);
  EXPECT_EQ(p.bound, 8u);
  EXPECT_EQ(p.batch, 1u);
  EXPECT_EQ(p.batching, Batching::kAlways);
}

// Each edit breaks what a runtime relies on; the error names the field.
TEST(SpecRead, WhatARuntimeCannotRunIsRejectedNamingTheField) {
  const std::string st = kind_text(RuntimeKind::kStatic);
  const std::string out = kind_text(RuntimeKind::kTwoStageOutput);
  const std::string ph = kind_text(RuntimeKind::kPhaser);
  const std::string b = kind_text(RuntimeKind::kBarrier);
  const struct {
    std::string text, path;
  } cases[] = {
      {"{", ""},
      {R"({"runtime":"static","runtime":"static"})", ""},
      {std::string(70, '[') + std::string(70, ']'), ""},
      {"[]", ""},
      {edited(st, R"("runtime":"static")", R"("runtime":"pthreads")"), "runtime"},
      {edited(st, R"("items":9)", R"("items":1e20)"), "items"},
      {edited(st, R"("items":9)", R"("items":0)"), "items"},
      {edited(st, R"("items":9)", R"("items":40000000)"), "items"},  // × 3 emitted
      {edited(st, R"(,"seed":1)", ""), "seed"},
      {edited(st, R"("seed":1)", R"("seed":-1)"), "seed"},
      {edited(st, R"("threads":2)", R"("threads":1e10)"), "stages[1].threads"},
      {edited(st, R"("threads":2)", R"("threads":65)"), "stages[1].threads"},
      {edited(st, R"("threads":2)", R"("threads":2.5)"), "stages[1].threads"},
      {edited(st, R"("name":"in")", R"("name":"")"), "stages[0].name"},
      {edited(st, R"("name":"in")", R"("name":7)"), "stages[0].name"},
      {edited(st, R"("mode":"serial-in-order","threads":1)",
              R"("mode":"serial-in-order","threads":2)"),
       "stages[0].threads"},
      {edited(st, R"("us":1)", R"("us":1e999)"), "stages[0].service.us"},
      {edited(st, R"("kind":"fixed")", R"("kind":"fast")"), "stages[0].service.kind"},
      {edited(st, R"("kind":"fixed","us":1)", R"("kind":"uniform","minUs":3,"maxUs":2)"),
       "stages[0].service.minUs"},
      {edited(st, R"("kind":"fixed","us":1)", R"("kind":"kernel","name":"matrix","size":5000)"),
       "stages[0].service.size"},
      {edited(st, R"("emits":3)", R"("emits":65)"), "stages[1].emits"},
      {edited(st, R"("bypass":0.5)", R"("bypass":1.5)"), "stages[2].bypass"},
      {edited(st, R"("emits":3)", R"("emits":3,"bypass":0.5)"), "stages[1].bypass"},
      {edited(st, R"("capacity":null)", R"("capacity":0)"), "queue.capacity"},
      {edited(st, R"("items":9)", R"("threads":5,"items":9)"), "threads"},
      {edited(st, R"("items":9)", R"("cores":0,"items":9)"), "cores"},
      {edited(kind_text(RuntimeKind::kWorkStealing), R"("tokens":5)", R"("tokens":4097)"),
       "tokens"},
      {edited(kind_text(RuntimeKind::kWorkStealing), R"("threads":1,)",
              R"("threads":1,"emits":2,)"),
       "stages[0].emits"},
      {edited(kind_text(RuntimeKind::kTwoStageInput), R"("mode":"serial-in-order")",
              R"("mode":"parallel")"),
       "stages[0].mode"},
      {edited(out, R"("items")", R"("variant":"dual-thread","items")"), "stages[0].threads"},
      {edited(out, R"("batchItems":4)", R"("batchItems":4096,"buffers":65)"), "buffers"},
      {edited(out, R"(],"batchItems")",
              "," + fixed_stage("more", "parallel") + R"(],"batchItems")"),
       "stages"},
      {edited(b, R"(,"cores":1)", ""), "cores"},
      {edited(b, R"("kind":"fixed","us":1)", R"("kind":"exponential","meanUs":1)"),
       "stages[0].service.kind"},
      {edited(b, R"("quantumUs":50)", R"("quantumUs":0)"), "quantumUs"},
      {edited(ph, R"("items":30)", R"("items":30001)"), "items"},
      {edited(ph, R"(,"op":"pass")", ""), "stages[2].op"},
      {edited(ph, R"("to":["sieve"])", R"("to":["nope"])"), "streams[0].to[0]"},
      {edited(ph, R"("to":["sieve"])", R"("to":["sieve","sieve"])"), "streams[0].to[1]"},
      {edited(ph, R"("to":["sieve"])", R"("to":[])"), "streams[0].to"},
      {edited(ph, R"("from":["src"])", R"("from":["src","sieve"])"), "streams[0].to"},
      {edited(ph, R"("op":"count")", R"("op":"random")"), "stages[1].op"},
      {edited(ph, R"("name":"sink")", R"("name":"src")"), "stages[2].name"},
      {edited(ph, R"("streams":[)", R"("streams":[{"from":["sink"],"to":["src"]},)"),
       "stages[0].op"},
      {edited(ph, R"("op":"sieve")", R"("op":"sieve","parent":"sink")"), "stages[1].parent"},
      {edited(ph, R"("op":"pass")", R"("op":"pass","parent":"sink")"), "stages[2].parent"},
      {edited(ph, R"("op":"sieve")", R"("op":"sieve","parent":"src")"), "stages[1].parent"},
      {edited(ph, R"("streams":[)",
              R"("streams":[)" + std::string(R"({"from":["src"],"to":["sink"]},)")),
       "stages[2].op"},
  };
  for (const auto& c : cases) {
    try {
      parse_experiment_spec(c.text);
      ADD_FAILURE() << "accepted: " << c.text;
    } catch (const SpecError& e) {
      EXPECT_EQ(e.path(), c.path) << e.what() << "\n  for: " << c.text;
      EXPECT_NE(std::string(e.what()), "") << c.text;
    }
  }
}

// validate(): a spec built in C++ (tests, benches) gets its kind's defaults and checks.
TEST(SpecValidate, FillsTheDefaultsOfASpecBuiltInCpp) {
  ExperimentSpec s;
  s.stages.push_back({"a", StageMode::kParallel, 3, {}});
  s.items = 10;
  ExperimentSpec ws = s;
  validate(s);
  EXPECT_EQ(s.threads, 3u);
  EXPECT_EQ(s.tokens, 3u);
  ws.runtime = RuntimeKind::kWorkStealing;
  validate(ws);
  EXPECT_EQ(ws.threads, 1u);
  EXPECT_EQ(ws.tokens, 1u);
  ExperimentSpec none;
  EXPECT_THROW(validate(none), SpecError) << "no stage";
}

// make_runtime() builds each kind's runtime from its row, and the bindings read each kind's
// results through Runtime alone: the two-stage output, the phaser board and stop reason.
TEST(RuntimeKinds, EveryKindsRowMakesItsRuntimeAndItsResults) {
  for (const auto& [kind, text] : kind_specs()) {
    const ExperimentSpec spec = parse_experiment_spec(text);
    EXPECT_EQ(runtime_kind(kind).kind, kind);
    auto rt = make_runtime(spec);
    rt->run();
    EXPECT_TRUE(rt->finished()) << text;
    EXPECT_EQ(rt->items_completed(), rt->items_out()) << text;
    const std::string output = rt->output_json();
    if (kind == RuntimeKind::kTwoStageOutput) {
      EXPECT_NE(dynamic_cast<TwoStageOutputRuntime*>(rt.get()), nullptr);
      EXPECT_EQ(output.rfind(R"({"checksum":")", 0), 0u) << output;
    } else if (kind == RuntimeKind::kTwoStageInput) {
      EXPECT_NE(output.find(R"("records":9,"bad":0,"misplaced":0)"), std::string::npos) << output;
    } else {
      EXPECT_EQ(output, "null") << text;
    }
    EXPECT_EQ(rt->board_data() != nullptr, kind == RuntimeKind::kPhaser) << text;
    EXPECT_EQ(rt->stop_reason(), "") << text;
  }
  EXPECT_NE(dynamic_cast<BarrierRuntime*>(
                make_runtime(parse_experiment_spec(kind_text(RuntimeKind::kBarrier))).get()),
            nullptr);
}

}  // namespace
}  // namespace pipelab::pipeline
