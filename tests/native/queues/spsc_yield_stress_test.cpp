// The single-producer single-consumer queues under randomized yields: the item type yields (with a
// seeded probability, support/stress.hpp) whenever it is constructed, copied into a slot or moved
// out of one. A push copies the item after checking for room and before publishing its index or
// semi-buffer; a pop moves it out after reading the producer's index and before releasing the
// slot: so the yields land inside each operation's window, at small capacities where the two
// threads meet on every item. Checks FIFO with no loss or duplication (queue_test_support.hpp).
// The Vyukov MPMC queue runs here too, with one producer and one consumer (its FIFO order holds
// then): its yields fall between claiming a cell and publishing its sequence number.
// Short in npm test; PIPELAB_STRESS=long runs 20x more items, PIPELAB_STRESS_SEED replays a seed.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "pipelab/queues/batch_queue.hpp"
#include "pipelab/queues/cached_spsc_queue.hpp"
#include "pipelab/queues/lamport_queue.hpp"
#include "pipelab/queues/vyukov_mpmc_queue.hpp"
#include "queue_test_support.hpp"
#include "support/stress.hpp"

namespace pipelab::queues::testing {

// An item whose constructors and assignments are yield points.
class YieldingItem {
 public:
  YieldingItem() noexcept = default;
  explicit YieldingItem(std::uint64_t value) noexcept : value_(value) {
    test_stress::maybe_yield();
  }
  YieldingItem(const YieldingItem& other) noexcept : value_(other.value_) {
    test_stress::maybe_yield();
  }
  YieldingItem& operator=(const YieldingItem& other) noexcept {
    test_stress::maybe_yield();
    value_ = other.value_;
    return *this;
  }
  YieldingItem& operator=(YieldingItem&& other) noexcept {
    return *this = static_cast<const YieldingItem&>(other);
  }
  std::uint64_t value() const noexcept { return value_; }

 private:
  std::uint64_t value_ = 0;
};

inline std::uint64_t value_of(const YieldingItem& item) { return item.value(); }

namespace {

struct Batch {
  static constexpr const char* kName = "Batch";
  static BatchQueue<YieldingItem> make(std::size_t capacity) {
    return BatchQueue<YieldingItem>(capacity + capacity % 2);
  }
};
struct Lamport {
  static constexpr const char* kName = "Lamport";
  static LamportQueue<YieldingItem> make(std::size_t capacity) {
    return LamportQueue<YieldingItem>(capacity);
  }
};
struct CachedPerItem {
  static constexpr const char* kName = "CachedPerItem";
  static CachedSpscQueue<YieldingItem> make(std::size_t capacity) {
    return CachedSpscQueue<YieldingItem>(capacity);
  }
};
struct CachedBatched {
  static constexpr const char* kName = "CachedBatched";
  static CachedSpscQueue<YieldingItem> make(std::size_t capacity) {
    return CachedSpscQueue<YieldingItem>(capacity, (capacity + 1) / 2);
  }
};
struct Vyukov {
  static constexpr const char* kName = "VyukovMpmc";
  static VyukovMpmcQueue<YieldingItem> make(std::size_t capacity) {
    return VyukovMpmcQueue<YieldingItem>(
        VyukovMpmcQueue<YieldingItem>::capacity_at_least(capacity));
  }
};

template <typename Kind>
class SpscYieldStress : public ::testing::Test {};
using Kinds = ::testing::Types<Batch, Lamport, CachedPerItem, CachedBatched, Vyukov>;
struct KindName {
  template <typename Kind>
  static std::string GetName(int) {
    return Kind::kName;
  }
};
TYPED_TEST_SUITE(SpscYieldStress, Kinds, KindName);

#if defined(__EMSCRIPTEN__)
constexpr std::uint64_t kItems = 10'001;
#else
constexpr std::uint64_t kItems = kUnderTsan ? 4'001 : 30'001;
#endif

TYPED_TEST(SpscYieldStress, InOrderWithYieldsInsideEveryOperation) {
  const std::uint64_t items = test_stress::scaled(kItems);
  const std::uint64_t seed = test_stress::base_seed();
  constexpr std::uint32_t kYieldPer65536 = 3277;  // ~5% of copies and moves
  for (std::size_t capacity : {1, 3, 16}) {
    auto queue = TypeParam::make(capacity);
    test_stress::YieldInjector::start(seed + capacity, kYieldPer65536);
    const TransferOutcome outcome = transfer_in_order<YieldingItem>(queue, items);
    const std::uint64_t yields = test_stress::YieldInjector::yields();
    test_stress::YieldInjector::stop();
    std::printf("[ stress   ] %s capacity %zu seed %llu: %llu items, %llu yields\n",
                TypeParam::kName, capacity, static_cast<unsigned long long>(seed + capacity),
                static_cast<unsigned long long>(items), static_cast<unsigned long long>(yields));
    EXPECT_TRUE(delivered_in_order(outcome, items))
        << TypeParam::kName << " capacity " << capacity << " seed " << seed + capacity;
    EXPECT_GT(yields, 0u);
  }
}

}  // namespace
}  // namespace pipelab::queues::testing
