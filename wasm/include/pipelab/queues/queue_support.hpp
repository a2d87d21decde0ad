// Pieces every queue header shares: the item requirements and the bad-capacity error.
//
// Queues keep their items in raw storage (PairAlignedBytes, pipelab/cacheline.hpp: the first slot
// starts a fresh prefetch pair and nothing allocated nearby shares its lines) and construct/destroy
// each T in place, so a queue of a non-trivial T holds exactly the live objects pushed and not yet
// popped (tests count them).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "pipelab/cacheline.hpp"

namespace pipelab::queues {

// Items must move out of a slot without throwing, because try_pop is noexcept.
template <typename T>
inline constexpr bool kQueueableItem = std::is_nothrow_copy_constructible_v<T>&&
    std::is_nothrow_move_assignable_v<T>&& std::is_nothrow_destructible_v<T>;

// Throws std::invalid_argument naming the queue, the rejected value and the allowed range.
[[noreturn]] inline void throw_bad_capacity(const char* queue, std::size_t capacity,
                                            const std::string& allowed) {
  throw std::invalid_argument(std::string(queue) + ": capacity " + std::to_string(capacity) +
                              " is invalid; allowed: " + allowed);
}

}  // namespace pipelab::queues
