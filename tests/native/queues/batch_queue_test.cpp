// BatchQueue behaviour: semi-buffer hand-over, flush and end of stream, capacity rules, object
// accounting, FIFO with no loss or duplication between two threads at many buffer sizes, the bulk
// calls (try_push_n / try_pop_n) alone and mixed with per-item calls;
// also the blocking push / pop with ParkWait through its sleeping phase (and sleep_us itself).
#include "pipelab/queues/batch_queue.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "pipelab/queues/thread_sleep.hpp"
#include "pipelab/queues/wait_policy.hpp"
#include "queue_test_support.hpp"

namespace pipelab::queues {
namespace {

using testing::BoundedWait;
using testing::delivered_in_order;
using testing::kStressItems;
using testing::kSweepItems;
using testing::Tracked;
using testing::transfer_in_order;

TEST(BatchQueue, RejectsBadCapacityNamingTheValue) {
  for (std::size_t bad :
       {std::size_t{0}, std::size_t{1}, std::size_t{7}, BatchQueue<int>::kMaxCapacity + 2}) {
    try {
      BatchQueue<int> queue(bad);
      ADD_FAILURE() << "capacity " << bad << " was accepted";
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find("capacity " + std::to_string(bad)),
                std::string::npos)
          << error.what();
      EXPECT_NE(std::string(error.what()).find("even number of items in [2, 1073741824]"),
                std::string::npos)
          << error.what();
    }
  }
}

TEST(BatchQueue, CapacityForLinesFillsWholeLines) {
  EXPECT_EQ(BatchQueue<std::uint64_t>::capacity_for_lines(1), 16u);
  EXPECT_EQ(BatchQueue<std::uint32_t>::capacity_for_lines(3), 96u);
  BatchQueue<std::uint64_t> queue(BatchQueue<std::uint64_t>::capacity_for_lines(5));
  EXPECT_EQ(queue.semi_buffer_items(), 40u);
}

// A full semi-buffer is handed over at once; the second waits until the consumer releases the
// first.
TEST(BatchQueue, HandsOverWholeSemiBuffersAndFlushesTheRest) {
  BatchQueue<int> queue(4);
  int out = 0;
  EXPECT_FALSE(queue.try_pop(out));
  ASSERT_TRUE(queue.try_push(1));
  EXPECT_FALSE(queue.try_pop(out)) << "a partial semi-buffer must stay private";
  ASSERT_TRUE(queue.try_push(2));  // fills the first semi-buffer: published
  ASSERT_TRUE(queue.try_push(3));
  ASSERT_TRUE(queue.try_push(4));  // fills the second; the consumer still has the first
  EXPECT_FALSE(queue.try_push(5)) << "both semi-buffers full";
  EXPECT_FALSE(queue.try_flush()) << "cannot publish while the consumer holds the other half";
  ASSERT_TRUE(queue.try_pop(out));
  EXPECT_EQ(out, 1);
  ASSERT_TRUE(queue.try_pop(out));
  EXPECT_EQ(out, 2);
  EXPECT_FALSE(queue.try_pop(out)) << "the second semi-buffer is not published yet";
  EXPECT_TRUE(queue.try_flush());
  ASSERT_TRUE(queue.try_pop(out));
  EXPECT_EQ(out, 3);
  ASSERT_TRUE(queue.try_pop(out));
  EXPECT_EQ(out, 4);
  EXPECT_FALSE(queue.try_pop(out));
}

TEST(BatchQueue, PartialBatchAppearsOnlyAfterFlush) {
  BatchQueue<int> queue(16);
  int out = 0;
  EXPECT_TRUE(queue.try_flush()) << "flushing nothing succeeds";
  EXPECT_FALSE(queue.try_pop(out));
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(queue.try_push(i));
  EXPECT_FALSE(queue.try_pop(out));
  queue.flush();
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(queue.try_pop(out));
    EXPECT_EQ(out, i);
  }
  EXPECT_FALSE(queue.try_pop(out)) << "end of stream: nothing after the flushed items";
  // A second partial batch after the first was drained.
  ASSERT_TRUE(queue.try_push(10));
  queue.flush();
  ASSERT_TRUE(queue.try_pop(out));
  EXPECT_EQ(out, 10);
  EXPECT_FALSE(queue.try_pop(out));
}

