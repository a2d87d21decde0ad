// StaticRuntime: the Pthreads-style pipeline of the paper — threads pinned to stages, queues
// between them — in two shapes: thread-per-stage (RuntimeKind::kStatic: one thread per serial
// stage, `threads` per parallel stage) and collapsed (kCollapsed: each run of consecutive parallel
// stages fused into one group served by the sum of their threads). Oversubscription is the same
// code with more threads than cores.
// Thread roles: group 0's threads generate items (a shared atomic counter, so a parallel first
// stage is the paper's parallel input stage); every other thread pops from the link before its
// group, serves the group's stages in turn, pushes to the link after it (blocked-full: back off
// and retry), and the last group delivers. A serial-in-order group after a parallel one reorders
// by sequence number in a private min-heap (its thread alone owns it).
// Telemetry of a BatchQueue link's real indices (batch-* events, contracts/telemetry.md): the link
// reports them (Link::take_*_moves) and the pushing or popping thread records them right after the
// enqueue / dequeue event, and after each flush that published a partial semi-buffer.
// End of stream: a producer thread flushes its output link (BatchQueue holds a partial batch
// until flushed; producers also flush whenever their input runs dry) and then decrements the
// link's producers_left (release); a consumer that saw producers_left == 0 (acquire) before an
// empty pop knows the stream is over. Every wait rechecks the cancel flag (Backoff caps sleeps).
// Pause: a thread parks at the top of its loop (between items, or while waiting for input), and
// inside its push and final-flush waits (holding a served item), so a parked consumer never keeps
// its producers from parking too.
// Emitting and bypassed stages (dedup): a stage that emits e items per item hands on e items, the
// k-th numbered seq·e + k, so the numbers after it are dense and in input order again (a
// serial-in-order stage downstream reorders by them). An item that bypasses a stage alone in its
// group is pushed past it, to the link into the next group it does not bypass (or delivered), so
// that link has producers in several groups; inside a fused group the worker just skips the
// stage. Each thread flushes and signs off from every link it may push to.
#pragma once

#include <cstdint>
#include <memory>
#include <queue>
#include <vector>

#include "pipelab/cacheline.hpp"
#include "pipelab/pipeline/link.hpp"
#include "pipelab/pipeline/runtime.hpp"
#include "pipelab/sched/backoff.hpp"
#include "pipelab/workload/mix.hpp"

namespace pipelab::pipeline {

class StaticRuntime final : public Runtime {
 public:
  struct Group {
    std::uint32_t first = 0, last = 0;  // stages first..last, inclusive
    StageMode mode = StageMode::kParallel;
    std::uint32_t threads = 1;
  };

  explicit StaticRuntime(const ExperimentSpec& spec, const RunOptions& options = {})
      : Runtime(spec, kPipelineRules, options) {
    groups_ = make_groups(spec_);
    for (std::uint32_t g = 0; g < groups_.size(); ++g) {
      for (std::uint32_t i = 0; i < groups_[g].threads; ++i) group_of_.push_back(g);
    }
    producers_.assign(groups_.size(), 0);
    for (std::uint32_t g = 0; g + 1 < groups_.size(); ++g) {
      for (std::uint32_t h : destinations(g)) producers_[h] += groups_[g].threads;
    }
    for (std::uint32_t g = 1; g < groups_.size(); ++g) links_.push_back(new_link(g));
  }
  ~StaticRuntime() override {
    request_cancel();
    join();
  }

  std::uint32_t thread_count() const noexcept override { return spec_.threads; }
  const std::vector<Group>& groups() const noexcept { return groups_; }
  // links()[g] is the input of group g + 1 (from group g, and from earlier groups whose items may
  // bypass the groups between).
  const std::vector<std::unique_ptr<Link>>& links() const noexcept { return links_; }
  // Threads that push into group g's input link (0 for group 0).
  std::uint32_t producers_of(std::uint32_t g) const noexcept { return producers_[g]; }

