// Counting threads: N threads each do calibrated busy work (workload/busy_work.hpp, the same loop
// and calibration the pipeline stages use) and count it in their own slot; the
// slots sit either side by side (packed, 8 bytes apart: 8 share one cache line) or each on its own
// prefetch pair (padded: 128 bytes apart, pipelab/cacheline.hpp). The first, honest glimpse of
// false sharing.
//
// Thread roles: one controller thread (the engine worker in the browser, the test in native code)
// calls start / request_stop / join; worker i is the only writer of slot i; any thread may read the
// slots at any time (the page reads them straight from wasm memory every animation frame).
// Memory orders: a slot is written by one thread only, so a relaxed load + relaxed store suffices
// (no read-modify-write); readers want a recent value, not ordering. `stop_` is release/acquire so
// a worker that sees it also sees everything the controller wrote before. `alive_` counts threads
// that have not yet exited (incremented by start before creating them), so the controller can wait
// without blocking: in the browser the engine worker must return to its event loop before extra
// pthread Workers can start, which is why start() never waits and alive() is polled.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "pipelab/cacheline.hpp"
#include "pipelab/workload/busy_work.hpp"

namespace pipelab::counting {

inline constexpr unsigned kMaxThreads = 64;
inline constexpr std::size_t kSlotsPerPair = kPrefetchPairBytes / sizeof(std::uint64_t);
inline constexpr int kCountsPerClockRead = 64;

enum class Layout : int { kPacked = 0, kPadded = 1 };

class CountingThreads {
 public:
  CountingThreads() = default;
  CountingThreads(const CountingThreads&) = delete;
  CountingThreads& operator=(const CountingThreads&) = delete;
  ~CountingThreads() {
    request_stop();
    join();
  }

  // Starts `threads` workers; returns at once. Throws std::invalid_argument naming a bad value,
  // std::logic_error if a run is still active.
  void start(int threads, Layout layout, double work_us) {
    validate(threads, work_us);
    if (!workers_.empty())
      throw std::logic_error("counting threads: a run is active; stop it first");
    for (auto& slot : slots_) slot.store(0, std::memory_order_relaxed);
    threads_ = static_cast<unsigned>(threads);
    layout_ = layout;
    work_iterations_ = busy_->iterations_for_us(work_us);
    stop_.store(false, std::memory_order_release);
    alive_.store(threads_, std::memory_order_release);
    for (unsigned i = 0; i < threads_; ++i) workers_.emplace_back([this, i] { run(i); });
  }

  void request_stop() noexcept { stop_.store(true, std::memory_order_release); }

  // Threads that have not exited yet (polled by a controller that must not block).
  unsigned alive() const noexcept { return alive_.load(std::memory_order_acquire); }

  // Joins every worker. Blocks; call after alive() == 0 where blocking is not allowed.
  void join() {
    for (auto& w : workers_) w.join();
    workers_.clear();
  }

  // Cooperative single-thread mode (builds without threads): runs each of `threads` virtual
  // workers for its share of `slice_us`, round robin, counting into the same slots.
  void run_slice(int threads, Layout layout, double work_us, double slice_us) {
    validate(threads, work_us);
    threads_ = static_cast<unsigned>(threads);
    layout_ = layout;
    work_iterations_ = busy_->iterations_for_us(work_us);
    const double share_us = slice_us / threads_;
    for (unsigned i = 0; i < threads_; ++i) {
      const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                               std::chrono::duration<double, std::micro>(share_us));
      std::atomic<std::uint64_t>& slot = slot_for(i);
      do {
        for (int k = 0; k < kCountsPerClockRead; ++k) count_once(slot);  // a clock read costs more
      } while (Clock::now() < deadline);                                 // than a count
    }
  }

  std::uint64_t count(unsigned thread) const noexcept {
    return slot_for(thread).load(std::memory_order_relaxed);
  }
  // Base address and byte stride of the slots for the current layout (stable for the object's
  // life).
  const void* slots_base() const noexcept { return slots_; }
  std::size_t stride_bytes() const noexcept {
    return layout_ == Layout::kPacked ? sizeof(std::uint64_t) : kPrefetchPairBytes;
  }
  unsigned threads() const noexcept { return threads_; }
  const workload::BusyWork& busy_work() const noexcept { return *busy_; }

 private:
  using Clock = std::chrono::steady_clock;
  // Any value but 1: the chain's result is compared with 1 so the work stays (see count_once).
  static constexpr std::uint64_t kChainStart = 0x9E3779B97F4A7C15ull;

  static void validate(int threads, double work_us) {
    if (threads < 1 || threads > static_cast<int>(kMaxThreads))
      throw std::invalid_argument("threads: " + std::to_string(threads) +
                                  " is out of range (allowed 1.." + std::to_string(kMaxThreads) +
                                  ")");
    if (!(work_us >= 0 && work_us <= 1000))
      throw std::invalid_argument("work_us: " + std::to_string(work_us) +
                                  " is out of range (allowed 0..1000)");
  }

  std::atomic<std::uint64_t>& slot_for(unsigned i) noexcept {
    return slots_[layout_ == Layout::kPacked ? i : i * kSlotsPerPair];
  }
  const std::atomic<std::uint64_t>& slot_for(unsigned i) const noexcept {
    return slots_[layout_ == Layout::kPacked ? i : i * kSlotsPerPair];
  }

  void count_once(std::atomic<std::uint64_t>& slot) noexcept {
    // The result must be read or the loop is deleted; it is practically never 1, and a store to
    // the shared sink only then keeps the count loop free of extra shared writes.
    if (workload::BusyWork::run_iterations(work_iterations_, kChainStart) == 1) {
      sink_.store(1, std::memory_order_relaxed);
    }
    slot.store(slot.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }

  void run(unsigned i) noexcept {
    std::atomic<std::uint64_t>& slot = slot_for(i);
    while (!stop_.load(std::memory_order_acquire)) count_once(slot);
    alive_.fetch_sub(1, std::memory_order_acq_rel);
  }

  // Packed uses slots [0, 64); padded uses every 16th slot: the whole array spans 64 pairs.
  alignas(kPrefetchPairBytes) std::atomic<std::uint64_t> slots_[kMaxThreads * kSlotsPerPair] = {};
  const workload::BusyWork* busy_ = &workload::BusyWork::global();
  std::atomic<std::uint64_t> sink_{0};
  std::vector<std::thread> workers_;
  unsigned threads_ = 0;
  Layout layout_ = Layout::kPadded;
  std::uint64_t work_iterations_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<unsigned> alive_{0};
};

static_assert(sizeof(std::atomic<std::uint64_t>) == 8 && kCacheLineBytes / 8 == 8,
              "slots are 8 bytes: 8 share a 64-byte line");

}  // namespace pipelab::counting
