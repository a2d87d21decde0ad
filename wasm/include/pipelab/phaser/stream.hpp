// Stream: a bounded phaser used as a stream of values (the paper's "phaser beams"), read and
// written one element at a time, with adaptive batching.
//
// Roles: a StreamWriter belongs to one signalling task, a StreamReader to one waiting task; each
//   is used only by the thread running its task at the time. set_batched() is for the runtime's
//   cycle detection, before any element is put (cycle_detection.hpp says why that is the moment).
// Invariant: a phase carries one element (non-batched) or a batch of up to `batch` elements
//   (batched); the bound counts phases, so at most bound phases (batches) are published and
//   unread by the slowest reader. A batch is published only when full or flushed (end of the
//   writer's input, or drop): the paper's batched code, with no flush when a task blocks — so a
//   batched stream on a producer-consumer cycle could deadlock, and cycles are made non-batched.
// Capacity rule: bound in 1..Phaser::kMaxBound, batch in 1..kMaxBatch; each signaller keeps
//   bound + lookback + 1 phases of slots (accumulator.hpp), so a reader may look `lookback`
//   phases back with get(-k) (the paper's avg stage: get(0), get(-1)).
// Several signallers (a split-join's splitters on a SUM stream) each fill their own slots; the
//   reader combines one element of each per position (lazy accumulation). Their batches line up
//   because every signaller batches the same number of elements per phase from its first.
// Memory orders: the phaser's (phaser.hpp). A batch is moved into its slot (plain stores, the
//   vectors swap storage so a steady stream allocates nothing) before the seq_cst signal that
//   publishes it; a reader looks at a slot only after its wait saw the phase complete.
// Source: Shirako et al., "Phaser beams" (003): bounded phasers as streams, batch optimisation for
//   acyclic graphs, adaptive batching.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "pipelab/phaser/accumulator.hpp"
#include "pipelab/phaser/phaser.hpp"

namespace pipelab::phaser {

using Batch = std::vector<Value>;

class Stream {
 public:
  static constexpr std::uint32_t kMaxBatch = 1u << 16;

  Stream(std::uint32_t id, std::uint32_t bound, std::uint32_t batch, Reduce op,
         std::uint32_t lookback, std::uint32_t max_registrations)
      : ph_(bound, max_registrations, id),
        op_(op),
        batch_(validated_batch(batch)),
        slots_(slots_for(ph_, lookback)),
        batched_(batch > 1) {}
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  // Registers a task on the stream's phaser (see Phaser::attach); a signaller gets its slots.
  Registration& attach(Mode mode, Mode parent_capability, const Registration* parent,
                       std::uint32_t task, bool creator = false) {
    SlotRing<Batch>* ring = nullptr;
    if (can_signal(mode)) {
      std::lock_guard<sched::SpinLock> lock(rings_lock_);
      rings_.push_back(std::make_unique<SlotRing<Batch>>(slots_));
      ring = rings_.back().get();
    }
    return ph_.attach(mode, parent_capability, parent, task, ring, creator);
  }

  // Elements per phase now: the requested batch, or 1 once cycle detection turned batching off.
  std::uint32_t batch_size() const noexcept {
    return batched_.load(std::memory_order_relaxed) ? batch_ : 1;
  }
  bool batched() const noexcept { return batched_.load(std::memory_order_relaxed); }
  void set_batched(bool on) noexcept {
    batched_.store(on && batch_ > 1, std::memory_order_relaxed);
  }
  std::uint32_t requested_batch() const noexcept { return batch_; }
  Reduce reduce() const noexcept { return op_; }
  Phaser& phaser() noexcept { return ph_; }
  const Phaser& phaser() const noexcept { return ph_; }
  std::uint32_t id() const noexcept { return ph_.id(); }

 private:
  static std::uint32_t validated_batch(std::uint32_t batch) {
    if (batch == 0 || batch > kMaxBatch) {
      throw std::invalid_argument("stream batch " + std::to_string(batch) +
                                  " is out of range (allowed 1.." + std::to_string(kMaxBatch) +
                                  ")");
    }
    return batch;
  }

  Phaser ph_;
  Reduce op_;
  std::uint32_t batch_;
  std::uint32_t slots_;
  std::atomic<bool> batched_;
  sched::SpinLock rings_lock_;
  std::vector<std::unique_ptr<SlotRing<Batch>>> rings_;
};

enum class PutResult : std::uint8_t { kDone, kBlocked };

// One signaller's side of a stream.
class StreamWriter {
 public:
  StreamWriter(Stream& s, Registration& r) : s_(s), r_(r) {}

  // Takes v into the current phase; publishes the phase once it holds batch_size() elements.
  // kBlocked: v was taken, but the full phase waits for the bound: call try_publish() until it
  // returns true before the next put.
  [[nodiscard]] PutResult try_put(Value v) {
    pending_.push_back(v);
    if (pending_.size() < s_.batch_size()) return PutResult::kDone;
    return try_publish() ? PutResult::kDone : PutResult::kBlocked;
  }
  // Publishes the elements taken so far (if any) as one phase; false when the bound refuses.
  [[nodiscard]] bool try_publish() {
    if (pending_.empty()) return true;
    Phaser& ph = s_.phaser();
    const std::uint64_t q = r_.signals.load(std::memory_order_relaxed);
    const std::uint64_t w = ph.min_waited();
    if (w != Phaser::kNoLimit && q >= w + ph.bound()) return false;
    seen_waited_ = w;
    auto& ring = *static_cast<SlotRing<Batch>*>(r_.payload);
    Batch& slot = ring.at(q);
    slot.swap(pending_);
    pending_.clear();
    ph.commit_signal(r_);
    ++published_;
    return true;
  }
  bool has_unpublished_full() const noexcept { return pending_.size() >= s_.batch_size(); }
  bool has_pending() const noexcept { return !pending_.empty(); }
  // After a flush: this writer signals no more (its readers see the end once all have dropped).
  void drop() noexcept { s_.phaser().drop(r_); }

