// Backoff for a worker that found nothing to do: spin, then yield, then short sleeps capped at
// kMaxSleepUs so a parked thread rechecks its cancel flag and its work sources at least every
// ~0.2 ms (the cancel contract is "every thread exits within 50 ms"). Per-thread object.
// Sleeps go through queues::sleep_us, which really blocks in wasm too: Emscripten's sleep_for
// busy-waits anything under 0.1 ms, so the 4-64 us steps used to keep the core from the stage
// we wait for whenever threads outnumber cores.
#pragma once

#include <cstdint>
#include <thread>

#include "pipelab/queues/thread_sleep.hpp"

namespace pipelab::sched {

class Backoff {
 public:
  static constexpr std::uint32_t kMaxSleepUs = 200;

  void pause() noexcept { pause(queues::sleep_us); }
  // The same steps, with the sleeps taken by `sleep(us)`: a caller that can be woken when work
  // comes sleeps on its own word (it must return after at most `us`, for the cancel contract).
  template <class Sleep>
  void pause(Sleep&& sleep) noexcept {
    ++step_;
    if (step_ < 32) return;  // a re-check is cheaper than a context switch
    if (step_ < 96) {
      std::this_thread::yield();
      return;
    }
    const std::uint32_t shift = step_ - 96 < 6 ? step_ - 96 : 6;
    const std::uint32_t us =
        (std::uint32_t(4) << shift) < kMaxSleepUs ? (4u << shift) : kMaxSleepUs;
    sleep(us);
  }
  void reset() noexcept {
    if (step_ != 0) step_ = 0;  // no store when nothing was waited for (the per-item path)
  }
  bool sleeping() const noexcept { return step_ >= 96; }

 private:
  std::uint32_t step_ = 0;
};

}  // namespace pipelab::sched
