// Helpers shared by the queue tests: item counts scaled for the build, bounded two-thread
// transfers that fail instead of hanging, and a type that counts its live objects.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

#include "pipelab/queues/flush.hpp"
#include "support/thread_sanitizer.hpp"

namespace pipelab::queues::testing {

using test_build::kUnderTsan;

// The gold stress size: 10M items per queue, scaled down under TSan (~50x slower per access).
inline constexpr std::uint64_t kStressItems = kUnderTsan ? 200'000 : 10'000'000;
// Size of each run in capacity sweeps; odd so it is never a whole number of batches. Smaller in
// wasm, where a capacity-1 hand-off costs several microseconds on a loaded 2-core machine.
#if defined(__EMSCRIPTEN__)
inline constexpr std::uint64_t kSweepItems = 100'003;
#else
inline constexpr std::uint64_t kSweepItems = kUnderTsan ? 20'001 : 300'007;
#endif
// A transfer that has not finished by then is reported as a failure, never a hang.
inline constexpr std::chrono::seconds kTransferLimit{120};

// Counts live objects and catches double destruction or use of a destroyed object.
class Tracked {
 public:
  static inline std::atomic<long> live{0};
  static inline std::atomic<long> misuse{0};

  Tracked() noexcept : Tracked(0) {}
  explicit Tracked(std::uint64_t value) noexcept : value_(value), alive_(kAlive) {
    live.fetch_add(1, std::memory_order_relaxed);
  }
  Tracked(const Tracked& other) noexcept : Tracked(other.checked_value()) {}
  Tracked& operator=(const Tracked& other) noexcept {
    value_ = other.checked_value();
    return *this;
  }
  Tracked& operator=(Tracked&& other) noexcept {
    return *this = static_cast<const Tracked&>(other);
  }
  ~Tracked() {
    if (alive_ != kAlive) misuse.fetch_add(1, std::memory_order_relaxed);
    alive_ = kDead;
    live.fetch_sub(1, std::memory_order_relaxed);
  }

  std::uint64_t value() const noexcept { return checked_value(); }

 private:
  static constexpr std::uint64_t kAlive = 0xA11FE;
  static constexpr std::uint64_t kDead = 0xDEAD;
  std::uint64_t checked_value() const noexcept {
    if (alive_ != kAlive) misuse.fetch_add(1, std::memory_order_relaxed);
    return value_;
  }
  std::uint64_t value_;
  std::uint64_t alive_;
};

inline std::uint64_t value_of(std::uint64_t item) { return item; }
inline std::uint64_t value_of(const Tracked& item) { return item.value(); }

// Waits between failed attempts: spin, then yield, then sleep, so a starved thread gives its core
// back even in wasm, where std::this_thread::yield() does not yield (Emscripten only runs queued
// calls) and sleeps under 0.1 ms busy-wait. Reports when the transfer has run out of time.
class BoundedWait {
 public:
  explicit BoundedWait(std::chrono::steady_clock::time_point deadline) : deadline_(deadline) {}
  // False once the deadline has passed.
  bool wait() {
    ++failures_;
    if (failures_ < 64) return true;
    if (failures_ < 256) {
      std::this_thread::yield();
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    return failures_ % 64 != 0 || std::chrono::steady_clock::now() < deadline_;
  }
  void reset() { failures_ = 0; }

 private:
  std::chrono::steady_clock::time_point deadline_;
  std::uint64_t failures_ = 0;
};

struct TransferOutcome {
  std::uint64_t received = 0;
  std::uint64_t out_of_order = 0;  // pops whose value was not the next expected one
  std::uint64_t first_bad_index = 0;
  std::uint64_t first_bad_value = 0;
  bool timed_out = false;
  bool extra_item = false;  // an item popped after the whole stream had arrived
};

// One producer pushes 0..items-1 (then flushes, for batching queues), the calling thread pops and
// checks each value against the next expected one: FIFO with no loss and no duplication.
template <typename T, typename Queue>
TransferOutcome transfer_in_order(Queue& queue, std::uint64_t items) {
  const auto deadline = std::chrono::steady_clock::now() + kTransferLimit;
  std::atomic<bool> give_up{false};
  TransferOutcome outcome;
  std::thread producer([&] {
    BoundedWait wait(deadline);
    for (std::uint64_t i = 0; i < items; ++i) {
      const T item(i);
      while (!queue.try_push(item)) {
        if (!wait.wait() || give_up.load(std::memory_order_relaxed)) return;
      }
      wait.reset();
    }
    while (!try_publish_partial(queue)) {
      if (!wait.wait() || give_up.load(std::memory_order_relaxed)) return;
    }
  });
  BoundedWait wait(deadline);
  T item{};
  while (outcome.received < items) {
    if (queue.try_pop(item)) {
      wait.reset();
      const std::uint64_t value = value_of(item);
      if (value != outcome.received && outcome.out_of_order++ == 0) {
        outcome.first_bad_index = outcome.received;
        outcome.first_bad_value = value;
      }
      ++outcome.received;
    } else if (!wait.wait()) {
      outcome.timed_out = true;
      give_up.store(true, std::memory_order_relaxed);
      break;
    }
  }
  producer.join();
  outcome.extra_item = queue.try_pop(item);
  return outcome;
}

inline ::testing::AssertionResult delivered_in_order(const TransferOutcome& outcome,
                                                     std::uint64_t items) {
  if (outcome.timed_out) {
    return ::testing::AssertionFailure()
           << "timed out after " << kTransferLimit.count() << " s with " << outcome.received
           << " of " << items << " items received";
  }
  if (outcome.out_of_order != 0) {
    return ::testing::AssertionFailure()
           << outcome.out_of_order << " items out of order; first: position "
           << outcome.first_bad_index << " held " << outcome.first_bad_value;
  }
  if (outcome.extra_item) return ::testing::AssertionFailure() << "an item after end of stream";
  return ::testing::AssertionSuccess();
}

}  // namespace pipelab::queues::testing
