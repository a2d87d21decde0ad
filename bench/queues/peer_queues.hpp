// Adapters giving the peer queues (moodycamel ReaderWriterQueue, boost::lockfree::spsc_queue) the
// PipeLab queue API, so the benchmark drives every queue through the same loop.
#pragma once

#include <readerwriterqueue/readerwriterqueue.h>

#include <boost/lockfree/spsc_queue.hpp>
#include <cstddef>

namespace pipelab::bench {

// try_enqueue never allocates: the queue stays bounded at the capacity given.
template <typename T>
class MoodycamelQueue {
 public:
  explicit MoodycamelQueue(std::size_t capacity) : queue_(capacity) {}
  [[nodiscard]] bool try_push(const T& item) noexcept { return queue_.try_enqueue(item); }
  [[nodiscard]] bool try_pop(T& out) noexcept { return queue_.try_dequeue(out); }

 private:
  moodycamel::ReaderWriterQueue<T> queue_;
};

// Run-time capacity form of boost's ring (one slot kept empty, like Lamport's).
template <typename T>
class BoostSpscQueue {
 public:
  explicit BoostSpscQueue(std::size_t capacity) : queue_(capacity) {}
  [[nodiscard]] bool try_push(const T& item) noexcept { return queue_.push(item); }
  [[nodiscard]] bool try_pop(T& out) noexcept { return queue_.pop(out); }

 private:
  boost::lockfree::spsc_queue<T> queue_;
};

}  // namespace pipelab::bench