  static std::vector<Group> make_groups(const ExperimentSpec& spec) {
    std::vector<Group> groups;
    const bool collapse = spec.runtime == RuntimeKind::kCollapsed;
    for (std::uint32_t s = 0; s < spec.stages.size(); ++s) {
      const StageSpec& st = spec.stages[s];
      if (collapse && st.mode == StageMode::kParallel && !groups.empty() &&
          groups.back().mode == StageMode::kParallel) {
        groups.back().last = s;
        groups.back().threads += st.threads;
        continue;
      }
      groups.push_back(Group{s, s, st.mode, st.threads});
    }
    return groups;
  }

 private:
  struct Later {
    bool operator()(const PipelineItem& a, const PipelineItem& b) const noexcept {
      return a.seq > b.seq;
    }
  };

  // A single-stage group that items may skip: pushing past it is the bypass.
  bool skippable(std::uint32_t g) const noexcept {
    return groups_[g].first == groups_[g].last && spec_.stages[groups_[g].first].bypass > 0;
  }
  // The groups whose input link group g's threads may push to (the next one, and past every
  // skippable group after it); groups_.size() stands for delivery.
  std::vector<std::uint32_t> destinations(std::uint32_t g) const {
    std::vector<std::uint32_t> out;
    std::uint32_t h = g + 1;
    for (; h < groups_.size(); ++h) {
      out.push_back(h);
      if (!skippable(h)) break;
    }
    return out;
  }
  std::unique_ptr<Link> new_link(std::uint32_t g) const {
    auto link = make_link(spec_.queue, producers_[g] == 1 && groups_[g].threads == 1);
    link->reset(producers_[g]);
    return link;
  }

  void prepare() override {
    next_source_.store(0, std::memory_order_relaxed);
    // Fresh links each run: a cancelled run may leave items or a half-filled batch behind.
    for (std::uint32_t g = 1; g < groups_.size(); ++g) {
      links_[g - 1] = new_link(g);
      links_[g - 1]->report_indices(telemetry_.enabled());
    }
  }

  void work(std::uint32_t w) override {
    const std::uint32_t gi = group_of_[w];
    const Group& g = groups_[gi];
    Link* in = gi > 0 ? links_[gi - 1].get() : nullptr;
    std::vector<Link*> outs;
    for (std::uint32_t h : destinations(gi)) outs.push_back(links_[h - 1].get());
    const bool reorder = in != nullptr && g.mode == StageMode::kSerialInOrder;
    std::priority_queue<PipelineItem, std::vector<PipelineItem>, Later> pending;
    std::uint64_t expect = 0;
    sched::Backoff backoff;
    const auto wid = std::uint16_t(w);
    const auto first = std::uint8_t(g.first);
    const bool tel = telemetry_.enabled();
    double wait_since = -1;
    double popped_us = telemetry::kReadClock;  // when the item in hand was popped
                                               // (telemetry::kReadClock: not popped)

    while (!cancel_requested()) {
      pause_point(w);
      if (cancel_requested()) break;
      PipelineItem it;
      if (in == nullptr) {
        it.seq = next_source_.fetch_add(1, std::memory_order_relaxed);
        if (it.seq >= spec_.items) break;
        it.value = workload::splitmix64(it.seq ^ spec_.seed);
        if (options_.check_invariants) {
          // In input items: the run so far delivered this many inputs' worth of items out.
          const std::uint64_t done = items_completed() / out_per_item_;
          if (it.seq + 1 > done) checks_.on_admit(it.seq + 1 - done);
        }
      } else if (reorder && !pending.empty() && pending.top().seq == expect) {
        it = pending.top();
        pending.pop();
      } else {
        const bool ended = in->producers_finished();
        if (!in->try_pop(it)) {
          if (ended) break;
          for (Link* out : outs)
            (void)flush(wid, *out, g.last);  // about to idle: don't strand a batch
          if (tel && wait_since < 0) {
            wait_since = telemetry_.now_us();
            telemetry_.record_at(wait_since, wid, telemetry::EventKind::kBlockedEmpty, first,
                                 telemetry::kNoItem);
          }
          backoff.pause();
          continue;
        }
        const std::uint64_t occ = in->count_pop();
        if (tel) {
          popped_us = telemetry_.now_us();
          end_wait(wait_since, popped_us, telemetry_.counters(g.first).idle_us, g.first);
          telemetry_.counters(g.first).queue_occupancy.store(occ, std::memory_order_relaxed);
          telemetry_.record_at(popped_us, wid, telemetry::EventKind::kDequeue, first,
                               std::uint32_t(it.seq), std::uint32_t(occ));
          Link::IndexMoves moves;
          record_moves(wid, first, std::uint32_t(it.seq), moves, in->take_consumer_moves(moves),
                       popped_us);
        }
        if (reorder && it.seq != expect) {
          pending.push(it);
          popped_us =
              telemetry::kReadClock;  // served later, from `pending`: the start reads the clock
          continue;
        }
      }
      backoff.reset();
      if (reorder) ++expect;
      // One clock read per boundary (the clock is most of telemetry's cost): service starts at
      // the instant of the pop just done (none lies between), each fused stage at the end of the
      // one before, and the push is stamped with the last end when it succeeds at once.
      const double at_us = popped_us;
      popped_us = telemetry::kReadClock;
      if (!advance(wid, gi, g.first, it, backoff, at_us)) break;
    }
    for (Link* out : outs) {
      while (!flush(wid, *out, g.last) && !cancel_requested()) {
        pause_point(w);
        backoff.pause();
      }
      out->producer_done();
    }
  }

