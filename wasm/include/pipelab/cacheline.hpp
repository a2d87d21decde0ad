// Cache-line layout, defined once: the line size, the prefetch-pair distance, and helpers for
// storage whose slots must not share lines with each other or with their neighbours.
//
// kCacheLineBytes is the coherence unit of the x86-64 and ARM cores PipeLab runs on (and of the
// hosts a wasm module runs on; WebAssembly itself has no notion of it). kPrefetchPairBytes is twice
// that because adjacent-line prefetchers (Intel's spatial prefetcher, and others) pull lines in
// 128-byte aligned pairs: two hot variables written by different threads only 64 bytes apart
// still ping-pong, so data written by different threads sits a prefetch pair apart.
// std::hardware_destructive_interference_size is not used: GCC warns that its value may change
// between compiler versions (an ABI hazard), and it says nothing about the pairs.
// Every structure that pads or aligns (queues, telemetry ring and counters, counting slots,
// Chase-Lev deque, the runtimes' per-worker state) takes its numbers from here.
#pragma once

#include <cstddef>
#include <new>
#include <type_traits>

namespace pipelab {

inline constexpr std::size_t kCacheLineBytes = 64;
inline constexpr std::size_t kPrefetchPairBytes = 2 * kCacheLineBytes;

// Rounds a byte count up to whole cache lines.
constexpr std::size_t round_up_to_lines(std::size_t bytes) noexcept {
  return (bytes + kCacheLineBytes - 1) / kCacheLineBytes * kCacheLineBytes;
}

// Rounds a byte count up to whole prefetch pairs.
constexpr std::size_t round_up_to_pairs(std::size_t bytes) noexcept {
  return (bytes + kPrefetchPairBytes - 1) / kPrefetchPairBytes * kPrefetchPairBytes;
}

// Owns uninitialized bytes that start a prefetch pair and end on one (the length is rounded up to
// whole pairs), so nothing else allocated nearby shares their lines or their pairs.
class PairAlignedBytes {
 public:
  explicit PairAlignedBytes(std::size_t bytes)
      : bytes_(static_cast<std::byte*>(
            ::operator new (round_up_to_pairs(bytes), std::align_val_t{kPrefetchPairBytes}))) {}
  ~PairAlignedBytes() { ::operator delete (bytes_, std::align_val_t{kPrefetchPairBytes}); }
  PairAlignedBytes(const PairAlignedBytes&) = delete;
  PairAlignedBytes& operator=(const PairAlignedBytes&) = delete;

  std::byte* data() const noexcept { return bytes_; }

 private:
  std::byte* bytes_;
};

// A fixed number of value-initialized T, each starting its own prefetch pair: one slot per thread
// with no false sharing between slots. Why not std::vector<alignas(128) T>: that pads only what
// is inside T, so a T holding a std::vector (or any pointer to heap data) still shares lines
// through that heap data; PaddedArray is meant for a T that holds its hot data inline (the
// runtimes static_assert that their slot types are trivially copyable, i.e. own no heap data).
template <typename T>
class PaddedArray {
  static_assert(alignof(T) <= kPrefetchPairBytes, "slots are aligned to prefetch pairs only");

 public:
  static constexpr std::size_t kStrideBytes = round_up_to_pairs(sizeof(T));

  explicit PaddedArray(std::size_t count) : count_(count), bytes_(count * kStrideBytes) {
    for (std::size_t i = 0; i < count_; ++i) ::new (static_cast<void*>(slot(i))) T();
  }
  ~PaddedArray() {
    if constexpr (!std::is_trivially_destructible_v<T>) {
      for (std::size_t i = 0; i < count_; ++i) (*this)[i].~T();
    }
  }
  PaddedArray(const PaddedArray&) = delete;
  PaddedArray& operator=(const PaddedArray&) = delete;

  T& operator[](std::size_t i) noexcept { return *std::launder(reinterpret_cast<T*>(slot(i))); }
  const T& operator[](std::size_t i) const noexcept {
    return *std::launder(reinterpret_cast<const T*>(slot(i)));
  }
  std::size_t size() const noexcept { return count_; }

 private:
  std::byte* slot(std::size_t i) const noexcept { return bytes_.data() + i * kStrideBytes; }

  std::size_t count_;
  PairAlignedBytes bytes_;
};

}  // namespace pipelab
