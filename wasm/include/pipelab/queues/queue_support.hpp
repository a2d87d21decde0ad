// Pieces every queue header shares: line-aligned raw slot storage and the bad-capacity error.
//
// Queues keep their items in raw storage and construct/destroy each T in place, so a queue of a
// non-trivial T holds exactly the live objects pushed and not yet popped (tests count them).
#pragma once

#include <cstddef>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "pipelab/queues/cache_line.hpp"

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

// Owns uninitialized bytes aligned to the false-sharing range, so the first slot starts a fresh
// line pair and nothing else allocated nearby shares its lines.
class RawSlots {
 public:
  explicit RawSlots(std::size_t bytes)
      : bytes_(static_cast<std::byte*>(::operator new (
            round_up_to_lines(bytes), std::align_val_t{kFalseSharingRangeBytes}))) {}
  ~RawSlots() { ::operator delete (bytes_, std::align_val_t{kFalseSharingRangeBytes}); }
  RawSlots(const RawSlots&) = delete;
  RawSlots& operator=(const RawSlots&) = delete;

  std::byte* data() const noexcept { return bytes_; }

 private:
  std::byte* bytes_;
};

}  // namespace pipelab::queues
