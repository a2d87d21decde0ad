// Registration modes of a phaser, the capability rule, and one task's registration record.
//
// Roles: a Registration belongs to one task (its owner): only the task running it writes the
//   counters (signals, waits) and drops it; any thread reads them (the phaser computes a phase's
//   completion and the bound from every registration's counters).
// Invariant: signals and waits only grow; `first_*` are fixed at registration. After drop() the
//   counters are final and the registration no longer holds back completion or the bound.
// Modes (Shirako et al., "Phaser beams", 003): SIG = may signal (a producer), WAIT = may wait (a
//   consumer), SIG_WAIT = both. A lattice: SIG_WAIT covers SIG and WAIT. The capability rule: a
//   task spawned by another registers only with modes its parent may grant on that phaser.
// Capability vs participation (our split; HJ registers a phaser's creator SIG_WAIT): what a task
//   may grant its children (capability) is kept apart from what it does itself (mode). A creator
//   has capability SIG_WAIT but may participate as SIG only: counted as a waiter it would hold
//   every producer at the bound forever, and as SIG_WAIT it would close a cycle with itself (cycle
//   detection would then turn batching off for a plain pipeline). A registered child's capability
//   is its mode: it cannot grant more than it has.
// Memory orders: counters are stored and loaded seq_cst (see phaser.hpp: a signal or wait and the
//   check for sleeping tasks form a Dekker pair; TSan does not model stand-alone fences).
#pragma once

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "pipelab/cacheline.hpp"

namespace pipelab::phaser {

enum class Mode : std::uint8_t { kNone = 0, kSig = 1, kWait = 2, kSigWait = 3 };

constexpr std::uint8_t bits(Mode m) noexcept { return static_cast<std::uint8_t>(m); }
constexpr bool can_signal(Mode m) noexcept { return (bits(m) & bits(Mode::kSig)) != 0; }
constexpr bool can_wait(Mode m) noexcept { return (bits(m) & bits(Mode::kWait)) != 0; }
// The capability rule: every mode bit of `child` is one `parent` has.
constexpr bool within(Mode child, Mode parent) noexcept {
  return (bits(child) & ~bits(parent)) == 0;
}
constexpr Mode join(Mode a, Mode b) noexcept { return static_cast<Mode>(bits(a) | bits(b)); }

inline const char* to_string(Mode m) noexcept {
  switch (m) {
    case Mode::kNone:
      return "none";
    case Mode::kSig:
      return "SIG";
    case Mode::kWait:
      return "WAIT";
    case Mode::kSigWait:
      return "SIG_WAIT";
  }
  return "?";
}

// A registration wider than the parent's capability: thrown before the child exists.
class CapabilityError : public std::invalid_argument {
 public:
  CapabilityError(Mode child, Mode parent)
      : std::invalid_argument(std::string("registration ") + to_string(child) +
                              " is wider than the parent's capability " + to_string(parent) +
                              " (a child registers only with modes its parent has)") {}
};

inline void check_capability(Mode child, Mode parent_capability) {
  if (!within(child, parent_capability)) throw CapabilityError(child, parent_capability);
}

// One task's registration on one phaser. Each sits on its own prefetch pair: its owner writes the
// counters once per phase while the other side of the stream reads them.
struct alignas(kPrefetchPairBytes) Registration {
  std::atomic<std::uint64_t> signals{0};  // phases this task has signalled
  std::atomic<std::uint64_t> waits{0};    // phases this task has waited for
  std::atomic<bool> dropped{false};
  Mode mode = Mode::kNone;         // what the task does (participation)
  Mode capability = Mode::kNone;   // what it may grant a child (see the file comment)
  std::uint64_t first_signal = 0;  // the first phase this task signals (inherited at spawn)
  std::uint32_t index = 0;         // position in the phaser's registration list
  std::uint32_t task = 0;          // the owner's task id (for messages and telemetry)
  void* payload = nullptr;         // the stream's per-signaller slots (stream.hpp), set before
                                   // the registration is published

  std::uint64_t signalled() const noexcept { return signals.load(std::memory_order_seq_cst); }
  std::uint64_t waited() const noexcept { return waits.load(std::memory_order_seq_cst); }
  bool is_dropped() const noexcept { return dropped.load(std::memory_order_seq_cst); }
};

}  // namespace pipelab::phaser
