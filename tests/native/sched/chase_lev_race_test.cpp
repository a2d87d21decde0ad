// The Chase-Lev deque's owner/thief race for the last task, made to happen on real threads: a
// test Sync pauses a thread at a named point of its operation (ChaseLevPoint) until the test
// lets it go, so each ordering of the race runs on purpose — the owner losing the task to a
// thief, the owner winning the CAS against a thief, a thief seeing the owner's claim — in every
// build (natively in both fence styles, under TSan in the seq_cst style it checks, in wasm).
// Every hand-off between the test and the paused thread is release/acquire, so each outcome is
// guaranteed by the memory model, not by timing.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <thread>

#include "pipelab/sched/chase_lev_deque.hpp"
#include "support/fence_styles.hpp"

namespace pipelab::sched {
namespace {

using sync::FenceStyle;

// One pause point at a time per kind: a thread reaching an armed point waits there, once.
class Gates {
 public:
  static Gates& get() {
    static Gates gates;
    return gates;
  }
  void arm(ChaseLevPoint p) {
    Gate& g = gate(p);
    g.open.store(false, std::memory_order_relaxed);
    g.arrived.store(false, std::memory_order_relaxed);
    g.armed.store(true, std::memory_order_release);
  }
  void wait_arrival(ChaseLevPoint p) {
    while (!gate(p).arrived.load(std::memory_order_acquire)) std::this_thread::yield();
  }
  void open(ChaseLevPoint p) { gate(p).open.store(true, std::memory_order_release); }
  // Called by the deque (through PausingSync) at every point.
  void reached(ChaseLevPoint p) {
    Gate& g = gate(p);
    bool armed = true;
    if (!g.armed.compare_exchange_strong(armed, false, std::memory_order_acq_rel)) return;
    g.arrived.store(true, std::memory_order_release);
    while (!g.open.load(std::memory_order_acquire)) std::this_thread::yield();
  }

 private:
  struct Gate {
    std::atomic<bool> armed{false}, arrived{false}, open{false};
  };
  Gate& gate(ChaseLevPoint p) { return gates_[int(p)]; }
  Gate gates_[4];
};

template <FenceStyle S>
struct PausingSync : sync::StdSync<S> {
  static void point(ChaseLevPoint p) noexcept { Gates::get().reached(p); }
};

template <class T>
class ChaseLevRace : public ::testing::Test {};
TYPED_TEST_SUITE(ChaseLevRace, test_styles::BuildFenceStyles, test_styles::FenceStyleName);

template <class T>
using Deque = BasicChaseLevDeque<PausingSync<T::kStyle>>;

struct Taken {
  std::uint32_t stolen = 0, popped = 0;
};

// A thief stops just before its CAS on top; the owner's pop() runs whole; then the thief goes on.
template <class D>
Taken owner_pops_past_a_paused_thief(D& d) {
  Gates& gates = Gates::get();
  Taken taken;
  gates.arm(ChaseLevPoint::kStealBeforeCas);
  std::thread thief([&] { taken.stolen = d.steal(); });
  gates.wait_arrival(ChaseLevPoint::kStealBeforeCas);
  std::thread owner([&] { taken.popped = d.pop(); });
  owner.join();
  gates.open(ChaseLevPoint::kStealBeforeCas);
  thief.join();
  return taken;
}

// Owner loses: the thief reads top and bottom (one task), the owner lowers bottom, the thief's
// CAS takes the task, and the owner then finds top past its bottom: pop() returns empty and puts
// bottom back, so the deque stays consistent.
TYPED_TEST(ChaseLevRace, ThiefTakesTheLastTaskWhileTheOwnerPops) {
  Deque<TypeParam> d(4);
  Gates& gates = Gates::get();
  ASSERT_TRUE(d.push(7));
  std::uint32_t stolen = 0, popped = 0;
  gates.arm(ChaseLevPoint::kStealBeforeCas);
  std::thread thief([&] { stolen = d.steal(); });
  gates.wait_arrival(ChaseLevPoint::kStealBeforeCas);
  gates.arm(ChaseLevPoint::kPopBottomStored);
  std::thread owner([&] {
    popped = d.pop();
    // The owner carries on with its deque after losing: bottom was restored.
    if (!d.push(8) || d.pop() != 8u) popped = 0;
  });
  gates.wait_arrival(ChaseLevPoint::kPopBottomStored);
  gates.open(ChaseLevPoint::kStealBeforeCas);
  thief.join();
  gates.open(ChaseLevPoint::kPopBottomStored);
  owner.join();
  EXPECT_EQ(stolen, 7u) << "the thief's CAS came first: it takes the task";
  EXPECT_EQ(popped, Deque<TypeParam>::kEmpty) << "the owner lost: its pop() is empty";
  EXPECT_EQ(d.size_approx(), 0);
  EXPECT_EQ(d.steal(), Deque<TypeParam>::kEmpty);
}

// Owner wins: the thief has read the task and stops before its CAS; the owner's pop() races it
// through the same CAS on top and wins; the thief's CAS then fails and it reports empty.
TYPED_TEST(ChaseLevRace, OwnerWinsTheCasAgainstAPausedThief) {
  Deque<TypeParam> d(4);
  ASSERT_TRUE(d.push(7));
  const Taken taken = owner_pops_past_a_paused_thief(d);
  EXPECT_EQ(taken.popped, 7u);
  EXPECT_EQ(taken.stolen, Deque<TypeParam>::kEmpty)
      << "the thief's CAS must fail after the owner's";
  EXPECT_EQ(d.size_approx(), 0);
}

// The owner's claim is seen: bottom is lowered before top is read, so a thief arriving in
// between finds the deque empty and the owner takes the task without a contest.
TYPED_TEST(ChaseLevRace, ThiefSeesTheOwnersClaimOnTheLastTask) {
  Deque<TypeParam> d(4);
  Gates& gates = Gates::get();
  ASSERT_TRUE(d.push(7));
  std::uint32_t stolen = 0, popped = 0;
  gates.arm(ChaseLevPoint::kPopBottomStored);
  std::thread owner([&] { popped = d.pop(); });
  gates.wait_arrival(ChaseLevPoint::kPopBottomStored);
  std::thread thief([&] { stolen = d.steal(); });
  thief.join();
  gates.open(ChaseLevPoint::kPopBottomStored);
  owner.join();
  EXPECT_EQ(stolen, Deque<TypeParam>::kEmpty);
  EXPECT_EQ(popped, 7u);
}

// With two tasks there is no contest: a thief paused before its CAS still takes the oldest one
// (top) while the owner pops the newest (bottom) without touching top.
TYPED_TEST(ChaseLevRace, TwoTasksOwnerAndThiefEachTakeOne) {
  Deque<TypeParam> d(4);
  ASSERT_TRUE(d.push(1));
  ASSERT_TRUE(d.push(2));
  const Taken taken = owner_pops_past_a_paused_thief(d);
  EXPECT_EQ(taken.popped, 2u);
  EXPECT_EQ(taken.stolen, 1u);
  EXPECT_EQ(d.size_approx(), 0);
}

}  // namespace
}  // namespace pipelab::sched
