// SpinBarrier: a sense-reversing centralized barrier for a fixed number of threads that spin.
//
// Roles: `parties` threads each call arrive() once per phase, then wait(token, stop) (or
//   arrive_and_wait()). Any thread may read passed(). reset() and construction only while no
//   thread is inside. interrupt() exists for the interface BlockingBarrier shares; spinners poll
//   their stop predicate, so it has nothing to wake.
// Invariant: count_ holds the arrivals still missing in the current phase (parties..1); sense_
//   holds the sense of the last completed phase. A phase's arrivals all carry token = !sense_, read
//   before their own decrement (sense_ cannot flip before every party of the phase has arrived);
//   the arrival that takes count_ to 0 refills it to `parties` and then flips sense_ to the token,
//   which releases every waiter of the phase. No party can arrive for the next phase before it has
//   passed this one, so one bit of sense is enough.
// Capacity rule: 1..kMaxParties threads.
// Memory orders: the decrement is acq_rel, so the completing arrival acquires every earlier
//   arrival's writes (the release sequence of count_); its release store of sense_ publishes them
//   to each waiter's acquire load. So whatever a thread wrote before arrive() is visible to every
//   thread after its wait() returns true. The refill of count_ is sequenced before that release,
//   so the next phase's decrements see it. Operations only, no stand-alone fences (ThreadSanitizer
//   does not model atomic_thread_fence).
// Layout: count_ (written by every arrival) and sense_ (read by every spinner) sit on separate
//   prefetch pairs, so arrivals do not invalidate the line the spinners are reading.
// Source: the sense-reversing centralized barrier of Mellor-Crummey and Scott, "Algorithms for
//   Scalable Synchronization on Shared-Memory Multiprocessors" (TOCS 9(1), 1991). Departure:
//   split-phase (arrive() returns the sense as a token instead of keeping it thread-local), so a
//   caller can do other work, or stop waiting, between arriving and passing.
#pragma once

#include <atomic>
#include <cstdint>

#include "pipelab/cacheline.hpp"
#include "pipelab/queues/wait_policy.hpp"
#include "pipelab/sync/arrival.hpp"

namespace pipelab::sync {

class SpinBarrier {
 public:
  static constexpr std::uint32_t kMaxParties = kMaxBarrierParties;
  // The stop predicate is polled once per this many spins (it reads other shared flags).
  static constexpr std::uint32_t kStopPollSpins = 64;

  explicit SpinBarrier(std::uint32_t parties) : parties_(checked_parties("SpinBarrier", parties)) {
    reset();
  }
  SpinBarrier(const SpinBarrier&) = delete;
  SpinBarrier& operator=(const SpinBarrier&) = delete;

  // Counts this thread in for the current phase; never waits.
  [[nodiscard]] Arrival arrive() noexcept {
    const std::uint32_t token = sense_.value.load(std::memory_order_acquire) ^ 1u;
    if (count_.value.fetch_sub(1, std::memory_order_acq_rel) != 1) return {token, false};
    count_.value.store(parties_, std::memory_order_relaxed);
    sense_.value.store(token, std::memory_order_release);
    return {token, true};
  }

  // True once every party has arrived for the token's phase.
  [[nodiscard]] bool passed(std::uint32_t token) const noexcept {
    return sense_.value.load(std::memory_order_acquire) == token;
  }

  // Spins until the phase completes (true) or `stop()` returns true (false: the arrival still
  // counts; wait again with the same token to go on). stop() may block, e.g. to park the thread.
  template <typename Stop>
  bool wait(std::uint32_t token, Stop&& stop) noexcept {
    for (std::uint32_t spins = 1;; ++spins) {
      if (passed(token)) return true;
      if (spins % kStopPollSpins == 0 && stop()) return passed(token);
      queues::cpu_relax();
    }
  }

  void arrive_and_wait() noexcept {
    const Arrival a = arrive();
    if (!a.completed) wait(a.token, [] { return false; });
  }

  // Nothing sleeps here (see the file comment).
  void interrupt() noexcept {}

  // Back to a fresh phase; only while no thread is inside (between runs).
  void reset() noexcept {
    count_.value.store(parties_, std::memory_order_relaxed);
    sense_.value.store(0, std::memory_order_relaxed);
  }

  std::uint32_t parties() const noexcept { return parties_; }

 private:
  struct alignas(kPrefetchPairBytes) Word {
    std::atomic<std::uint32_t> value{0};
  };
  static_assert(sizeof(Word) == kPrefetchPairBytes && alignof(Word) == kPrefetchPairBytes);

  Word count_;
  Word sense_;
  const std::uint32_t parties_;
};

}  // namespace pipelab::sync
