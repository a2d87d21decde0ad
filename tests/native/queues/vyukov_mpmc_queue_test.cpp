// Vyukov MPMC queue behaviour: capacity rules, order and fullness on one thread, object accounting,
// FIFO between two threads, and conservation (every item exactly once, per-producer order) with
// two producers and two consumers.
#include "pipelab/queues/vyukov_mpmc_queue.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "queue_test_support.hpp"

namespace pipelab::queues {
namespace {

using testing::BoundedWait;
using testing::delivered_in_order;
using testing::kStressItems;
using testing::kSweepItems;
using testing::kTransferLimit;
using testing::Tracked;
using testing::transfer_in_order;

TEST(VyukovMpmcQueue, RejectsBadCapacityNamingTheValue) {
  for (std::size_t bad : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{6},
                          VyukovMpmcQueue<int>::kMaxCapacity * 2}) {
    try {
      VyukovMpmcQueue<int> queue(bad);
      ADD_FAILURE() << "capacity " << bad << " was accepted";
    } catch (const std::invalid_argument& error) {
      const std::string message = error.what();
      EXPECT_NE(message.find("capacity " + std::to_string(bad)), std::string::npos) << message;
      EXPECT_NE(message.find("power of two in [2, 1073741824]"), std::string::npos) << message;
    }
  }
}

TEST(VyukovMpmcQueue, CapacityAtLeastIsTheSmallestLegalOneThatHoldsN) {
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{3},
                        std::size_t{5}, std::size_t{64}, std::size_t{65}}) {
    const std::size_t c = VyukovMpmcQueue<int>::capacity_at_least(n);
    EXPECT_GE(c, n);
    EXPECT_TRUE(c == 2 || c / 2 < n) << n << " fits a smaller capacity than " << c;
    EXPECT_NO_THROW(VyukovMpmcQueue<int> queue(c)) << n;
  }
}

TEST(VyukovMpmcQueue, RepeatedFullEmptyTransitions) {
  for (std::size_t capacity : {2u, 4u, 64u}) {
    VyukovMpmcQueue<std::uint64_t> queue(capacity);
    std::uint64_t next_in = 0;
    std::uint64_t next_out = 0;
    for (int round = 0; round < 500; ++round) {
      for (std::size_t i = 0; i < capacity; ++i) ASSERT_TRUE(queue.try_push(next_in++));
      ASSERT_FALSE(queue.try_push(next_in)) << "accepted more than capacity " << capacity;
      std::uint64_t out = 0;
      for (std::size_t i = 0; i < capacity; ++i) {
        ASSERT_TRUE(queue.try_pop(out));
        ASSERT_EQ(out, next_out++);
      }
      ASSERT_FALSE(queue.try_pop(out));
    }
  }
}

TEST(VyukovMpmcQueue, DestroysExactlyTheItemsItHolds) {
  const long before = Tracked::live.load();
  {
    VyukovMpmcQueue<Tracked> queue(8);
    for (std::uint64_t i = 0; i < 8; ++i) ASSERT_TRUE(queue.try_push(Tracked(i)));
    Tracked out;
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(queue.try_pop(out));
    for (std::uint64_t i = 0; i < 2; ++i) ASSERT_TRUE(queue.try_push(Tracked(i)));  // wraps
    EXPECT_EQ(Tracked::live.load(), before + 1 + 7);
  }
  EXPECT_EQ(Tracked::live.load(), before);
  EXPECT_EQ(Tracked::misuse.load(), 0);
}

TEST(VyukovMpmcQueue, TwoThreadsTenMillionItemsInOrder) {
  VyukovMpmcQueue<std::uint64_t> queue(1024);
  EXPECT_TRUE(
      delivered_in_order(transfer_in_order<std::uint64_t>(queue, kStressItems), kStressItems));
}

TEST(VyukovMpmcQueue, TwoThreadsInOrderAcrossCapacities) {
  for (std::size_t capacity : {2u, 4u, 64u, 4096u}) {
    VyukovMpmcQueue<Tracked> queue(capacity);
    EXPECT_TRUE(delivered_in_order(transfer_in_order<Tracked>(queue, kSweepItems), kSweepItems))
        << "capacity " << capacity;
  }
  EXPECT_EQ(Tracked::misuse.load(), 0);
}