  // Occupancy this writer saw at its last publish: phases published and not yet waited for by
  // the slowest reader (<= bound, by the phaser's check). For telemetry.
  std::uint64_t last_occupancy() const noexcept {
    return seen_waited_ == Phaser::kNoLimit ? 0 : r_.signalled() - seen_waited_;
  }
  std::uint64_t phases() const noexcept { return r_.signalled(); }
  std::uint64_t published() const noexcept { return published_; }
  Stream& stream() noexcept { return s_; }
  Registration& registration() noexcept { return r_; }

 private:
  Stream& s_;
  Registration& r_;
  Batch pending_;
  std::uint64_t seen_waited_ = 0;
  std::uint64_t published_ = 0;
};

// One waiter's side of a stream: elements in order, each phase's contributors combined.
class StreamReader {
 public:
  StreamReader(Stream& s, Registration& r) : s_(s), r_(r) {}

  // The next element, waiting for the next phase when the current one is used up.
  [[nodiscard]] WaitResult try_next(Value& v) {
    if (pos_ >= cur_len()) {
      const WaitResult w = s_.phaser().try_wait(r_, seen_signalled_);
      if (w != WaitResult::kReady) return w;
      enter(r_.waits.load(std::memory_order_relaxed) - 1);
    }
    v = at_cur(pos_++);
    ++consumed_;
    return WaitResult::kReady;
  }
  // Whether try_next() would return at once (for the scheduler's recheck before parking).
  bool ready() const noexcept { return pos_ < cur_len() || s_.phaser().can_wait_now(r_); }

  // The element returned last (offset 0) or one before it (offset -k, reaching at most into the
  // previous phase). Precondition: at least 1 - offset elements were read.
  Value get(std::int64_t offset = 0) const noexcept {
    const std::int64_t i = std::int64_t(pos_) - 1 + offset;
    if (i >= 0) return at_cur(std::size_t(i));
    return at(prev_single_, prev_combined_, std::size_t(std::int64_t(prev_len()) + i));
  }

  // Occupancy seen at the last wait: phases complete and not yet waited for by this reader.
  std::uint64_t last_occupancy() const noexcept {
    const std::uint64_t w = r_.waited();
    return seen_signalled_ == Phaser::kNoLimit || seen_signalled_ < w ? 0 : seen_signalled_ - w;
  }
  std::uint64_t consumed() const noexcept { return consumed_; }
  std::uint64_t phases() const noexcept { return r_.waited(); }
  void drop() noexcept { s_.phaser().drop(r_); }
  Stream& stream() noexcept { return s_; }
  Registration& registration() noexcept { return r_; }

 private:
  void enter(std::uint64_t phase) {
    // The phase read so far stays readable for get(-k): its slot is kept (lookback), and a
    // combined copy moves over.
    std::swap(prev_combined_, cur_combined_);
    prev_single_ = cur_single_;
    cur_single_ = nullptr;
    int contributors = 0;
    const Batch* only = nullptr;
    for_each_contributor<Batch>(s_.phaser(), phase, [&](const SlotRing<Batch>& ring) {
      only = &ring.at(phase);
      return ++contributors < 2;
    });
    if (contributors == 1) {
      cur_single_ = only;
    } else {
      // Lazy accumulation: combine every contributor's element i (their batches line up).
      cur_combined_.clear();
      bool first = true;
      for_each_contributor<Batch>(s_.phaser(), phase, [&](const SlotRing<Batch>& ring) {
        const Batch& b = ring.at(phase);
        if (first) {
          cur_combined_.assign(b.size(), identity(s_.reduce()));
          first = false;
        }
        for (std::size_t i = 0; i < b.size() && i < cur_combined_.size(); ++i) {
          cur_combined_[i] = combine(s_.reduce(), cur_combined_[i], b[i]);
        }
        return true;
      });
    }
    pos_ = 0;
    has_cur_ = true;
  }
  std::size_t cur_len() const noexcept {
    if (!has_cur_) return 0;
    return cur_single_ ? cur_single_->size() : cur_combined_.size();
  }
  std::size_t prev_len() const noexcept {
    return prev_single_ ? prev_single_->size() : prev_combined_.size();
  }
  Value at_cur(std::size_t i) const noexcept { return at(cur_single_, cur_combined_, i); }
  // A phase is the one contributor's batch in place, or the reader's combined copy.
  static Value at(const Batch* single, const Batch& combined, std::size_t i) noexcept {
    return single ? (*single)[i] : combined[i];
  }

  Stream& s_;
  Registration& r_;
  const Batch* cur_single_ = nullptr;
  const Batch* prev_single_ = nullptr;
  Batch cur_combined_, prev_combined_;
  std::size_t pos_ = 0;
  bool has_cur_ = false;
  std::uint64_t consumed_ = 0;
  std::uint64_t seen_signalled_ = 0;
};

}  // namespace pipelab::phaser