  // Serves `it` from stage `s` to the end of group `gi` (skipping stages it bypasses), then hands
  // it on; a stage that emits several items hands on each in turn, depth first. at_us: when the
  // first service starts (telemetry::kReadClock: read the clock). False if cancelled while
  // handing on.
  bool advance(std::uint16_t wid, std::uint32_t gi, std::uint32_t s, PipelineItem it,
               sched::Backoff& backoff, double at_us) noexcept {
    const Group& g = groups_[gi];
    for (; s <= g.last; ++s) {
      if (work_[s].bypassed(it.seq)) continue;
      const std::uint32_t emits = spec_.stages[s].emits;
      at_us = serve(wid, s, it, at_us, emits);
      if (emits == 1) continue;
      for (std::uint32_t k = 0; k < emits; ++k) {
        const PipelineItem child{it.seq * emits + k, workload::splitmix64(it.value + k)};
        if (!advance(wid, gi, s + 1, child, backoff, at_us)) return false;
        at_us = telemetry::kReadClock;  // the next child starts after this one was handed on
      }
      return true;
    }
    // Past every skippable group this item bypasses; past the last group it is delivered.
    std::uint32_t h = gi + 1;
    while (h < groups_.size() && skippable(h) && work_[groups_[h].first].bypassed(it.seq)) ++h;
    if (h == groups_.size()) {
      item_done(it.seq, it.value);
      return true;
    }
    return push(wid, *links_[h - 1], it, g.last, backoff, at_us);
  }

  // Pushes with back-off; false if cancelled first. ended_us: when the item's last service ended
  // (the enqueue's time if the first try succeeds; telemetry::kReadClock: read the clock).
  bool push(std::uint16_t wid, Link& out, const PipelineItem& it, std::uint32_t stage,
            sched::Backoff& backoff, double ended_us) noexcept {
    const bool tel = telemetry_.enabled();
    double wait_since = -1;
    while (!out.try_push(it)) {
      ended_us = telemetry::kReadClock;
      pause_point(wid);
      if (cancel_requested()) return false;
      (void)flush(wid, out, stage);
      if (tel && wait_since < 0) {
        wait_since = telemetry_.now_us();
        telemetry_.record_at(wait_since, wid, telemetry::EventKind::kBlockedFull,
                             std::uint8_t(stage), std::uint32_t(it.seq));
      }
      backoff.pause();
    }
    backoff.reset();
    const std::uint64_t occ = out.count_push();
    if (tel) {
      const double now_us = ended_us != telemetry::kReadClock ? ended_us : telemetry_.now_us();
      end_wait(wait_since, now_us, telemetry_.counters(stage).blocked_us, stage);
      telemetry_.record_at(now_us, wid, telemetry::EventKind::kEnqueue, std::uint8_t(stage),
                           std::uint32_t(it.seq), std::uint32_t(occ));
      Link::IndexMoves moves;
      record_moves(wid, std::uint8_t(stage), std::uint32_t(it.seq), moves,
                   out.take_producer_moves(moves), now_us);
    }
    return true;
  }

