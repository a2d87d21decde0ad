// CycleDetector: finds producer-consumer cycles in the registration graph as tasks register, so
// adaptive batching can turn batching off on exactly the streams that could deadlock with it.
//
// Roles: one caller at a time (the runtime calls it under its registration lock); not thread-safe.
// Invariant: nodes are streams; an edge u -> v exists once some task waits on u and signals v
//   (participation modes: registration.hpp). After add_task() returns, a stream is marked cyclic
//   iff it lies on a directed cycle of the edges added so far (a self-loop counts: a SIG_WAIT
//   barrier). Marks are never removed (edges are never removed: a task that drops keeps its edges,
//   which only makes the answer conservative).
// Capacity rule: stream ids are dense small integers (the runtime numbers them); the tables grow.
// Why at registration, and why that is early enough: batching a stream on a cycle deadlocks
//   (the paper's T1/T2 example: each holds an unpublished batch the other waits for). The root
//   registers a static graph completely before it schedules any task, so every cycle among its
//   children is known before an element is put. A task spawned later registers only with modes
//   its parent has (the capability rule), so each edge it adds, its parent already added: it
//   cannot close a new cycle ("trace only parent", 003). Nothing is ever switched mid-stream.
// Cost: each new edge u -> v runs a forward search from v and, when it reaches u, a backward
//   search from u: O(streams + edges) per new edge. Yellin's dynamic transitive closure (cited by
//   the paper) answers in amortised bounded-degree time; our graphs hold at most a few thousand
//   streams and new edges are rare (the sieve's spawns add none), so the plain search is enough.
// Memory orders: none (single caller).
// Source: Shirako et al., "Phaser beams" (003), adaptive batch optimisation: runtime cycle
//   detection (D. Yellin, "Speeding up dynamic transitive closure for bounded degree graphs",
//   Acta Informatica 30, 1993), switch to non-batched code when a cycle is found.
#pragma once

#include <cstdint>
#include <vector>

namespace pipelab::phaser {

class CycleDetector {
 public:
  // A task that waits on `waits` and signals `signals` registered. Returns the streams this
  // found on a cycle for the first time.
  std::vector<std::uint32_t> add_task(const std::vector<std::uint32_t>& waits,
                                      const std::vector<std::uint32_t>& signals) {
    std::vector<std::uint32_t> found;
    for (std::uint32_t u : waits) {
      for (std::uint32_t v : signals) add_edge(u, v, found);
    }
    return found;
  }

  bool cyclic(std::uint32_t stream) const noexcept {
    return stream < cyclic_.size() && cyclic_[stream];
  }
  std::uint32_t cyclic_count() const noexcept {
    std::uint32_t n = 0;
    for (char c : cyclic_) n += c ? 1 : 0;
    return n;
  }

 private:
  void grow(std::uint32_t node) {
    if (node >= out_.size()) {
      out_.resize(node + 1);
      in_.resize(node + 1);
      cyclic_.resize(node + 1, 0);
    }
  }

  void add_edge(std::uint32_t u, std::uint32_t v, std::vector<std::uint32_t>& found) {
    grow(u > v ? u : v);
    for (std::uint32_t w : out_[u]) {
      if (w == v) return;  // known edge: nothing new
    }
    out_[u].push_back(v);
    in_[v].push_back(u);
    // Nodes on a cycle through u -> v: reachable from v, and reaching u.
    const std::vector<char> from_v = reach(v, out_);
    if (!from_v[u]) return;
    const std::vector<char> to_u = reach(u, in_);
    for (std::uint32_t x = 0; x < cyclic_.size(); ++x) {
      if (from_v[x] && to_u[x] && !cyclic_[x]) {
        cyclic_[x] = 1;
        found.push_back(x);
      }
    }
  }

  std::vector<char> reach(std::uint32_t start, const std::vector<std::vector<std::uint32_t>>& adj) {
    std::vector<char> seen(adj.size(), 0);
    std::vector<std::uint32_t> stack{start};
    seen[start] = 1;
    while (!stack.empty()) {
      const std::uint32_t x = stack.back();
      stack.pop_back();
      for (std::uint32_t y : adj[x]) {
        if (!seen[y]) {
          seen[y] = 1;
          stack.push_back(y);
        }
      }
    }
    return seen;
  }

  std::vector<std::vector<std::uint32_t>> out_, in_;
  std::vector<char> cyclic_;
};

}  // namespace pipelab::phaser