// Fill to exactly the capacity, flush, drain in order: many times, at small and odd sizes.
TEST(BatchQueue, RepeatedFullEmptyTransitions) {
  for (std::size_t capacity : {2u, 6u, 14u, 16u, 50u}) {
    BatchQueue<std::uint64_t> queue(capacity);
    std::uint64_t next_in = 0;
    std::uint64_t next_out = 0;
    for (int round = 0; round < 500; ++round) {
      std::size_t accepted = 0;
      while (queue.try_push(next_in)) {
        ++next_in;
        ++accepted;
        ASSERT_LE(accepted, capacity);
      }
      ASSERT_EQ(accepted, capacity) << "capacity " << capacity;
      std::uint64_t out = 0;
      for (int pass = 0; pass < 2; ++pass) {  // the second semi-buffer needs a flush
        while (queue.try_pop(out)) ASSERT_EQ(out, next_out++);
        ASSERT_TRUE(queue.try_flush());
      }
      ASSERT_EQ(next_out, next_in) << "capacity " << capacity << " round " << round;
    }
  }
}

TEST(BatchQueue, DestroysExactlyTheItemsItHolds) {
  const long before = Tracked::live.load();
  {
    BatchQueue<Tracked> queue(8);
    for (std::uint64_t i = 0; i < 7; ++i) ASSERT_TRUE(queue.try_push(Tracked(i)));
    EXPECT_EQ(Tracked::live.load(), before + 7);
    Tracked out;
    ASSERT_TRUE(queue.try_pop(out));  // consumer now holds a partly read semi-buffer
    EXPECT_EQ(out.value(), 0u);
    EXPECT_EQ(Tracked::live.load(), before + 1 + 6);
  }
  EXPECT_EQ(Tracked::live.load(), before) << "leaked or double-destroyed items";
  {
    BatchQueue<Tracked> queue(8);  // a published semi-buffer nobody has started to read
    for (std::uint64_t i = 0; i < 5; ++i) ASSERT_TRUE(queue.try_push(Tracked(i)));
  }
  EXPECT_EQ(Tracked::live.load(), before);
  EXPECT_EQ(Tracked::misuse.load(), 0);
}

TEST(BatchQueue, TwoThreadsTenMillionItemsInOrder) {
  BatchQueue<std::uint64_t> queue(BatchQueue<std::uint64_t>::capacity_for_lines(4));
  EXPECT_TRUE(
      delivered_in_order(transfer_in_order<std::uint64_t>(queue, kStressItems), kStressItems));
}

// Semi-buffers from one item to many lines, including odd item counts and odd line counts.
TEST(BatchQueue, TwoThreadsInOrderAcrossSemiBufferSizes) {
  using Q = BatchQueue<std::uint64_t>;
  for (std::size_t capacity :
       {std::size_t{2}, std::size_t{6}, std::size_t{14}, Q::capacity_for_lines(1),
        Q::capacity_for_lines(3), Q::capacity_for_lines(5), std::size_t{1026},
        Q::capacity_for_lines(64)}) {
    Q queue(capacity);
    EXPECT_TRUE(
        delivered_in_order(transfer_in_order<std::uint64_t>(queue, kSweepItems), kSweepItems))
        << "capacity " << capacity;
  }
}

TEST(BatchQueue, TwoThreadsNonTrivialItemsAreAllDestroyed) {
  const long before = Tracked::live.load();
  for (std::size_t capacity : {std::size_t{2}, std::size_t{10}, std::size_t{64}}) {
    BatchQueue<Tracked> queue(capacity);
    EXPECT_TRUE(delivered_in_order(transfer_in_order<Tracked>(queue, kSweepItems), kSweepItems))
        << "capacity " << capacity;
  }
  EXPECT_EQ(Tracked::live.load(), before);
  EXPECT_EQ(Tracked::misuse.load(), 0);
}

// The bulk calls copy runs of items in and out (memcpy for trivial T): chunks that straddle
// semi-buffers, mixed with per-item calls, keep FIFO order, and stop where the per-item calls
// would.
TEST(BatchQueue, BulkPushAndPopKeepOrderAcrossSemiBuffers) {
  BatchQueue<std::uint64_t> q(16);  // semi-buffers of 8
  std::uint64_t in[40];
  for (std::uint64_t i = 0; i < 40; ++i) in[i] = i;
  EXPECT_EQ(q.try_push_n(in, 5), 5u);
  EXPECT_TRUE(q.try_push(in[5]) && q.try_push(in[6]));
  EXPECT_EQ(q.try_push_n(in + 7, 33), 9u) << "both semi-buffers full: 7 + 9 = 16 items";
  std::uint64_t out[40] = {};
  EXPECT_EQ(q.try_pop_n(out, 3), 3u);
  std::uint64_t one = 0;
  EXPECT_TRUE(q.try_pop(one));
  EXPECT_EQ(one, 3u);
  EXPECT_EQ(q.try_pop_n(out + 4, 36), 4u) << "the second semi-buffer is not published yet";
  EXPECT_EQ(q.try_pop_n(out + 8, 8), 0u);
  EXPECT_TRUE(q.try_flush());  // the producer is on a full semi-buffer: publishes it
  EXPECT_EQ(q.try_pop_n(out + 8, 32), 8u);
  for (std::uint64_t i = 0; i < 16; ++i) {
    if (i != 3) {
      EXPECT_EQ(out[i], i) << "position " << i;
    }
  }
  EXPECT_EQ(q.try_push_n(in + 16, 3), 3u);
  EXPECT_TRUE(q.try_flush());
  EXPECT_EQ(q.try_pop_n(out, 40), 3u) << "a flushed partial semi-buffer";
  EXPECT_EQ(out[2], 18u);
}

