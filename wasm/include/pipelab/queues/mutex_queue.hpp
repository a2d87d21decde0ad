// Lock-based bounded queue (mutex + two condition variables): the "native" baseline.
//
// Roles: any number of producers and consumers; try_push / try_pop never wait for space or items
//   (they do take the lock); push / pop wait on a condition variable, like a plain blocking queue.
// Invariant: under mutex_, slots [head_, head_ + count_) (mod capacity) hold the items in order.
// Capacity rule: any number of items in [1, 2^30].
// Memory orders: none of its own; the mutex orders everything. Each operation is a lock round
//   trip, which is why lock-free queues beat it by an order of magnitude on fine-grained streams.
// Source: the bounded buffer of Hoare monitors (Hoare, "Monitors", CACM 1974); the BatchQueue paper
//   compares against GCC's stream extension's lock-based "native" queue, which this stands in for.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <new>
#include <type_traits>
#include <utility>

#include "pipelab/queues/queue_support.hpp"

namespace pipelab::queues {

template <typename T>
class MutexQueue {
  static_assert(kQueueableItem<T>, "items must copy in and move out without throwing");

 public:
  static constexpr std::size_t kMaxCapacity = std::size_t{1} << 30;

  explicit MutexQueue(std::size_t capacity)
      : capacity_(validated(capacity)), storage_(capacity * sizeof(T)) {
    slots_ = reinterpret_cast<T*>(storage_.data());
  }

  ~MutexQueue() {
    if constexpr (!std::is_trivially_destructible_v<T>) {
      for (std::size_t i = 0; i < count_; ++i) std::launder(slots_ + wrap(head_ + i))->~T();
    }
  }

  MutexQueue(const MutexQueue&) = delete;
  MutexQueue& operator=(const MutexQueue&) = delete;

  std::size_t capacity() const noexcept { return capacity_; }

  [[nodiscard]] bool try_push(const T& item) noexcept {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (count_ == capacity_) return false;
      insert(item);
    }
    not_empty_.notify_one();
    return true;
  }

  [[nodiscard]] bool try_pop(T& out) noexcept {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (count_ == 0) return false;
      remove(out);
    }
    not_full_.notify_one();
    return true;
  }

  // Waits while the queue is full.
  void push(const T& item) noexcept {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      not_full_.wait(lock, [this] { return count_ < capacity_; });
      insert(item);
    }
    not_empty_.notify_one();
  }

  // Waits while the queue is empty.
  void pop(T& out) noexcept {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      not_empty_.wait(lock, [this] { return count_ > 0; });
      remove(out);
    }
    not_full_.notify_one();
  }

 private:
  static std::size_t validated(std::size_t capacity) {
    if (capacity < 1 || capacity > kMaxCapacity) {
      throw_bad_capacity("MutexQueue", capacity, "a number of items in [1, 1073741824]");
    }
    return capacity;
  }

  std::size_t wrap(std::size_t index) const noexcept {
    return index >= capacity_ ? index - capacity_ : index;
  }
  void insert(const T& item) noexcept {
    ::new (static_cast<void*>(slots_ + wrap(head_ + count_))) T(item);
    ++count_;
  }
  void remove(T& out) noexcept {
    T* const slot = std::launder(slots_ + head_);
    out = std::move(*slot);
    slot->~T();
    head_ = wrap(head_ + 1);
    --count_;
  }

  const std::size_t capacity_;
  PairAlignedBytes storage_;
  T* slots_ = nullptr;
  std::mutex mutex_;
  std::condition_variable not_empty_;
  std::condition_variable not_full_;
  std::size_t head_ = 0;   // guarded by mutex_
  std::size_t count_ = 0;  // guarded by mutex_
};

}  // namespace pipelab::queues
