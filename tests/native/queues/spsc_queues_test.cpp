// The same behaviour checks for every rival single-producer single-consumer queue (Lamport,
// cached-index, FastForward, unpadded BatchQueue, and the mutex queue used that way): capacity
// rules, fill/drain at capacity 1 and odd sizes, object accounting, and FIFO with no loss or
// duplication between two threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "pipelab/queues/batch_queue_unpadded.hpp"
#include "pipelab/queues/cached_spsc_queue.hpp"
#include "pipelab/queues/fastforward_queue.hpp"
#include "pipelab/queues/flush.hpp"
#include "pipelab/queues/lamport_queue.hpp"
#include "pipelab/queues/lamport_queue_unpadded.hpp"
#include "pipelab/queues/mutex_queue.hpp"
#include "queue_test_support.hpp"

namespace pipelab::queues {
namespace {

using testing::delivered_in_order;
using testing::kStressItems;
using testing::kSweepItems;
using testing::Tracked;
using testing::transfer_in_order;

// Each kind says how to build its queue, which capacities are legal and what the error names.
// A per-item queue is built from its capacity alone.
template <template <typename> class Q>
struct PerItem {
  template <typename T>
  using Queue = Q<T>;
  template <typename T>
  static Queue<T> make(std::size_t capacity) {
    return Queue<T>(capacity);
  }
  static constexpr std::size_t kSmallest = 1;
  static constexpr const char* kAllowed = "a number of items in [1, 1073741824]";
};
struct Lamport : PerItem<LamportQueue> {
  static constexpr const char* kName = "Lamport";
};
struct LamportUnpadded : PerItem<UnpaddedLamportQueue> {
  static constexpr const char* kName = "LamportUnpadded";
};
struct CachedPerItem : PerItem<CachedSpscQueue> {
  static constexpr const char* kName = "CachedPerItem";
};
struct CachedBatched : PerItem<CachedSpscQueue> {
  static constexpr const char* kName = "CachedBatched";
  // Batches of up to 16, and odd batches that do not divide the capacity.
  template <typename T>
  static Queue<T> make(std::size_t capacity) {
    return Queue<T>(capacity,
                    std::max<std::size_t>(1, std::min<std::size_t>(16, capacity / 3 * 2 + 1)));
  }
};
struct FastForward : PerItem<FastForwardQueue> {
  static constexpr const char* kName = "FastForward";
};
struct Mutex : PerItem<MutexQueue> {
  static constexpr const char* kName = "Mutex";
};
struct BatchUnpadded {
  template <typename T>
  using Queue = UnpaddedBatchQueue<T>;
  template <typename T>
  static Queue<T> make(std::size_t capacity) {
    return Queue<T>(capacity + capacity % 2);  // two equal semi-buffers
  }
  static constexpr const char* kName = "BatchUnpadded";
  static constexpr std::size_t kSmallest = 2;
  static constexpr const char* kAllowed = "an even number of items in [2, 1073741824]";
};

// BatchQueue with the line-touching experiment on (both sides): the bench's costs group.
struct BatchTouching : BatchUnpadded {
  template <typename T>
  using Queue = BasicBatchQueue<T, kPrefetchPairBytes, kTouchOnTake | kTouchOnRefill>;
  template <typename T>
  static Queue<T> make(std::size_t capacity) {
    return Queue<T>(capacity + capacity % 2);
  }
  static constexpr const char* kName = "BatchTouching";
};

template <typename Kind>
class SpscQueue : public ::testing::Test {};
using Kinds = ::testing::Types<Lamport, LamportUnpadded, CachedPerItem, CachedBatched, FastForward,
                               Mutex, BatchUnpadded, BatchTouching>;
struct KindName {
  template <typename Kind>
  static std::string GetName(int) {
    return Kind::kName;
  }
};
TYPED_TEST_SUITE(SpscQueue, Kinds, KindName);

// The one flush trait (queues/flush.hpp) knows which queues hold items back.
static_assert(kBatches<BatchQueue<int>> && kBatches<UnpaddedBatchQueue<int>> &&
              kBatches<CachedSpscQueue<int>>);
static_assert(!kBatches<LamportQueue<int>> && !kBatches<UnpaddedLamportQueue<int>> &&
              !kBatches<MutexQueue<int>> && !kBatches<FastForwardQueue<int>>);

// Pops until empty, flushing batching queues between passes; returns the values in pop order.
template <typename Q>
std::vector<std::uint64_t> drain(Q& queue) {
  std::vector<std::uint64_t> values;
  for (int pass = 0; pass < 3; ++pass) {
    std::uint64_t out = 0;
    while (queue.try_pop(out)) values.push_back(out);
    (void)try_publish_partial(queue);
  }
  return values;
}

TYPED_TEST(SpscQueue, RejectsBadCapacityNamingTheValue) {
  using Q = typename TypeParam::template Queue<int>;
  for (std::size_t bad : {std::size_t{0}, TypeParam::kSmallest - 1, Q::kMaxCapacity + 2}) {
    try {
      Q queue(bad);
      ADD_FAILURE() << "capacity " << bad << " was accepted";
    } catch (const std::invalid_argument& error) {
      const std::string message = error.what();
      EXPECT_NE(message.find("capacity " + std::to_string(bad)), std::string::npos) << message;
      EXPECT_NE(message.find(TypeParam::kAllowed), std::string::npos) << message;
    }
  }
}

TYPED_TEST(SpscQueue, RepeatedFullEmptyTransitionsAtSmallAndOddSizes) {
  for (std::size_t capacity :
       {TypeParam::kSmallest, std::size_t{3}, std::size_t{7}, std::size_t{64}}) {
    auto queue = TypeParam::template make<std::uint64_t>(capacity);
    std::uint64_t next_in = 0;
    std::uint64_t next_out = 0;
    for (int round = 0; round < 300; ++round) {
      std::size_t accepted = 0;
      while (accepted <= queue.capacity() && queue.try_push(next_in)) {
        ++next_in;
        ++accepted;
      }
      ASSERT_EQ(accepted, queue.capacity()) << "capacity " << capacity << " round " << round;
      for (std::uint64_t value : drain(queue)) ASSERT_EQ(value, next_out++);
      ASSERT_EQ(next_out, next_in) << "capacity " << capacity << " round " << round;
    }
  }
}

TYPED_TEST(SpscQueue, DestroysExactlyTheItemsItHolds) {
  const long before = Tracked::live.load();
  {
    auto queue = TypeParam::template make<Tracked>(10);
    for (std::uint64_t i = 0; i < 9; ++i) ASSERT_TRUE(queue.try_push(Tracked(i)));
    Tracked out;
    (void)try_publish_partial(queue);
    ASSERT_TRUE(queue.try_pop(out));
    EXPECT_EQ(out.value(), 0u);
    EXPECT_EQ(Tracked::live.load(), before + 1 + 8);
  }
  EXPECT_EQ(Tracked::live.load(), before) << "leaked or double-destroyed items";
  EXPECT_EQ(Tracked::misuse.load(), 0);
}

TYPED_TEST(SpscQueue, TwoThreadsTenMillionItemsInOrder) {
  auto queue = TypeParam::template make<std::uint64_t>(1024);
  EXPECT_TRUE(
      delivered_in_order(transfer_in_order<std::uint64_t>(queue, kStressItems), kStressItems));
}

TYPED_TEST(SpscQueue, TwoThreadsInOrderAcrossCapacities) {
  const long before = Tracked::live.load();
  for (std::size_t capacity :
       {TypeParam::kSmallest, std::size_t{3}, std::size_t{17}, std::size_t{4096}}) {
    auto queue = TypeParam::template make<Tracked>(capacity);
    EXPECT_TRUE(delivered_in_order(transfer_in_order<Tracked>(queue, kSweepItems), kSweepItems))
        << "capacity " << capacity;
  }
  EXPECT_EQ(Tracked::live.load(), before);
  EXPECT_EQ(Tracked::misuse.load(), 0);
}

// The blocking calls of the lock-based baseline: the consumer sleeps on the condition variable.
TEST(MutexQueue, BlockingPushAndPopKeepOrder) {
  MutexQueue<std::uint64_t> queue(4);
  constexpr std::uint64_t kItems = testing::kUnderTsan ? 20'000 : 200'000;
  std::thread producer([&] {
    for (std::uint64_t i = 0; i < kItems; ++i) queue.push(i);
  });
  std::uint64_t out = 0;
  std::uint64_t out_of_order = 0;
  for (std::uint64_t i = 0; i < kItems; ++i) {
    queue.pop(out);
    out_of_order += out != i;
  }
  producer.join();
  EXPECT_EQ(out_of_order, 0u);
  EXPECT_FALSE(queue.try_pop(out));
}

}  // namespace
}  // namespace pipelab::queues
