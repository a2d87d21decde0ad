// Property harness for the C++ spec parser: the good specs of the shared case table, their JSON
// text edited at random (bytes inserted, deleted, replaced; truncated; invalid UTF-8 included),
// and random token soup. Whatever the text, parse_experiment_spec() returns a spec or throws a
// SpecError naming what is wrong — never another exception, never a crash (the TSan build runs it
// too) — and an accepted spec's normalised text parses to itself. Seeded; PIPELAB_FUZZ_RUNS sets
// the number of texts (the long mode in README). The TypeScript validator gets the same treatment
// and is compared with this parser in tests/wasm/spec-fuzz.test.ts.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "pipelab/pipeline/spec_parse.hpp"
#include "pipelab/pipeline/spec_print.hpp"
#include "spec_case_table.hpp"

namespace pipelab::pipeline {
namespace {

int fuzz_runs() {
  const char* env = std::getenv("PIPELAB_FUZZ_RUNS");
  return env ? std::max(1, std::atoi(env)) : 3000;
}

std::vector<std::string> good_texts() {
  std::vector<std::string> out;
  for (const json::Value& c : test::spec_cases().array)
    if (c.find("spec")) out.push_back(test::spec_case_text(c));
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

// The property: a spec (whose normalised text parses to itself) or a SpecError with a message.
void check(const std::string& text) {
  try {
    const ExperimentSpec spec = parse_experiment_spec(text);
    const std::string normal = to_json(spec);
    EXPECT_EQ(to_json(parse_experiment_spec(normal)), normal) << text;
  } catch (const SpecError& e) {
    EXPECT_STRNE(e.what(), "") << text;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a SpecError: " << e.what() << "\n  for: " << text;
  }
}

TEST(SpecFuzz, EditedTextsGiveASpecOrASpecError) {
  const std::vector<std::string> good = good_texts();
  ASSERT_FALSE(good.empty());
  std::mt19937 rng(20261123);
  for (int run = 0; run < fuzz_runs(); ++run) check(mutate(good[rng() % good.size()], rng));
}

TEST(SpecFuzz, TokenSoupGivesASpecOrASpecError) {
  std::mt19937 rng(7);
  for (int run = 0; run < fuzz_runs(); ++run) check(token_soup(rng));
}

TEST(SpecFuzz, GoodSpecsStayGood) {
  for (const std::string& text : good_texts()) {
    ASSERT_NO_THROW(check(text)) << text;
  }
}

}  // namespace
}  // namespace pipelab::pipeline
