// The phaser runtime's stream graph (contracts/spec.md, "The phaser runtime"): the graph rules a
// spec must obey before it runs, and the graph's shape as the runtime builds it. The C++ twin of
// src/spec/phaserGraph.ts: the same checks in the same order with the same messages (the case
// table tests/fixtures/spec-cases.json holds the two together). Pure functions, no state.
//
// The rules, in order: stage names are unique; each stream's ends name stages, once each, and it
// has a signaller and a waiter (none of them both); per stage, only split stages have copies,
// sources wait on nothing and signal something, every other op waits on something, avg reads one
// stream, a sieve reads one and signals one; something starts the graph (sources, or exactly one
// token — not both); a graph with a source ends in exactly one sink, a ring is hop stages joined
// one to one; every stage is reachable from a start; a graph with a source is acyclic; a sieve
// reads a count source and sends its primes to the sink alone; a parent is another stage, parent
// chains end at the root, and a child registers only with modes its parent has.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pipelab/pipeline/json_write.hpp"
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

// Precondition: every name in the streams is a stage (check_phaser_graph's first rules).
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

namespace graph_detail {

inline std::string q(const std::string& s) { return json::quote(s); }
inline std::string stage_field(std::size_t i, const char* field) {
  return detail::stage_path(i) + "." + field;
}
inline std::string stream_path(std::size_t k) { return "streams[" + std::to_string(k) + "]"; }
inline std::string names_of(const std::vector<StageSpec>& stages) {
  std::string out;
  for (const StageSpec& s : stages) out += (out.empty() ? "" : ", ") + s.name;
  return out;
}
inline const char* mode_name(std::uint8_t m) {
  static const char* const kNames[] = {"no registration", "SIG", "WAIT", "SIG_WAIT"};
  return kNames[m & 3];
}

// Stages reachable from `starts` along streams (from -> to).
inline std::vector<bool> reachable(const StreamGraph& g, const std::vector<StageSpec>& stages,
                                   const std::vector<StreamSpec>& streams,
                                   const std::vector<std::uint32_t>& starts) {
  std::vector<bool> seen(stages.size(), false);
  std::vector<std::uint32_t> todo = starts;
  for (std::uint32_t s : starts) seen[s] = true;
  while (!todo.empty()) {
    const std::uint32_t i = todo.back();
    todo.pop_back();
    for (std::uint32_t k : g.outputs[i]) {
      for (const std::string& name : streams[k].to) {
        const std::uint32_t j = *stage_index(stages, name);
        if (!seen[j]) {
          seen[j] = true;
          todo.push_back(j);
        }
      }
    }
  }
  return seen;
}

inline bool on_cycle(const StreamGraph& g, const std::vector<StageSpec>& stages,
                     const std::vector<StreamSpec>& streams, std::uint32_t i) {
  std::vector<std::uint32_t> next;
  for (std::uint32_t k : g.outputs[i]) {
    for (const std::string& name : streams[k].to) next.push_back(*stage_index(stages, name));
  }
  return reachable(g, stages, streams, next)[i];
}

inline void check_stream_ends(const std::vector<StageSpec>& stages,
                              const std::vector<StreamSpec>& streams) {
  for (std::size_t k = 0; k < streams.size(); ++k) {
    const std::string path = stream_path(k);
    for (const char* side : {"from", "to"}) {
      const auto& list = std::string(side) == "from" ? streams[k].from : streams[k].to;
      for (std::size_t j = 0; j < list.size(); ++j) {
        const std::string at = path + "." + side + "[" + std::to_string(j) + "]";
        if (!stage_index(stages, list[j])) {
          throw SpecError(at, q(list[j]) + " is not a stage (stages: " + names_of(stages) + ")");
        }
        if (std::find(list.begin(), list.begin() + long(j), list[j]) != list.begin() + long(j)) {
          throw SpecError(at, q(list[j]) + " is listed twice");
        }
      }
    }
    if (streams[k].from.empty()) {
      throw SpecError(path + ".from",
                      "no stage signals this stream, so a stage waiting on it would wait forever");
    }
    if (streams[k].to.empty()) {
      throw SpecError(path + ".to",
                      "no stage waits on this stream, so its signallers would stop at the bound "
                      "forever");
    }
    for (const std::string& name : streams[k].to) {
      if (std::find(streams[k].from.begin(), streams[k].from.end(), name) !=
          streams[k].from.end()) {
        throw SpecError(path + ".to", q(name) +
                                          " also signals this stream (a stage may not wait on a "
                                          "stream it signals)");
      }
    }
  }
}

inline void check_stage_ops(const StreamGraph& g, const std::vector<StageSpec>& stages) {
  for (std::size_t i = 0; i < stages.size(); ++i) {
    const StageSpec& s = stages[i];
    const std::string op = to_string(s.op);
    const std::size_t ins = g.inputs[i].size(), outs = g.outputs[i].size();
    if (s.threads != 1 && s.op != StageOp::kSplit) {
      throw SpecError(stage_field(i, "threads"), std::to_string(s.threads) +
                                                     " is out of range (allowed 1 for op " + op +
                                                     ": only split stages have copies)");
    }
    if (is_source(s.op)) {
      if (ins > 0) {
        throw SpecError(stage_field(i, "op"), "a " + op + " source waits on no stream (streams[" +
                                                  std::to_string(g.inputs[i][0]) + "] lists " +
                                                  q(s.name) + " in to)");
      }
      if (outs == 0) {
        throw SpecError(stage_field(i, "op"), "a " + op +
                                                  " source needs a stream to signal (no stream "
                                                  "lists " +
                                                  q(s.name) + " in from)");
      }
    } else if (ins == 0) {
      throw SpecError(stage_field(i, "op"),
                      op + " needs a stream to wait on (no stream lists " + q(s.name) + " in to)");
    }
    if (s.op == StageOp::kAvg && ins != 1) {
      throw SpecError(stage_field(i, "op"), "avg reads one stream (" + std::to_string(ins) +
                                                " streams list " + q(s.name) + " in to)");
    }
    if (s.op == StageOp::kSieve && (ins != 1 || outs != 1)) {
      throw SpecError(stage_field(i, "op"), "a sieve reads one stream and signals one (it reads " +
                                                std::to_string(ins) + ", signals " +
                                                std::to_string(outs) + ")");
    }
  }
}

inline void check_starts_and_ends(const StreamGraph& g, const std::vector<StageSpec>& stages,
                                  const std::vector<StreamSpec>& streams) {
  std::vector<std::uint32_t> sinks, tokens;
  for (std::uint32_t i = 0; i < stages.size(); ++i) {
    if (g.outputs[i].empty()) sinks.push_back(i);
    if (stages[i].op == StageOp::kToken) tokens.push_back(i);
  }
  if (g.sources.empty() && tokens.empty()) {
    throw SpecError("stages",
                    "no stage starts the graph (allowed: a random or count source, or one token "
                    "stage on a ring)");
  }
  if (!g.sources.empty() && !tokens.empty()) {
    throw SpecError(stage_field(tokens[0], "op"),
                    "a token starts a ring, but this graph has a source (" +
                        q(stages[g.sources[0]].name) + ")");
  }
  if (tokens.size() > 1) {
    throw SpecError(stage_field(tokens[1], "op"),
                    "a second token (a ring carries one: " + q(stages[tokens[0]].name) + ")");
  }
  if (!g.sources.empty()) {
    if (sinks.empty()) {
      throw SpecError("streams",
                      "no stage ends the graph (a graph with a source ends in one stage that "
                      "signals no stream)");
    }
    if (sinks.size() > 1) {
      throw SpecError(stage_field(sinks[1], "name"),
                      q(stages[sinks[1]].name) +
                          " is a second sink (a graph with a source ends in one stage: " +
                          q(stages[sinks[0]].name) + ")");
    }
    return;
  }
  for (std::size_t i = 0; i < stages.size(); ++i) {
    if (stages[i].op != StageOp::kHop && stages[i].op != StageOp::kToken) {
      throw SpecError(stage_field(i, "op"), std::string(to_string(stages[i].op)) +
                                                " does not pass a token on (a ring takes hop "
                                                "stages and one token)");
    }
  }
  for (std::size_t i = 0; i < stages.size(); ++i) {
    const std::size_t ins = g.inputs[i].size(), outs = g.outputs[i].size();
    if (ins != 1 || outs != 1) {
      throw SpecError(detail::stage_path(i),
                      "a ring stage waits on one stream and signals one (it waits on " +
                          std::to_string(ins) + ", signals " + std::to_string(outs) + ")");
    }
  }
  for (std::size_t k = 0; k < streams.size(); ++k) {
    if (streams[k].from.size() != 1 || streams[k].to.size() != 1) {
      throw SpecError(stream_path(k), "a ring's stream joins one stage to the next (from " +
                                          std::to_string(streams[k].from.size()) + ", to " +
                                          std::to_string(streams[k].to.size()) + ")");
    }
  }
}

inline void check_sieve(const StreamGraph& g, const std::vector<StageSpec>& stages,
                        const std::vector<StreamSpec>& streams) {
  if (!g.sieve) return;
  const std::uint32_t i = *g.sieve;
  const std::uint32_t in = g.inputs[i][0];
  for (const std::string& name : streams[in].from) {
    if (stages[*stage_index(stages, name)].op != StageOp::kCount) {
      throw SpecError(stage_field(i, "op"),
                      "a sieve reads the integers of a count source (streams[" +
                          std::to_string(in) + "] comes from " + q(name) + ")");
    }
  }
  const std::uint32_t k = g.outputs[i][0];
  if (streams[k].from.size() != 1) {
    throw SpecError(stream_path(k) + ".from", "the sieve signals its primes alone (" +
                                                  std::to_string(streams[k].from.size()) +
                                                  " stages signal this stream)");
  }
  if (streams[k].to.size() != 1 || stage_index(stages, streams[k].to[0]) != g.sink) {
    throw SpecError(stream_path(k) + ".to", "the sieve's primes go to the sink alone");
  }
  if (g.inputs[*g.sink].size() != 1) {
    throw SpecError(stage_field(*g.sink, "op"),
                    "the sink of a sieve waits on its primes alone (it waits on " +
                        std::to_string(g.inputs[*g.sink].size()) + " streams)");
  }
}

inline void check_parents(const StreamGraph& g, const std::vector<StageSpec>& stages,
                          const std::vector<StreamSpec>& streams) {
  for (std::uint32_t i = 0; i < stages.size(); ++i) {
    if (!stages[i].parent) continue;
    const std::string& parent = *stages[i].parent;
    const std::string path = stage_field(i, "parent");
    const auto j = stage_index(stages, parent);
    if (!j) throw SpecError(path, q(parent) + " is not a stage (stages: " + names_of(stages) + ")");
    if (*j == i) {
      throw SpecError(path, q(parent) +
                                " is the stage itself (a stage is spawned by another, or by the "
                                "root)");
    }
    std::vector<bool> seen(stages.size(), false);
    seen[i] = true;
    for (std::uint32_t p = *j; stages[p].parent;) {
      const auto up = stage_index(stages, *stages[p].parent);
      if (!up) break;
      p = *up;
      if (seen[p]) {
        throw SpecError(path, "the parents of " + q(stages[i].name) +
                                  " form a cycle (a parent chain ends at the root)");
      }
      seen[p] = true;
    }
    for (std::size_t k = 0; k < streams.size(); ++k) {
      const std::uint8_t child = g.mode[i][k], of_parent = g.mode[*j][k];
      if ((child & ~of_parent) != 0) {
        throw SpecError(path, q(stages[i].name) + " registers " + mode_name(child) +
                                  " on streams[" + std::to_string(k) + "], but its parent " +
                                  q(parent) + " has " + mode_name(of_parent) +
                                  " there (a child registers only with modes its parent has)");
      }
    }
  }
}

}  // namespace graph_detail

