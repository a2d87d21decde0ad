// Cache-line helpers (pipelab/cacheline.hpp): padded slots really start their own prefetch pair
// and are a whole number of pairs apart, raw storage starts a pair, and the structures that rely
// on them (Chase-Lev deque, telemetry rings) are laid out as their headers say.
#include "pipelab/cacheline.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "pipelab/sched/chase_lev_deque.hpp"
#include "pipelab/telemetry/ring.hpp"

namespace pipelab {
namespace {

std::uintptr_t address_of(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

struct Small {
  std::uint64_t count;
};
struct Large {
  double values[25];  // 200 bytes: spans two pairs
};

template <typename T>
void expect_one_pair_each(std::size_t count) {
  PaddedArray<T> slots(count);
  ASSERT_EQ(slots.size(), count);
  for (std::size_t i = 0; i < count; ++i) {
    EXPECT_EQ(address_of(&slots[i]) % kPrefetchPairBytes, 0u) << "slot " << i;
    if (i > 0) {
      const std::uintptr_t gap = address_of(&slots[i]) - address_of(&slots[i - 1]);
      EXPECT_GE(gap, sizeof(T)) << "slot " << i;
      EXPECT_EQ(gap % kPrefetchPairBytes, 0u) << "slot " << i;
    }
  }
}

TEST(PaddedArray, EverySlotStartsItsOwnPrefetchPair) {
  expect_one_pair_each<Small>(64);
  expect_one_pair_each<Large>(9);
  EXPECT_EQ(PaddedArray<Small>::kStrideBytes, kPrefetchPairBytes);
  EXPECT_EQ(PaddedArray<Large>::kStrideBytes, 2 * kPrefetchPairBytes);
}

TEST(PaddedArray, SlotsStartValueInitializedAndKeepTheirValues) {
  PaddedArray<Small> slots(5);
  for (std::size_t i = 0; i < slots.size(); ++i) EXPECT_EQ(slots[i].count, 0u);
  for (std::size_t i = 0; i < slots.size(); ++i) slots[i].count = 10 + i;
  for (std::size_t i = 0; i < slots.size(); ++i) EXPECT_EQ(slots[i].count, 10 + i);
}

TEST(PairAlignedBytes, StartsAPrefetchPair) {
  for (std::size_t bytes : {1u, 64u, 129u, 4096u}) {
    PairAlignedBytes b(bytes);
    EXPECT_EQ(address_of(b.data()) % kPrefetchPairBytes, 0u) << bytes << " bytes";
  }
  EXPECT_EQ(round_up_to_lines(65), 128u);
  EXPECT_EQ(round_up_to_pairs(129), 256u);
}

// The deque's own static_asserts check the offsets; this checks that the heap honours them.
TEST(ChaseLevDequeLayout, HeapDequesStartAPairAndDoNotShareOne) {
  static_assert(alignof(sched::ChaseLevDeque) == kPrefetchPairBytes);
  static_assert(sizeof(sched::ChaseLevDeque) % kPrefetchPairBytes == 0);
  std::vector<std::unique_ptr<sched::ChaseLevDeque>> deques;
  for (int i = 0; i < 8; ++i) deques.push_back(std::make_unique<sched::ChaseLevDeque>(16));
  for (const auto& d : deques) EXPECT_EQ(address_of(d.get()) % kPrefetchPairBytes, 0u);
}

TEST(RingLayout, EachRingStartsAPrefetchPair) {
  for (std::uint32_t w = 0; w < 4; ++w) {
    telemetry::Ring ring(4, w);
    EXPECT_EQ(address_of(ring.data()) % kPrefetchPairBytes, 0u) << "ring " << w;
  }
}

}  // namespace
}  // namespace pipelab
