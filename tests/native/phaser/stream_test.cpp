// Streams: elements in order through batched and non-batched phases, get(offset) across a batch
// edge, the bound in phases (a full batch that cannot be published blocks the writer), end of
// stream after a partial flush, several signallers combined per element, and a two-thread gold
// transfer (every element once, in order) whose every operation saw 0 <= occupancy <= bound.
#include "pipelab/phaser/stream.hpp"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "support/thread_sanitizer.hpp"

namespace pipelab::phaser {
namespace {

struct Pair {
  Stream s;
  StreamWriter w;
  StreamReader r;
  Pair(std::uint32_t bound, std::uint32_t batch, std::uint32_t lookback = 0)
      : s(0, bound, batch, Reduce::kAny, lookback, 2),
        w(s, s.attach(Mode::kSig, Mode::kSigWait, nullptr, 0)),
        r(s, s.attach(Mode::kWait, Mode::kSigWait, nullptr, 1)) {}
};

TEST(Stream, BatchedPhasesCarryBatchElementsAndAPartialFlushEndsIt) {
  Pair p(4, 3);
  for (Value v = 0; v < 7; ++v) ASSERT_EQ(p.w.try_put(v), PutResult::kDone);
  EXPECT_EQ(p.w.phases(), 2u);  // two full batches published, one element pending
  EXPECT_TRUE(p.w.has_pending());
  Value v = -1;
  for (Value want = 0; want < 6; ++want) {
    ASSERT_EQ(p.r.try_next(v), WaitResult::kReady);
    EXPECT_EQ(v, want);
  }
  EXPECT_EQ(p.r.try_next(v), WaitResult::kPending);  // the 7th is not published yet
  ASSERT_TRUE(p.w.try_publish());
  p.w.drop();
  ASSERT_EQ(p.r.try_next(v), WaitResult::kReady);
  EXPECT_EQ(v, 6);
  EXPECT_EQ(p.r.try_next(v), WaitResult::kEnded);
  EXPECT_EQ(p.r.consumed(), 7u);
}

TEST(Stream, GetLooksBackAcrossTheBatchEdge) {
  for (std::uint32_t batch : {1u, 2u, 5u}) {
    Pair p(64, batch, 1);
    for (Value x = 1; x <= 20; ++x) ASSERT_EQ(p.w.try_put(x * 10), PutResult::kDone);
    ASSERT_TRUE(p.w.try_publish());
    p.w.drop();
    Value v = 0;
    for (Value x = 1; x <= 20; ++x) {
      ASSERT_EQ(p.r.try_next(v), WaitResult::kReady) << "batch " << batch;
      EXPECT_EQ(p.r.get(0), x * 10);
      if (x > 1) {
        EXPECT_EQ(p.r.get(-1), (x - 1) * 10) << "batch " << batch << " x " << x;
      }
    }
    EXPECT_EQ(p.r.try_next(v), WaitResult::kEnded);
  }
}

TEST(Stream, TheBoundCountsPhasesAndAFullBatchWaitsForIt) {
  Pair p(2, 4);
  for (Value v = 0; v < 8; ++v) ASSERT_EQ(p.w.try_put(v), PutResult::kDone);  // two batches
  for (Value v = 8; v < 11; ++v) ASSERT_EQ(p.w.try_put(v), PutResult::kDone);
  EXPECT_EQ(p.w.try_put(11), PutResult::kBlocked);  // the third batch is full: bound 2 refuses it
  EXPECT_FALSE(p.w.try_publish());
  Value v;
  ASSERT_EQ(p.r.try_next(v), WaitResult::kReady);  // the reader takes phase 0
  EXPECT_TRUE(p.w.try_publish());
  EXPECT_EQ(p.w.last_occupancy(), 2u);
}

TEST(Stream, SeveralSignallersAreCombinedElementByElement) {
  Stream s(0, 4, 2, Reduce::kSum, 0, 4);
  StreamWriter a(s, s.attach(Mode::kSig, Mode::kSigWait, nullptr, 0));
  StreamWriter b(s, s.attach(Mode::kSig, Mode::kSigWait, nullptr, 1));
  StreamWriter c(s, s.attach(Mode::kSig, Mode::kSigWait, nullptr, 2));
  StreamReader r(s, s.attach(Mode::kWait, Mode::kSigWait, nullptr, 3));
  for (Value x = 1; x <= 5; ++x) {
    ASSERT_EQ(a.try_put(x), PutResult::kDone);
    ASSERT_EQ(b.try_put(2 * x), PutResult::kDone);
    ASSERT_EQ(c.try_put(3 * x), PutResult::kDone);
  }
  for (StreamWriter* w : {&a, &b, &c}) {
    ASSERT_TRUE(w->try_publish());
    w->drop();
  }
  Value v;
  for (Value x = 1; x <= 5; ++x) {
    ASSERT_EQ(r.try_next(v), WaitResult::kReady);
    EXPECT_EQ(v, 6 * x);
  }
  EXPECT_EQ(r.try_next(v), WaitResult::kEnded);
}

TEST(Stream, BadBatchIsNamed) {
  try {
    Stream s(0, 1, 0, Reduce::kAny, 0, 1);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "stream batch 0 is out of range (allowed 1..65536)");
  }
}

// Two threads, blocking on spin: every element exactly once and in order, and every publish and
// wait observed an occupancy within [0, bound].
TEST(StreamThreads, GoldTransferKeepsOrderAndTheBound) {
  // Smaller in wasm, where a spinning thread's yield may hand a loaded core to anyone.
#if defined(__EMSCRIPTEN__)
  constexpr std::uint64_t kItems = 20'000;
#else
  constexpr std::uint64_t kItems = test_build::kUnderTsan ? 20'000 : 400'000;
#endif
  for (std::uint32_t batch : {1u, 64u}) {
    const std::uint32_t bound = 4;
    Pair p(bound, batch);
    std::uint64_t worst_w = 0, worst_r = 0;
    std::thread producer([&] {
      for (std::uint64_t i = 0; i < kItems; ++i) {
        if (p.w.try_put(Value(i)) == PutResult::kBlocked) {
          while (!p.w.try_publish()) std::this_thread::yield();
        }
        if (p.w.published() && p.w.last_occupancy() > worst_w) worst_w = p.w.last_occupancy();
      }
      while (!p.w.try_publish()) std::this_thread::yield();
      p.w.drop();
    });
    std::uint64_t next = 0;
    bool in_order = true;
    Value v;
    for (;;) {
      const WaitResult w = p.r.try_next(v);
      if (w == WaitResult::kEnded) break;
      if (w == WaitResult::kPending) {
        std::this_thread::yield();
        continue;
      }
      in_order = in_order && v == Value(next);
      ++next;
      worst_r = std::max(worst_r, p.r.last_occupancy());
    }
    producer.join();
    EXPECT_TRUE(in_order) << "batch " << batch;
    EXPECT_EQ(next, kItems);
    EXPECT_LE(worst_w, bound);
    EXPECT_LE(worst_r, bound);
  }
}

}  // namespace
}  // namespace pipelab::phaser
