// Partial batches, defined once: whether a queue batches (holds pushed items back until a batch
// fills) and how its producer publishes a partial batch without waiting.
//
// A batching queue has try_flush() (BatchQueue: may fail while the consumer still holds the other
// semi-buffer; retry later) or flush() that never waits (CachedSpscQueue with batch > 1: it only
// stores an index). BatchQueue also has a flush() that waits; try_publish_partial() prefers
// try_flush() so the caller keeps control of how it waits (a runtime rechecks its cancel flag).
// Queues with neither (Lamport, Vyukov, mutex) publish every item at once: nothing to do.
// Producer-only, like the queue's push.
#pragma once

#include <type_traits>
#include <utility>

namespace pipelab::queues {

namespace flush_detail {
template <typename Q, typename = void>
struct HasTryFlush : std::false_type {};
template <typename Q>
struct HasTryFlush<Q, std::void_t<decltype(std::declval<Q&>().try_flush())>> : std::true_type {};
template <typename Q, typename = void>
struct HasFlush : std::false_type {};
template <typename Q>
struct HasFlush<Q, std::void_t<decltype(std::declval<Q&>().flush())>> : std::true_type {};
}  // namespace flush_detail

// True for queues that may hold pushed items back until their producer flushes.
template <typename Q>
inline constexpr bool kBatches =
    flush_detail::HasTryFlush<Q>::value || flush_detail::HasFlush<Q>::value;

// Producer. Makes every pushed item visible to the consumer, never waiting; false if the queue
// cannot yet (call again later).
template <typename Q>
[[nodiscard]] bool try_publish_partial(Q& queue) noexcept {
  if constexpr (flush_detail::HasTryFlush<Q>::value) {
    return queue.try_flush();
  } else if constexpr (flush_detail::HasFlush<Q>::value) {
    queue.flush();
  }
  return true;
}

}  // namespace pipelab::queues