  // Publishes a partial batch (never waits); false if the queue cannot yet.
  bool flush(std::uint16_t wid, Link& out, std::uint32_t stage) noexcept {
    if (!out.try_flush()) return false;
    if (telemetry_.enabled()) {
      Link::IndexMoves moves;
      record_moves(wid, std::uint8_t(stage), telemetry::kNoItem, moves,
                   out.take_producer_moves(moves));
    }
    return true;
  }

  // A BatchQueue link's index moves (Link::take_*_moves) as batch-* events, stamped at_us (the
  // pop or push they came with, so a worker's events stay in time order) or, with
  // telemetry::kReadClock, now.
  void record_moves(std::uint16_t wid, std::uint8_t stage, std::uint32_t item,
                    const Link::IndexMoves& moves, std::uint32_t count,
                    double at_us = telemetry::kReadClock) noexcept {
    if (count == 0) return;
    const double t = at_us != telemetry::kReadClock ? at_us : telemetry_.now_us();
    for (std::uint32_t i = 0; i < count; ++i)
      telemetry_.record_at(t, wid, moves[i].kind, stage, item, moves[i].arg);
  }

  void end_wait(double& since, double now_us, std::atomic<std::uint64_t>& field,
                std::uint32_t stage) noexcept {
    if (since < 0) return;
    telemetry_.counters(stage).add(field, std::uint64_t(now_us - since));
    since = -1;
  }

  // Serves stage s, which hands on `outputs` items; with telemetry, starts at start_us
  // (telemetry::kReadClock: reads the clock) and returns the end time (telemetry::kReadClock
  // without telemetry).
  double serve(std::uint16_t wid, std::uint32_t s, PipelineItem& it, double start_us,
               std::uint32_t outputs) noexcept {
    const StageMode mode = spec_.stages[s].mode;
    const bool tel = telemetry_.enabled();
    const bool check = options_.check_invariants && is_serial(mode);
    double t0 = 0;
    if (tel) {
      t0 = start_us != telemetry::kReadClock ? start_us : telemetry_.now_us();
      telemetry_.record_at(t0, wid, telemetry::EventKind::kStart, std::uint8_t(s),
                           std::uint32_t(it.seq));
    }
    if (check) checks_.enter_serial(s, mode == StageMode::kSerialInOrder, it.seq);
    it.value = work_[s].run(it.seq, it.value);
    if (check) checks_.leave_serial(s);
    if (tel) {
      const double t1 = telemetry_.now_us();
      telemetry_.record_at(t1, wid, telemetry::EventKind::kEnd, std::uint8_t(s),
                           std::uint32_t(it.seq));
      telemetry_.tally_service(wid, s, t1 - t0, t1, 1, outputs);
      return t1;
    }
    return telemetry::kReadClock;
  }

  std::vector<Group> groups_;
  std::vector<std::uint32_t> group_of_;  // worker → group
  std::vector<std::unique_ptr<Link>> links_;
  std::vector<std::uint32_t> producers_;  // group → threads pushing into its input link
  alignas(kPrefetchPairBytes) std::atomic<std::uint64_t> next_source_{0};
};

}  // namespace pipelab::pipeline
