// The single-producer single-consumer role guard (queues/role_guard.hpp). This suite is built as a
// debug build whatever the build type (wasm/cmake/area-queues.cmake undefines NDEBUG for it), so
// the guards are compiled in: a second producer or consumer thread dies with a message naming the
// queue and the role (death tests, where GoogleTest has them: native and TSan, not wasm), correct
// use never trips a guard (two-thread transfers, a telemetry ring handed to new threads by
// reset(), a pipeline run twice on fresh threads), and RoleOwner's claim logic holds on every
// target.
#include "pipelab/queues/role_guard.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "pipelab/pipeline/runtime_kinds.hpp"
#include "pipelab/queues/batch_queue.hpp"
#include "pipelab/queues/cached_spsc_queue.hpp"
#include "pipelab/queues/fastforward_queue.hpp"
#include "pipelab/queues/lamport_queue.hpp"
#include "pipelab/telemetry/ring.hpp"
#include "queue_test_support.hpp"

static_assert(PIPELAB_ROLE_CHECKS == 1, "this suite must be built with NDEBUG undefined");

namespace pipelab::queues {
namespace {

using testing::delivered_in_order;
using testing::transfer_in_order;

// Runs f on a new thread and waits for it.
template <typename F>
void on_another_thread(F f) {
  std::thread(f).join();
}

TEST(RoleOwner, FirstClaimerHoldsTheRoleUntilReleased) {
  RoleOwner role;
  EXPECT_TRUE(role.claim());
  EXPECT_TRUE(role.claim()) << "the holder claims again";
  bool other = true;
  on_another_thread([&] { other = role.claim(); });
  EXPECT_FALSE(other) << "a second thread took a held role";
  role.release();
  on_another_thread([&] { other = role.claim(); });
  EXPECT_TRUE(other) << "after release the next thread takes the role";
  EXPECT_FALSE(role.claim()) << "and the first thread no longer holds it";
}

TEST(RoleOwner, ExactlyOneOfTwoRacingThreadsWins) {
  for (int round = 0; round < 200; ++round) {
    RoleOwner role;
    std::atomic<int> winners{0};
    std::atomic<bool> go{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t) {
      threads.emplace_back([&] {
        while (!go.load(std::memory_order_acquire)) {
        }
        winners.fetch_add(role.claim() ? 1 : 0);
      });
    }
    go.store(true, std::memory_order_release);
    for (auto& t : threads) t.join();
    ASSERT_EQ(winners.load(), 1) << "round " << round;
  }
}

// Correct use never trips a guard: one producer thread, the test thread consuming.
template <typename Queue>
void expect_transfer_passes(Queue& queue, const char* label) {
  EXPECT_TRUE(delivered_in_order(transfer_in_order<std::uint64_t>(queue, 20'001), 20'001)) << label;
}

TEST(SpscRoleGuard, OneProducerAndOneConsumerThreadPass) {
  BatchQueue<std::uint64_t> batch(64);
  expect_transfer_passes(batch, "BatchQueue");
  LamportQueue<std::uint64_t> lamport(64);
  expect_transfer_passes(lamport, "LamportQueue");
  CachedSpscQueue<std::uint64_t> cached(64, 8);
  expect_transfer_passes(cached, "CachedSpscQueue");
  FastForwardQueue<std::uint64_t> fastforward(64);
  expect_transfer_passes(fastforward, "FastForwardQueue");
}

TEST(SpscRoleGuard, RingResetHandsTheRolesToNewThreads) {
  telemetry::Ring ring(16, 0);
  for (int run = 0; run < 3; ++run) {
    on_another_thread([&] { EXPECT_TRUE(ring.push(telemetry::Event{})); });
    on_another_thread([&] {
      telemetry::Event out[4];
      EXPECT_EQ(ring.pop_into(out, 4), 1u);
    });
    ring.reset();  // between runs: the next run's threads take over
  }
}

// Each run starts fresh worker threads; the telemetry rings (and the runtime) are reused.
TEST(SpscRoleGuard, PipelineRunsTwiceOnFreshThreads) {
  using namespace pipelab::pipeline;
  ExperimentSpec spec;
  spec.stages = {StageSpec{"a", StageMode::kSerialInOrder, 1, ServiceSpec::fixed(0)},
                 StageSpec{"b", StageMode::kSerialInOrder, 1, ServiceSpec::fixed(0)},
                 StageSpec{"c", StageMode::kSerialInOrder, 1, ServiceSpec::fixed(0)}};
  spec.items = 2000;
  for (QueueKind kind : {QueueKind::kBatch, QueueKind::kLamport, QueueKind::kCachedSpsc}) {
    spec.queue = QueueSpec{kind, 16};
    auto rt = make_runtime(spec);
    for (int run = 0; run < 2; ++run) {
      rt->run();
      EXPECT_EQ(rt->items_completed(), spec.items) << "run " << run;
    }
  }
}

#if GTEST_HAS_DEATH_TEST
// Threadsafe style: the child re-runs this test alone, so the threads it starts are its own.
class SpscRoleDeath : public ::testing::Test {
 protected:
  void SetUp() override { ::testing::FLAGS_gtest_death_test_style = "threadsafe"; }
};

// The test thread takes a role with `act`; a second thread doing the same must die with `message`.
template <typename Make, typename Act>
void expect_second_thread_dies(Make make, Act act, const char* message) {
  EXPECT_DEATH(
      {
        auto queue = make();
        act(*queue);
        on_another_thread([&] { act(*queue); });
      },
      message);
}

template <typename Queue, typename... Args>
auto maker(Args... args) {
  return [=] { return std::make_unique<Queue>(args...); };
}

TEST_F(SpscRoleDeath, SecondProducerThreadAborts) {
  const auto push = [](auto& q) { (void)q.try_push(1); };
  expect_second_thread_dies(maker<BatchQueue<int>>(8), push,
                            "BatchQueue: a second thread acted as its producer");
  expect_second_thread_dies(maker<LamportQueue<int>>(8), push,
                            "LamportQueue: a second thread acted as its producer");
  expect_second_thread_dies(maker<FastForwardQueue<int>>(8), push,
                            "FastForwardQueue: a second thread acted as its producer");
  expect_second_thread_dies(
      maker<CachedSpscQueue<int>>(8, 4), [](auto& q) { q.flush(); },
      "CachedSpscQueue: a second thread acted as its producer");
  expect_second_thread_dies(
      maker<telemetry::Ring>(8u, 0u), [](auto& r) { (void)r.push(telemetry::Event{}); },
      "telemetry Ring: a second thread acted as its producer");
}

TEST_F(SpscRoleDeath, SecondConsumerThreadAborts) {
  const auto pop = [](auto& q) {
    int out;
    (void)q.try_pop(out);
  };
  expect_second_thread_dies(maker<BatchQueue<int>>(8), pop,
                            "BatchQueue: a second thread acted as its consumer");
  expect_second_thread_dies(maker<LamportQueue<int>>(8), pop,
                            "LamportQueue: a second thread acted as its consumer");
  expect_second_thread_dies(maker<FastForwardQueue<int>>(8), pop,
                            "FastForwardQueue: a second thread acted as its consumer");
  expect_second_thread_dies(maker<CachedSpscQueue<int>>(8), pop,
                            "CachedSpscQueue: a second thread acted as its consumer");
  expect_second_thread_dies(
      maker<telemetry::Ring>(8u, 0u),
      [](auto& r) {
        telemetry::Event out[1];
        (void)r.pop_into(out, 1);
      },
      "telemetry Ring: a second thread acted as its consumer");
}
#endif

}  // namespace
}  // namespace pipelab::queues
