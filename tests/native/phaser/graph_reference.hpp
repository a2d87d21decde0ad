// A sequential reference for phaser stream graphs (tests only): what the sink receives for every
// element of a graph with a source, computed one element at a time in stage order with no threads;
// and the primes below a bound by the classic sieve. The runtime's outputs are compared with them.
#pragma once

#include <cstdint>
#include <vector>

#include "pipelab/pipeline/phaser_graph/graph_task.hpp"
#include "pipelab/pipeline/spec_graph.hpp"

namespace pipelab::phaser::testing {

using pipeline::ExperimentSpec;
using pipeline::StageOp;
using pipeline::StreamReduce;

// Stages in an order where every stage comes after the stages it waits on.
inline std::vector<std::uint32_t> topological(const ExperimentSpec& spec,
                                              const pipeline::StreamGraph& g) {
  std::vector<std::uint32_t> order;
  std::vector<bool> done(spec.stages.size(), false);
  while (order.size() < spec.stages.size()) {
    for (std::uint32_t s = 0; s < spec.stages.size(); ++s) {
      if (done[s]) continue;
      bool ready = true;
      for (std::uint32_t k : g.inputs[s]) {
        for (const auto& n : spec.streams[k].from)
          ready = ready && done[*stage_index(spec.stages, n)];
      }
      if (ready) {
        done[s] = true;
        order.push_back(s);
      }
    }
  }
  return order;
}

// The sink's value for each element of a graph with a source (no sieve).
inline std::vector<Value> sink_values(const ExperimentSpec& spec) {
  const pipeline::StreamGraph g = pipeline::stream_graph(spec.stages, spec.streams);
  const std::vector<std::uint32_t> order = topological(spec, g);
  std::vector<std::vector<Value>> out(spec.stages.size());  // per stage: each copy's value
  std::vector<Value> prev_input(spec.stages.size(), 0);
  std::vector<Value> sink;
  for (std::uint64_t e = 0; e < spec.items; ++e) {
    for (std::uint32_t s : order) {
      const auto& st = spec.stages[s];
      Value in = 0;
      for (std::uint32_t k : g.inputs[s]) {
        const auto reduce = spec.streams[k].reduce;
        Value acc = identity(reduce == StreamReduce::kSum   ? Reduce::kSum
                             : reduce == StreamReduce::kMin ? Reduce::kMin
                             : reduce == StreamReduce::kMax ? Reduce::kMax
                                                            : Reduce::kAny);
        for (const auto& n : spec.streams[k].from) {
          for (Value v : out[*stage_index(spec.stages, n)]) {
            acc = reduce == StreamReduce::kSum   ? acc + v
                  : reduce == StreamReduce::kMin ? std::min(acc, v)
                  : reduce == StreamReduce::kMax ? std::max(acc, v)
                                                 : v;
          }
        }
        in += acc;
      }
      out[s].assign(st.threads, 0);
      for (std::uint32_t c = 0; c < st.threads; ++c) {
        Value v = in;
        switch (st.op) {
          case StageOp::kRandom:
            v = pipeline::phaser_graph::random_value(spec.seed, s, e);
            break;
          case StageOp::kCount:
            v = Value(e) + 2;
            break;
          case StageOp::kAvg:
            v = e == 0 ? in : (in + prev_input[s]) / 2;
            break;
          case StageOp::kAbs:
            v = in < 0 ? -in : in;
            break;
          case StageOp::kSplit:
            v = in * Value(c + 1);
            break;
          default:
            break;
        }
        out[s][c] = v;
      }
      prev_input[s] = in;
      if (g.sink && *g.sink == s) sink.push_back(out[s][0]);
    }
  }
  return sink;
}

inline std::vector<Value> primes_through(Value m) {
  std::vector<bool> composite(std::size_t(m + 1), false);
  std::vector<Value> primes;
  for (Value n = 2; n <= m; ++n) {
    if (composite[std::size_t(n)]) continue;
    primes.push_back(n);
    for (Value k = n * n; k <= m; k += n) composite[std::size_t(k)] = true;
  }
  return primes;
}

}  // namespace pipelab::phaser::testing