// Throws SpecError naming the first rule the graph breaks (see the file comment for the order).
inline void check_phaser_graph(const std::vector<StageSpec>& stages,
                               const std::vector<StreamSpec>& streams) {
  using namespace graph_detail;
  for (std::size_t i = 0; i < stages.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (stages[j].name == stages[i].name) {
        throw SpecError(stage_field(i, "name"),
                        q(stages[i].name) + " is used twice (a phaser graph names stages by name)");
      }
    }
  }
  check_stream_ends(stages, streams);
  const StreamGraph g = stream_graph(stages, streams);
  check_stage_ops(g, stages);
  check_starts_and_ends(g, stages, streams);
  const std::vector<std::uint32_t> starts =
      g.sources.empty() ? std::vector<std::uint32_t>{*g.token} : g.sources;
  const std::vector<bool> reached = reachable(g, stages, streams, starts);
  for (std::size_t i = 0; i < stages.size(); ++i) {
    if (!reached[i]) {
      throw SpecError(stage_field(i, "name"), q(stages[i].name) + " is not reachable from " +
                                                  (g.sources.empty() ? "the token" : "a source") +
                                                  " (no chain of streams leads to it)");
    }
  }
  if (!g.sources.empty()) {
    for (std::uint32_t i = 0; i < stages.size(); ++i) {
      if (on_cycle(g, stages, streams, i)) {
        throw SpecError(stage_field(i, "name"),
                        q(stages[i].name) +
                            " is on a cycle (a graph with a source must be acyclic; a ring of hop "
                            "stages carries a token instead)");
      }
    }
  }
  check_sieve(g, stages, streams);
  check_parents(g, stages, streams);
}

// A sieve graph takes at most limits::kSieveItems integers: one task per prime.
inline void check_sieve_items(double items) {
  if (items > limits::kSieveItems.hi) {
    throw SpecError("items", detail::num(items) + " is out of range (allowed " +
                                 detail::allowed(limits::kSieveItems) +
                                 " with a sieve stage: one task per prime)");
  }
}

inline bool has_sieve(const std::vector<StageSpec>& stages) {
  return std::any_of(stages.begin(), stages.end(),
                     [](const StageSpec& s) { return s.op == StageOp::kSieve; });
}

}  // namespace pipelab::pipeline
