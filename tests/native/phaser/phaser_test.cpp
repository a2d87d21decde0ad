// Phaser semantics one step at a time (single thread): the modes' signal / wait / next, the bound
// constraint, dynamic registration and the capability rule, drop and end of stream, and the
// accumulators' previous-phase results.
#include "pipelab/phaser/phaser.hpp"

#include <gtest/gtest.h>

#include <string>

#include "pipelab/phaser/accumulator.hpp"

namespace pipelab::phaser {
namespace {

TEST(PhaserModes, LatticeAndCapabilityRule) {
  EXPECT_TRUE(within(Mode::kSig, Mode::kSigWait));
  EXPECT_TRUE(within(Mode::kWait, Mode::kSigWait));
  EXPECT_TRUE(within(Mode::kSig, Mode::kSig));
  EXPECT_FALSE(within(Mode::kWait, Mode::kSig));
  EXPECT_FALSE(within(Mode::kSigWait, Mode::kWait));
  Phaser ph(4, 4);
  Registration& producer = ph.attach(Mode::kSig, Mode::kSigWait, nullptr, 1);
  // A child of the producer may signal, never wait: SIG does not cover WAIT.
  try {
    ph.attach(Mode::kWait, producer.capability, &producer, 2);
    FAIL() << "a WAIT child of a SIG parent must be refused";
  } catch (const CapabilityError& e) {
    EXPECT_EQ(std::string(e.what()),
              "registration WAIT is wider than the parent's capability SIG (a child registers only "
              "with modes its parent has)");
  }
  EXPECT_EQ(ph.registrations(), 1u);  // the refused child never registered
  EXPECT_NO_THROW(ph.attach(Mode::kSig, producer.capability, &producer, 3));
}

TEST(PhaserModes, BadBoundAndCapacityAreNamed) {
  try {
    Phaser ph(0, 2);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "phaser bound 0 is out of range (allowed 1..1048576)");
  }
  Phaser ph(1, 1);
  ph.attach(Mode::kSig, Mode::kSigWait, nullptr, 0);
  EXPECT_THROW(ph.attach(Mode::kWait, Mode::kSigWait, nullptr, 1), std::length_error);
}

TEST(Phaser, SignalCompletesAPhaseForTheWaiter) {
  Phaser ph(8, 2);
  Registration& sig = ph.attach(Mode::kSig, Mode::kSigWait, nullptr, 0);
  Registration& wait = ph.attach(Mode::kWait, Mode::kSigWait, nullptr, 1);
  EXPECT_EQ(ph.try_wait(wait), WaitResult::kPending);
  EXPECT_TRUE(ph.try_signal(sig));
  EXPECT_EQ(ph.try_wait(wait), WaitResult::kReady);
  EXPECT_EQ(ph.try_wait(wait), WaitResult::kPending);
  // Per mode: a WAIT task's signal and a SIG task's wait are no-ops.
  EXPECT_TRUE(ph.try_signal(wait));
  EXPECT_EQ(wait.signalled(), 0u);
  EXPECT_EQ(ph.try_wait(sig), WaitResult::kReady);
  EXPECT_EQ(sig.waited(), 0u);
}

TEST(Phaser, BoundHoldsTheProducerAndEveryInstantKeepsTheConstraint) {
  for (std::uint32_t bound : {1u, 2u, 5u}) {
    Phaser ph(bound, 2);
    Registration& sig = ph.attach(Mode::kSig, Mode::kSigWait, nullptr, 0);
    Registration& wait = ph.attach(Mode::kWait, Mode::kSigWait, nullptr, 1);
    for (std::uint32_t i = 0; i < bound; ++i) EXPECT_TRUE(ph.try_signal(sig));
    EXPECT_FALSE(ph.try_signal(sig)) << "bound " << bound;
    EXPECT_EQ(sig.signalled(), bound);
    // Drive 100 steps, alternating at random-looking points; check the constraint after each.
    std::uint32_t x = 12345;
    for (int step = 0; step < 100; ++step) {
      x = x * 1103515245u + 12345u;
      if ((x >> 16) & 1)
        (void)ph.try_signal(sig);
      else
        (void)ph.try_wait(wait);
      EXPECT_LE(wait.waited(), sig.signalled());
      EXPECT_LE(sig.signalled(), wait.waited() + bound);
    }
  }
}

TEST(Phaser, TwoSignallersBothCompleteEachPhase) {
  Phaser ph(4, 3);
  Registration& a = ph.attach(Mode::kSig, Mode::kSigWait, nullptr, 0);
  Registration& b = ph.attach(Mode::kSig, Mode::kSigWait, nullptr, 1);
  Registration& w = ph.attach(Mode::kWait, Mode::kSigWait, nullptr, 2);
  EXPECT_TRUE(ph.try_signal(a));
  EXPECT_EQ(ph.try_wait(w), WaitResult::kPending);  // b has not signalled phase 0
  EXPECT_TRUE(ph.try_signal(b));
  EXPECT_EQ(ph.try_wait(w), WaitResult::kReady);
}

TEST(Phaser, DropEndsTheStreamAfterItsLastPhaseWithoutStoppingOthers) {
  Phaser ph(4, 3);
  Registration& a = ph.attach(Mode::kSig, Mode::kSigWait, nullptr, 0);
  Registration& b = ph.attach(Mode::kSig, Mode::kSigWait, nullptr, 1);
  Registration& w = ph.attach(Mode::kWait, Mode::kSigWait, nullptr, 2);
  EXPECT_TRUE(ph.try_signal(a));
  EXPECT_TRUE(ph.try_signal(a));
  EXPECT_TRUE(ph.try_signal(b));
  ph.drop(b);  // b leaves after one phase; a goes on
  EXPECT_EQ(ph.try_wait(w), WaitResult::kReady);
  EXPECT_EQ(ph.try_wait(w), WaitResult::kReady);  // phase 1: a alone
  EXPECT_EQ(ph.try_wait(w), WaitResult::kPending);
  ph.drop(a);
  EXPECT_EQ(ph.try_wait(w), WaitResult::kEnded);
}

TEST(Phaser, AChildJoinsThePhaseItsParentIsIn) {
  Phaser ph(8, 3);
  Registration& parent = ph.attach(Mode::kSig, Mode::kSigWait, nullptr, 0);
  Registration& w = ph.attach(Mode::kWait, Mode::kSigWait, nullptr, 1);
  EXPECT_TRUE(ph.try_signal(parent));
  EXPECT_TRUE(ph.try_signal(parent));
  Registration& child = ph.attach(Mode::kSig, parent.capability, &parent, 2);
  EXPECT_EQ(child.signalled(), 2u);
  EXPECT_EQ(child.first_signal, 2u);
  ph.drop(parent);  // hands over: phase 2 now waits for the child alone
  EXPECT_EQ(ph.try_wait(w), WaitResult::kReady);
  EXPECT_EQ(ph.try_wait(w), WaitResult::kReady);
  EXPECT_EQ(ph.try_wait(w), WaitResult::kPending);
  EXPECT_TRUE(ph.try_signal(child));
  EXPECT_EQ(ph.try_wait(w), WaitResult::kReady);
}

TEST(Phaser, NoWaiterYetHoldsTheBoundAndDroppedWaitersReleaseIt) {
  Phaser ph(2, 3);
  Registration& sig = ph.attach(Mode::kSig, Mode::kSigWait, nullptr, 0);
  EXPECT_TRUE(ph.try_signal(sig));
  EXPECT_TRUE(ph.try_signal(sig));
  EXPECT_FALSE(ph.try_signal(sig));  // nobody has read anything yet
  Registration& w = ph.attach(Mode::kWait, Mode::kSigWait, nullptr, 1);
  EXPECT_FALSE(ph.try_signal(sig));
  ph.drop(w);  // the only reader left: nothing to hold the producer for
  for (int i = 0; i < 10; ++i) EXPECT_TRUE(ph.try_signal(sig));
}

TEST(Phaser, SigWaitTasksFormABarrier) {
  Phaser ph(1, 3);
  Registration* r[3];
  for (std::uint32_t i = 0; i < 3; ++i)
    r[i] = &ph.attach(Mode::kSigWait, Mode::kSigWait, nullptr, i);
  // next = signal + wait: nobody passes phase 0 until all three have signalled it.
  EXPECT_TRUE(ph.try_signal(*r[0]));
  EXPECT_EQ(ph.try_wait(*r[0]), WaitResult::kPending);
  EXPECT_FALSE(ph.try_signal(*r[0]));  // bound 1: no running ahead into phase 1
  EXPECT_TRUE(ph.try_signal(*r[1]));
  EXPECT_TRUE(ph.try_signal(*r[2]));
  for (auto* x : r) EXPECT_EQ(ph.try_wait(*x), WaitResult::kReady);
}

TEST(Accumulator, GetReturnsThePreviousPhaseResultPerOperation) {
  struct Case {
    Reduce op;
    Value phase0, phase1;
  };
  // Three SIG_WAIT tasks put 2i + phase and -3i + phase (i = 0, 1, 2) in two phases.
  for (const Case& c :
       {Case{Reduce::kSum, 6, 9}, Case{Reduce::kMin, 0, 1}, Case{Reduce::kMax, 4, 5}}) {
    Phaser ph(1, 3);
    Accumulator acc(ph, c.op);
    Registration* r[3];
    for (std::uint32_t i = 0; i < 3; ++i)
      r[i] = &acc.attach(Mode::kSigWait, Mode::kSigWait, nullptr, i);
    for (Value phase = 0; phase < 2; ++phase) {
      for (std::uint32_t i = 0; i < 3; ++i) {
        acc.put(*r[i], 2 * Value(i) + phase);
        EXPECT_TRUE(ph.try_signal(*r[i]));
      }
      for (std::uint32_t i = 0; i < 3; ++i) {
        EXPECT_EQ(ph.try_wait(*r[i]), WaitResult::kReady);
        EXPECT_EQ(acc.get(*r[i]), phase == 0 ? c.phase0 : c.phase1) << to_string(c.op);
      }
    }
  }
}

TEST(Accumulator, AnyKeepsOneValueAndLookbackReadsEarlierPhases) {
  Phaser ph(2, 2);
  Accumulator acc(ph, Reduce::kAny, 1);
  Registration& p = acc.attach(Mode::kSig, Mode::kSigWait, nullptr, 0);
  Registration& c = acc.attach(Mode::kWait, Mode::kSigWait, nullptr, 1);
  for (Value v : {10, 20, 30}) {
    acc.put(p, v);
    ph.signal(p);
    ASSERT_TRUE(ph.wait(c));
    EXPECT_EQ(acc.get(c), v);
    if (v > 10) {
      EXPECT_EQ(acc.get(c, -1), v - 10);
    }
  }
}

}  // namespace
}  // namespace pipelab::phaser
