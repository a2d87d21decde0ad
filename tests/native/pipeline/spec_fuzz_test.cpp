// Property harness for the C++ spec reader and the runtimes behind it: whatever the text — a good
// spec of each kind edited at random (bytes inserted, deleted, replaced; cut short; invalid UTF-8),
// or token soup — parse_experiment_spec() returns a spec or throws a SpecError, never another
// exception, never a crash; and every spec it accepts runs: its runtime is built (or refused with a
// SpecError, e.g. more threads than the threads engine takes) and, cut to a few items of a few µs,
// finishes within seconds with every item out, or stops with a reason (a phaser graph that stalls).
// A crash or a hang here is what a bad spec could do to the wasm module (tests/wasm/spec-fuzz runs
// the shipped module the same way). Seeded; PIPELAB_FUZZ_RUNS sets the number of texts.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "pipelab/pipeline/runtime_kinds.hpp"
#include "spec_samples.hpp"

namespace pipelab::pipeline {
namespace {

int fuzz_runs() {
  const char* env = std::getenv("PIPELAB_FUZZ_RUNS");
  return env ? std::max(1, std::atoi(env)) : 3000;
}

std::vector<std::string> good_texts() {
  using test::fixed_stage;
  std::vector<std::string> out;
  for (const auto& [kind, text] : test::kind_specs()) out.push_back(text);
  // A ring of hops, and two sources (one spawned by the other) into a split-join and avg.
  out.push_back(
      R"({"runtime":"phaser","stages":[)" + fixed_stage("t", "parallel", 1, R"(,"op":"token")") +
      "," + fixed_stage("h", "parallel", 1, R"(,"op":"hop")") +
      R"(],"streams":[{"from":["t"],"to":["h"]},{"from":["h"],"to":["t"]}],"batch":4,"items":20,"seed":2})");
  out.push_back(
      R"({"runtime":"phaser","stages":[)" + fixed_stage("s", "parallel", 1, R"(,"op":"random")") +
      "," + fixed_stage("s2", "parallel", 1, R"(,"op":"random","parent":"s")") + "," +
      fixed_stage("x", "parallel", 3, R"(,"op":"split")") + "," +
      fixed_stage("a", "parallel", 1, R"(,"op":"avg")") +
      R"(],"streams":[{"from":["s","s2"],"to":["x"]},{"from":["x"],"to":["a"],"reduce":"max"}],)"
      R"("threads":2,"items":20,"seed":2})");
  return out;
}

// What a mutation may put into the text: JSON punctuation, digits, letters of the keywords,
// escapes, and bytes that are not UTF-8 on their own.
constexpr char kAlphabet[] = "{}[]:,\"\\ 0123456789.eE+-tfnulx\n\x80\xc3\xff";

std::string mutate(std::string text, std::mt19937& rng) {
  std::uniform_int_distribution<int> edits(1, 4);
  for (int e = edits(rng); e > 0; --e) {
    const std::size_t at = text.empty() ? 0 : rng() % text.size();
    const char c = kAlphabet[rng() % (sizeof kAlphabet - 1)];
    switch (rng() % 4) {
      case 0:
        text.insert(at, 1, c);
        break;
      case 1:
        if (!text.empty()) text.erase(at, 1);
        break;
      case 2:
        if (!text.empty()) text[at] = c;
        break;
      default:
        text.resize(at);  // cut short
    }
  }
  return text;
}

std::string token_soup(std::mt19937& rng) {
  static const char* tokens[] = {
      "{",  "}",     "[",    "]",    ":",          ",",       "\"runtime\"", "\"static\"", "1",
      "-1", "1e999", "null", "true", "\"stages\"", "\"\\u\"", "\"\\ud800\"", "0.5",        " "};
  std::string out;
  for (int n = int(rng() % 40); n > 0; --n) out += tokens[rng() % (sizeof tokens / sizeof *tokens)];
  return out;
}

// An accepted spec cut to a short run: at most 30 items (a ring's hops, a sieve's integers), every
// service time at most 20 µs. Still a spec the reader would accept: only smaller numbers.
void shorten(ExperimentSpec& s) {
  s.items = std::min<std::uint64_t>(s.items, 30);
  for (StageSpec& st : s.stages) {
    for (double* us : {&st.service.us, &st.service.mean_us, &st.service.min_us, &st.service.max_us,
                       &st.service.fast_us, &st.service.slow_us}) {
      *us = std::min(*us, 20.0);
    }
    if (st.service.kind == ServiceKind::kUniform) st.service.min_us = 0;
    st.service.size = std::min<std::uint32_t>(st.service.size, 8);
  }
  s.quantum_us = std::min<std::uint32_t>(s.quantum_us, 200);
}

// Builds and runs an accepted spec; it must finish within 20 s with every item out or a reason.
void run_briefly(ExperimentSpec spec, const std::string& text) {
  shorten(spec);
  std::unique_ptr<Runtime> rt;
  try {
    rt = make_runtime(spec);
  } catch (const SpecError&) {
    return;  // refused by the threads engine (e.g. more than 64 threads): a clean answer
  }
  rt->start();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!rt->finished() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  const bool finished = rt->finished();
  if (!finished) rt->request_cancel();
  rt->join();
  ASSERT_TRUE(finished) << "hung: " << text;
  if (rt->stop_reason().empty()) {
    EXPECT_EQ(rt->items_completed(), rt->items_out()) << text;
  }
}

// The property: a spec that runs, or a SpecError with a message. Returns whether it was accepted.
bool check(const std::string& text, bool run) {
  try {
    const ExperimentSpec spec = parse_experiment_spec(text);
    if (run) run_briefly(spec, text);
    return true;
  } catch (const SpecError& e) {
    EXPECT_STRNE(e.what(), "") << text;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a SpecError: " << e.what() << "\n  for: " << text;
  }
  return false;
}

TEST(SpecFuzz, EditedTextsGiveARunningSpecOrASpecError) {
  const std::vector<std::string> good = good_texts();
  std::mt19937 rng(20261123);
  int accepted = 0;
  for (int run = 0; run < fuzz_runs(); ++run) {
    accepted += check(mutate(good[rng() % good.size()], rng), true);
  }
  EXPECT_GT(accepted, fuzz_runs() / 100) << "some mutations keep a spec valid, and those run";
}

TEST(SpecFuzz, TokenSoupGivesASpecOrASpecError) {
  std::mt19937 rng(7);
  for (int run = 0; run < fuzz_runs(); ++run) check(token_soup(rng), true);
}

TEST(SpecFuzz, GoodSpecsStayGoodAndRun) {
  for (const std::string& text : good_texts()) EXPECT_TRUE(check(text, true)) << text;
}

}  // namespace
}  // namespace pipelab::pipeline
