// The phaser runtime's stream graph (contracts/spec.md, "The phaser runtime"): its shape as the
// runtime builds it (stream_graph), and the phaser kind's rules: its own fields, and the graph
// rules whose breach would crash or hang the runtime — a name that is no stage, a stream nobody
// signals or waits on, a source that waits, a ring that is not one, a cycle behind a source, a
// sieve not fed by a count source, a parent chain that loops or grants modes it lacks. The same
// rules, in this order and with the messages people read, are src/spec/phaserGraph.ts's; here a
// short message names the field. Pure functions, no state.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pipelab/pipeline/spec.hpp"

namespace pipelab::pipeline {

inline bool is_source(StageOp op) noexcept {
  return op == StageOp::kRandom || op == StageOp::kCount;
}

// Registration bits of a stage on a stream: 1 = SIG (in from), 2 = WAIT (in to).
inline constexpr std::uint8_t kSigBit = 1;
inline constexpr std::uint8_t kWaitBit = 2;

struct StreamGraph {
  std::vector<std::vector<std::uint32_t>> inputs;   // per stage: streams it waits on
  std::vector<std::vector<std::uint32_t>> outputs;  // per stage: streams it signals
  std::vector<std::uint32_t> sources;               // stages with a source op, in order
  std::optional<std::uint32_t> token, sink, sieve;
  std::vector<std::vector<std::uint8_t>> mode;  // mode[stage][stream]: kSigBit | kWaitBit
};

inline std::optional<std::uint32_t> stage_index(const std::vector<StageSpec>& stages,
                                                const std::string& name) {
  for (std::uint32_t i = 0; i < stages.size(); ++i) {
    if (stages[i].name == name) return i;
  }
  return std::nullopt;
}

// Precondition: every name in the streams is a stage (the first graph rule).
inline StreamGraph stream_graph(const std::vector<StageSpec>& stages,
                                const std::vector<StreamSpec>& streams) {
  StreamGraph g;
  const std::size_t n = stages.size();
  g.inputs.resize(n);
  g.outputs.resize(n);
  g.mode.assign(n, std::vector<std::uint8_t>(streams.size(), 0));
  for (std::uint32_t k = 0; k < streams.size(); ++k) {
    for (const std::string& s : streams[k].from) g.mode[*stage_index(stages, s)][k] |= kSigBit;
    for (const std::string& s : streams[k].to) g.mode[*stage_index(stages, s)][k] |= kWaitBit;
  }
  std::vector<std::uint32_t> sinks;
  for (std::uint32_t i = 0; i < n; ++i) {
    for (std::uint32_t k = 0; k < streams.size(); ++k) {
      if (g.mode[i][k] & kSigBit) g.outputs[i].push_back(k);
      if (g.mode[i][k] & kWaitBit) g.inputs[i].push_back(k);
    }
    if (is_source(stages[i].op)) g.sources.push_back(i);
    if (stages[i].op == StageOp::kToken && !g.token) g.token = i;
    if (stages[i].op == StageOp::kSieve && !g.sieve) g.sieve = i;
    if (g.outputs[i].empty()) sinks.push_back(i);
  }
  if (!g.sources.empty() && sinks.size() == 1) g.sink = sinks[0];
  return g;
}

namespace spec_check {

// Stages reachable from `starts` along streams (from -> to); `starts` themselves only if so.
inline std::vector<bool> reachable(const StreamGraph& g, const ExperimentSpec& s,
                                   std::vector<std::uint32_t> todo) {
  std::vector<bool> seen(s.stages.size(), false);
  while (!todo.empty()) {
    const std::uint32_t i = todo.back();
    todo.pop_back();
    for (std::uint32_t k : g.outputs[i]) {
      for (const std::string& name : s.streams[k].to) {
        const std::uint32_t j = *stage_index(s.stages, name);
        if (!seen[j]) todo.push_back(j);
        seen[j] = true;
      }
    }
  }
  return seen;
}

inline void check_graph(const ExperimentSpec& s) {
  const auto& stages = s.stages;
  const auto& streams = s.streams;
  const auto stage = [](std::size_t i, const char* field) { return join(at("stages", i), field); };
  for (std::size_t i = 0; i < stages.size(); ++i) {
    need(*stage_index(stages, stages[i].name) == i, stage(i, "name"), "used twice");
  }
  for (std::size_t k = 0; k < streams.size(); ++k) {
    const std::string p = at("streams", k);
    for (const auto* side : {&streams[k].from, &streams[k].to}) {
      const std::string field = join(p, side == &streams[k].from ? "from" : "to");
      count(field, side->size(), limits::kStreamStages, "stages");
      for (std::size_t j = 0; j < side->size(); ++j) {
        need(stage_index(stages, (*side)[j]).has_value(), at(field, j), "not a stage");
        need(std::find(side->begin(), side->begin() + long(j), (*side)[j]) ==
                 side->begin() + long(j),
             at(field, j), "listed twice");
      }
      need(!side->empty(), field, "empty: a stream needs a signaller and a waiter");
    }
    for (const std::string& name : streams[k].to) {
      need(std::count(streams[k].from.begin(), streams[k].from.end(), name) == 0, join(p, "to"),
           "a stage waits on a stream it signals");
    }
  }
  const StreamGraph g = stream_graph(stages, streams);
  std::vector<std::uint32_t> tokens, sinks;
  for (std::uint32_t i = 0; i < stages.size(); ++i) {
    const StageOp op = stages[i].op;
    const std::size_t ins = g.inputs[i].size(), outs = g.outputs[i].size();
    need(op != StageOp::kNone, stage(i, "op"), "missing (required)");
    need(stages[i].threads == 1 || op == StageOp::kSplit, stage(i, "threads"),
         "only split stages have copies");
    need(is_source(op) ? ins == 0 && outs > 0 : ins > 0, stage(i, "op"),
         "a source signals and waits on nothing; any other op waits on a stream");
    need(op != StageOp::kAvg || ins == 1, stage(i, "op"), "avg reads one stream");
    need(op != StageOp::kSieve || (ins == 1 && outs == 1), stage(i, "op"),
         "a sieve reads one stream and signals one");
    if (op == StageOp::kToken) tokens.push_back(i);
    if (outs == 0) sinks.push_back(i);
  }
  const bool ring = g.sources.empty();
  need(ring ? tokens.size() == 1 : tokens.empty(), "stages",
       "a graph starts at sources, or at one token on a ring");
  if (!ring) need(sinks.size() == 1, "streams", "a graph with a source ends in one sink");
  for (std::uint32_t i = 0; ring && i < stages.size(); ++i) {
    need(stages[i].op == StageOp::kHop || stages[i].op == StageOp::kToken, stage(i, "op"),
         "a ring takes hop stages and one token");
    need(g.inputs[i].size() == 1 && g.outputs[i].size() == 1, at("stages", i),
         "a ring stage waits on one stream and signals one");
  }
  for (std::size_t k = 0; ring && k < streams.size(); ++k) {
    need(streams[k].from.size() == 1 && streams[k].to.size() == 1, at("streams", k),
         "a ring's stream joins one stage to the next");
  }
  const std::vector<bool> reached = reachable(g, s, ring ? tokens : g.sources);
  for (std::uint32_t i = 0; i < stages.size(); ++i) {
    need(reached[i] || (!ring && is_source(stages[i].op)), stage(i, "name"), "not reachable");
    need(ring || !reachable(g, s, {i})[i], stage(i, "name"), "on a cycle behind a source");
  }
  if (g.sieve) {
    const std::uint32_t i = *g.sieve, in = g.inputs[i][0], out = g.outputs[i][0];
    for (const std::string& name : streams[in].from) {
      need(stages[*stage_index(stages, name)].op == StageOp::kCount, stage(i, "op"),
           "a sieve reads a count source");
    }
    need(streams[out].from.size() == 1, join(at("streams", out), "from"), "the sieve's alone");
    need(streams[out].to.size() == 1 && stage_index(stages, streams[out].to[0]) == g.sink,
         join(at("streams", out), "to"), "the sink alone");
    need(g.inputs[*g.sink].size() == 1, stage(*g.sink, "op"), "waits on the primes alone");
  }
  for (std::uint32_t i = 0; i < stages.size(); ++i) {
    if (!stages[i].parent) continue;
    const std::string p = stage(i, "parent");
    const auto j = stage_index(stages, *stages[i].parent);
    need(j && *j != i, p, "not another stage");
    std::uint32_t steps = 0;  // a chain longer than the stages loops
    for (auto up = j; up && stages[*up].parent; up = stage_index(stages, *stages[*up].parent)) {
      need(++steps <= stages.size(), p, "the parents form a cycle");
    }
    for (std::size_t k = 0; k < streams.size(); ++k) {
      need((g.mode[i][k] & ~g.mode[*j][k]) == 0, p, "registers a mode its parent lacks");
    }
  }
}

inline void read_phaser(const json::Value& root, ExperimentSpec& s) {
  using spec_fields::array;
  const auto& streams = array(spec_fields::require(root, "", "streams"), "streams");
  for (std::size_t k = 0; k < streams.size(); ++k) {
    const std::string p = at("streams", k);
    spec_fields::object(streams[k], p);
    StreamSpec stream;
    for (auto [key, names] : {std::pair{"from", &stream.from}, std::pair{"to", &stream.to}}) {
      const auto& list = array(spec_fields::require(streams[k], p, key), join(p, key));
      for (std::size_t j = 0; j < list.size(); ++j) {
        names->push_back(spec_fields::string_of(list[j], at(join(p, key), j)));
      }
    }
    spec_read::word(streams[k], p, "reduce", stream.reduce, kReduceWords);
    s.streams.push_back(std::move(stream));
  }
  s.bound = spec_read::u32(root.find("bound"), "bound", 0);
  s.batch = spec_read::u32(root.find("batch"), "batch", 0);
  spec_read::word(root, "", "batching", s.batching, kBatchingWords);
}

inline void check_phaser(ExperimentSpec& s) {
  count("streams", s.streams.size(), limits::kStreams, "streams");
  check_graph(s);
  if (s.bound == 0) s.bound = std::uint32_t(limits::kDefaultBound);
  check_range("bound", s.bound, limits::kBound);
  if (s.batch == 0) s.batch = std::uint32_t(limits::kDefaultBatch);
  check_range("batch", s.batch, limits::kBatch);
  // A task per prime: the sieve's items are capped.
  for (const StageSpec& st : s.stages) {
    if (st.op == StageOp::kSieve) check_range("items", double(s.items), limits::kSieveItems);
  }
}

}  // namespace spec_check
}  // namespace pipelab::pipeline
