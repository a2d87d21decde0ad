// Debug-only guard of the single-producer single-consumer roles (BatchQueue, LamportQueue,
// CachedSpscQueue, FastForwardQueue, the telemetry Ring): in a debug build (NDEBUG not defined) the
// first thread to push becomes the producer and the first to pop the consumer, and a different
// thread pushing (or popping) afterwards stops the program with a message naming the queue and the
// role, instead of silently corrupting the indices. In a release build SpscRoles is an empty member
// marked [[no_unique_address]]: no byte in the queue's layout (checked below) and no instruction.
//
// Roles: any thread may call producer() / consumer(); release() only with no concurrent user (the
//   telemetry ring releases its roles between runs, when new worker threads take over).
// Invariant: once claimed, a role belongs to one thread until release().
// Memory orders: relaxed; the owner's id is only compared, nothing is published through it.
// Source: moodycamel::ReaderWriterQueue has a similar debug guard (ReentrantGuard, an assert on a
//   flag held during each enqueue or dequeue) that catches two threads inside one side AT ONCE;
//   owning the role also catches two threads taking turns in it, which corrupts an SPSC queue just
//   as surely but rarely overlaps in time.
// PIPELAB_ROLE_CHECKS (0 or 1) overrides the NDEBUG default; every translation unit of a program
// must agree on it (SpscRoles has a different layout in each mode).
#pragma once

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>

#if !defined(PIPELAB_ROLE_CHECKS)
#if defined(NDEBUG)
#define PIPELAB_ROLE_CHECKS 0
#else
#define PIPELAB_ROLE_CHECKS 1
#endif
#endif

namespace pipelab::queues {

// Which thread holds one role. Compiled in every mode, so its logic is tested in every build.
class RoleOwner {
 public:
  // True if the calling thread holds the role, claiming it first when no thread does.
  bool claim() noexcept {
    const std::thread::id me = std::this_thread::get_id();
    std::thread::id owner = owner_.load(std::memory_order_relaxed);
    if (owner == me) return true;
    if (owner != std::thread::id()) return false;
    // Two first users racing: the CAS picks one; the loser sees the winner in `owner`.
    return owner_.compare_exchange_strong(owner, me, std::memory_order_relaxed);
  }
  // The next thread to claim takes the role. Not concurrent with claim().
  void release() noexcept { owner_.store(std::thread::id(), std::memory_order_relaxed); }

 private:
  std::atomic<std::thread::id> owner_{std::thread::id()};
};

// Prints which queue and role were misused, then aborts (a debug build's assert, with a message).
[[noreturn]] inline void role_violation(const char* queue, const char* role) noexcept {
  std::fprintf(stderr,
               "%s: a second thread acted as its %s; a single-producer single-consumer queue "
               "has one producer thread and one consumer thread\n",
               queue, role);
  std::abort();
}

#if PIPELAB_ROLE_CHECKS
class SpscRoles {
 public:
  void producer(const char* queue) noexcept {
    if (!producer_.claim()) role_violation(queue, "producer");
  }
  void consumer(const char* queue) noexcept {
    if (!consumer_.claim()) role_violation(queue, "consumer");
  }
  void release() noexcept {
    producer_.release();
    consumer_.release();
  }

 private:
  RoleOwner producer_;
  RoleOwner consumer_;
};
#else
class SpscRoles {
 public:
  void producer(const char*) noexcept {}
  void consumer(const char*) noexcept {}
  void release() noexcept {}
};

namespace role_guard_detail {
struct LayoutProbe {
  void* word;
  [[no_unique_address]] SpscRoles roles;
};
static_assert(sizeof(LayoutProbe) == sizeof(void*), "release builds: the guard takes no byte");
}  // namespace role_guard_detail
#endif

}  // namespace pipelab::queues