TEST(BatchQueue, BulkCallsConstructAndDestroyNonTrivialItemsExactly) {
  const long before = Tracked::live.load();
  {
    BatchQueue<Tracked> q(8);
    std::vector<Tracked> in;
    for (std::uint64_t i = 0; i < 6; ++i) in.emplace_back(i);
    EXPECT_EQ(q.try_push_n(in.data(), in.size()), 6u);
    std::vector<Tracked> out(4);
    EXPECT_EQ(q.try_pop_n(out.data(), out.size()), 4u);
    EXPECT_EQ(out[3].value(), 3u);
    EXPECT_EQ(Tracked::live.load(), before + 6 + 2 + 4) << "2 items still queued";
  }
  EXPECT_EQ(Tracked::live.load(), before);
  EXPECT_EQ(Tracked::misuse.load(), 0);
}

// Two threads moving chunks of every size from 1 to 700 each way: FIFO, no loss, no duplicate.
TEST(BatchQueue, TwoThreadsBulkChunksInOrder) {
  BatchQueue<std::uint64_t> q(BatchQueue<std::uint64_t>::capacity_for_lines(8));
  const std::uint64_t items = kStressItems;
  std::thread producer([&] {
    std::vector<std::uint64_t> chunk(700);
    BoundedWait wait(std::chrono::steady_clock::now() + testing::kTransferLimit);
    std::uint64_t next = 0;
    for (std::size_t size = 1; next < items; size = size % 700 + 1) {
      const std::size_t n = std::min<std::uint64_t>(size, items - next);
      for (std::size_t i = 0; i < n; ++i) chunk[i] = next + i;
      for (std::size_t sent = 0; sent < n;) {
        const std::size_t k = q.try_push_n(chunk.data() + sent, n - sent);
        sent += k;
        if (k == 0 && !wait.wait()) return;
        if (k != 0) wait.reset();
      }
      next += n;
    }
    while (!q.try_flush()) {
      if (!wait.wait()) return;
    }
  });
  std::vector<std::uint64_t> chunk(700);
  BoundedWait wait(std::chrono::steady_clock::now() + testing::kTransferLimit);
  std::uint64_t received = 0, out_of_order = 0;
  bool timed_out = false;
  for (std::size_t size = 700; received < items; size = size == 1 ? 700 : size - 1) {
    const std::size_t k = q.try_pop_n(chunk.data(), size);
    for (std::size_t i = 0; i < k; ++i) out_of_order += chunk[i] != received + i;
    received += k;
    if (k != 0) {
      wait.reset();
    } else if (!wait.wait()) {
      timed_out = true;
      break;
    }
  }
  producer.join();
  EXPECT_FALSE(timed_out) << received << " of " << items << " received";
  EXPECT_EQ(received, items);
  EXPECT_EQ(out_of_order, 0u);
}

// Both sides stall for a millisecond now and then, so the other side's ParkWait (4 spins) runs
// out of spins and yields and sleeps: every item must still arrive once and in order.
TEST(BatchQueue, BlockingPushPopWithParkWaitSurviveSleeps) {
  constexpr std::uint64_t kItems = 20'000;
  BatchQueue<std::uint64_t> queue(8);
  std::thread producer([&] {
    ParkWait wait(4);
    for (std::uint64_t i = 0; i < kItems; ++i) {
      if (i % 5'000 == 2'500) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      push(queue, i, wait);
    }
    queue.flush();
  });
  ParkWait wait(4);
  std::uint64_t out_of_order = 0;
  for (std::uint64_t i = 0; i < kItems; ++i) {
    if (i % 5'000 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::uint64_t item = 0;
    pop(queue, item, wait);
    out_of_order += item != i;
  }
  producer.join();
  EXPECT_EQ(out_of_order, 0u);
}

// A sleep never ends early (in wasm it is a futex wait that nobody notifies, ended by its timeout).
TEST(SleepUs, LastsAtLeastTheRequestedTime) {
  for (std::uint32_t us : {50u, 2'000u}) {
    const auto start = std::chrono::steady_clock::now();
    sleep_us(us);
    EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::microseconds(us))
        << us << " us";
  }
}

}  // namespace
}  // namespace pipelab::queues