// Items are (producer << 40 | sequence). Every item must be popped exactly once, and each consumer
// must see each producer's items in increasing order (the queue is linearizable FIFO).
void expect_conservation(std::size_t capacity, int producers, int consumers,
                         std::uint64_t items_per_producer) {
  VyukovMpmcQueue<std::uint64_t> queue(capacity);
  const std::uint64_t total = items_per_producer * producers;
  std::unique_ptr<std::atomic<std::uint8_t>[]> times_seen(new std::atomic<std::uint8_t>[total]);
  for (std::uint64_t i = 0; i < total; ++i) times_seen[i].store(0, std::memory_order_relaxed);
  const auto deadline = std::chrono::steady_clock::now() + kTransferLimit;
  std::atomic<std::uint64_t> popped{0};
  std::atomic<std::uint64_t> order_errors{0};
  std::atomic<std::uint64_t> bad_values{0};
  std::atomic<bool> timed_out{false};
  std::vector<std::thread> threads;
  for (int p = 0; p < producers; ++p) {
    threads.emplace_back([&, p] {
      BoundedWait wait(deadline);
      for (std::uint64_t i = 0; i < items_per_producer; ++i) {
        while (!queue.try_push(std::uint64_t(p) << 40 | i)) {
          if (!wait.wait() || timed_out.load(std::memory_order_relaxed)) {
            timed_out.store(true, std::memory_order_relaxed);
            return;
          }
        }
        wait.reset();
      }
    });
  }
  for (int c = 0; c < consumers; ++c) {
    threads.emplace_back([&] {
      BoundedWait wait(deadline);
      std::vector<std::int64_t> last(producers, -1);
      std::uint64_t item = 0;
      while (popped.load(std::memory_order_relaxed) < total) {
        if (!queue.try_pop(item)) {
          if (!wait.wait() || timed_out.load(std::memory_order_relaxed)) {
            timed_out.store(true, std::memory_order_relaxed);
            return;
          }
          continue;
        }
        wait.reset();
        popped.fetch_add(1, std::memory_order_relaxed);
        const std::uint64_t producer = item >> 40;
        const std::uint64_t sequence = item & ((std::uint64_t{1} << 40) - 1);
        if (producer >= std::uint64_t(producers) || sequence >= items_per_producer) {
          bad_values.fetch_add(1, std::memory_order_relaxed);
          continue;
        }
        if (std::int64_t(sequence) <= last[producer]) {
          order_errors.fetch_add(1, std::memory_order_relaxed);
        }
        last[producer] = std::int64_t(sequence);
        times_seen[producer * items_per_producer + sequence].fetch_add(1,
                                                                       std::memory_order_relaxed);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  ASSERT_FALSE(timed_out.load()) << "timed out after " << kTransferLimit.count() << " s with "
                                 << popped.load() << " of " << total << " items popped";
  EXPECT_EQ(popped.load(), total);
  EXPECT_EQ(bad_values.load(), 0u);
  EXPECT_EQ(order_errors.load(), 0u) << "a consumer saw a producer's items out of order";
  std::uint64_t lost = 0;
  std::uint64_t duplicated = 0;
  for (std::uint64_t i = 0; i < total; ++i) {
    const auto seen = times_seen[i].load(std::memory_order_relaxed);
    lost += seen == 0;
    duplicated += seen > 1;
  }
  EXPECT_EQ(lost, 0u);
  EXPECT_EQ(duplicated, 0u);
  std::uint64_t extra = 0;
  EXPECT_FALSE(queue.try_pop(extra)) << "an item after end of stream";
}

TEST(VyukovMpmcQueue, TwoProducersTwoConsumersTenMillionItemsExactlyOnce) {
  expect_conservation(1024, 2, 2, kStressItems / 2);
}

TEST(VyukovMpmcQueue, ManyToManyExactlyOnceAcrossCapacities) {
  for (std::size_t capacity : {2u, 8u, 256u}) {
    SCOPED_TRACE("capacity " + std::to_string(capacity));
    expect_conservation(capacity, 2, 2, kSweepItems / 2);
    expect_conservation(capacity, 3, 1, kSweepItems / 3);
    expect_conservation(capacity, 1, 3, kSweepItems);
  }
}

}  // namespace
}  // namespace pipelab::queues
