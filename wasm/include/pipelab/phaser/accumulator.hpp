// Accumulators: a reduction (sum, min, max, any) that rests on a phaser. Each signaller put()s
// values in its current phase; get() returns the result of the phase the caller last completed —
// the previous phase, as the paper has it: put, next, get.
//
// Roles: a signaller's put() writes only its own slot ring (attached with its registration); any
//   registered task reads results of completed phases with get()/result().
// Invariant: a signaller's slot for phase q is written only while q is its current phase, and q is
//   signalled after the write; phase p's result combines every registration that signalled p
//   (first_signal <= p < signals). Readers only read completed phases.
// Capacity rule: each signaller keeps bound + lookback + 1 slots. The phaser lets a signaller run
// at
//   most `bound` phases ahead of the slowest waiter, whose last phase and `lookback` earlier ones
//   are still being read: the slot of phase q is overwritten only at q + slots, which no reader
//   can still need.
// Lazy accumulation (the paper's "lazy" policy): nothing is combined when values are put; the
//   reader combines the contributors when it asks. A put is a plain store, and the phaser's
//   seq_cst signal publishes it (registration.hpp, phaser.hpp).
// Memory orders: none of its own; slots are plain data ordered by the phaser's counters.
// Source: Shirako et al., "Phaser beams" (003): accumulators with sum, product, min, max, any;
// get()
//   returns the previous phase's result; eager vs lazy accumulation. `product` is left out.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <vector>

#include "pipelab/phaser/phaser.hpp"

namespace pipelab::phaser {

enum class Reduce : std::uint8_t { kAny, kSum, kMin, kMax };

using Value = std::int64_t;

inline const char* to_string(Reduce r) noexcept {
  switch (r) {
    case Reduce::kAny:
      return "any";
    case Reduce::kSum:
      return "sum";
    case Reduce::kMin:
      return "min";
    case Reduce::kMax:
      return "max";
  }
  return "?";
}

constexpr Value identity(Reduce r) noexcept {
  switch (r) {
    case Reduce::kSum:
    case Reduce::kAny:
      return 0;
    case Reduce::kMin:
      return std::numeric_limits<Value>::max();
    case Reduce::kMax:
      return std::numeric_limits<Value>::min();
  }
  return 0;
}

// `any` keeps the latest value (one contributor per phase is the intended use).
constexpr Value combine(Reduce r, Value acc, Value v) noexcept {
  switch (r) {
    case Reduce::kSum:
      return acc + v;
    case Reduce::kMin:
      return std::min(acc, v);
    case Reduce::kMax:
      return std::max(acc, v);
    case Reduce::kAny:
      return v;
  }
  return v;
}

// One signaller's slots: the value (or batch) it put in each of its last `slots` phases.
template <typename T>
struct SlotRing {
  explicit SlotRing(std::uint32_t slots) : slot(slots) {}
  T& at(std::uint64_t phase) noexcept { return slot[phase % slot.size()]; }
  const T& at(std::uint64_t phase) const noexcept { return slot[phase % slot.size()]; }
  std::vector<T> slot;
};

inline std::uint32_t slots_for(const Phaser& ph, std::uint32_t lookback) noexcept {
  return ph.bound() + lookback + 1;
}

// Calls f(ring) for every registration that signalled `phase`, newest registration first.
template <typename T, typename F>
void for_each_contributor(const Phaser& ph, std::uint64_t phase, F&& f) {
  for (std::uint32_t i = ph.registrations(); i-- > 0;) {
    const Registration& r = ph.registration(i);
    if (!can_signal(r.mode) || r.first_signal > phase || r.signalled() <= phase) continue;
    if (!f(*static_cast<const SlotRing<T>*>(r.payload))) return;
  }
}

class Accumulator {
 public:
  // `lookback`: how many phases before the last one readers may still ask for (get(-k)).
  Accumulator(Phaser& ph, Reduce op, std::uint32_t lookback = 0)
      : ph_(ph), op_(op), slots_(slots_for(ph, lookback)) {}

  // Registers a task on the accumulator's phaser; signallers get their slot ring.
  Registration& attach(Mode mode, Mode parent_capability, const Registration* parent,
                       std::uint32_t task) {
    SlotRing<Slot>* ring = nullptr;
    if (can_signal(mode)) {
      std::lock_guard<sched::SpinLock> lock(rings_lock_);
      rings_.push_back(std::make_unique<SlotRing<Slot>>(slots_));
      ring = rings_.back().get();
    }
    return ph_.attach(mode, parent_capability, parent, task, ring);
  }

  // Adds v to the signaller's current phase (the one its next signal completes).
  void put(Registration& r, Value v) noexcept {
    auto& ring = *static_cast<SlotRing<Slot>*>(r.payload);
    const std::uint64_t q = r.signals.load(std::memory_order_relaxed);
    Slot& s = ring.at(q);
    if (s.phase != q) {
      s.phase = q;
      s.value = identity(op_);
    }
    s.value = combine(op_, s.value, v);
  }

  // The result of a completed phase: every contributor's value combined.
  Value result(std::uint64_t phase) const noexcept {
    Value acc = identity(op_);
    for_each_contributor<Slot>(ph_, phase, [&](const SlotRing<Slot>& ring) {
      const Slot& s = ring.at(phase);
      acc = combine(op_, acc, s.phase == phase ? s.value : identity(op_));
      return op_ != Reduce::kAny;  // `any`: the newest contributor's value
    });
    return acc;
  }

  // What `r` may read now: the phase it completed last (offset 0) or an earlier one (offset -k,
  // k <= lookback). A SIG_WAIT task calls it after next(); a WAIT task after wait().
  Value get(const Registration& r, std::int64_t offset = 0) const noexcept {
    return result(std::uint64_t(std::int64_t(r.waited()) - 1 + offset));
  }

  Phaser& phaser() noexcept { return ph_; }

 private:
  struct Slot {
    std::uint64_t phase = ~std::uint64_t{0};
    Value value = 0;
  };
  Phaser& ph_;
  Reduce op_;
  std::uint32_t slots_;
  sched::SpinLock rings_lock_;  // tasks may spawn children (attach) concurrently
  std::vector<std::unique_ptr<SlotRing<Slot>>> rings_;
};

}  // namespace pipelab::phaser
