// The task scheduler: hundreds of tasks in a chain of streams run on two threads and deliver every
// element once and in order (a blocked task gives its thread to another); a cycle without a token
// is reported as stalled (no task ready or running, some not done) instead of hanging; cycle
// detection marks exactly the streams on cycles, as tasks register, against a brute-force answer.
#include "pipelab/phaser/scheduler.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "pipelab/phaser/cycle_detection.hpp"
#include "pipelab/phaser/stream.hpp"
#include "support/thread_sanitizer.hpp"

namespace pipelab::phaser {
namespace {

// Source (no input), forwarder, or sink (no output): one element per step, blocking through the
// scheduler as the runtime's tasks do.
class ChainTask final : public Task {
 public:
  ChainTask(std::uint32_t id, Scheduler& s, StreamReader* in, StreamWriter* out, std::uint64_t n)
      : Task(id), sched_(s), in_(in), out_(out), n_(n) {}

  Step run(std::uint32_t) override {
    quantum_.start();
    for (;;) {
      if (!holding_) {
        if (!in_) {
          if (made_ == n_) return finish();
          value_ = Value(made_++);
        } else {
          const WaitResult w = in_->try_next(value_);
          if (w == WaitResult::kEnded) return finish();
          if (w == WaitResult::kPending) {
            if (sched_.block_on(*this, in_->stream().phaser(), [&] { return in_->ready(); }))
              continue;
            return Step::kBlocked;
          }
        }
        holding_ = true;
      }
      if (out_) {
        if (!put()) return Step::kBlocked;
      } else {
        seen.push_back(value_);
      }
      holding_ = false;
      if (quantum_.spent(sched_, false)) return Step::kYield;
    }
  }
  std::string waiting_for() const override { return "input"; }
  std::vector<Value> seen;

 private:
  bool put() {
    if (!publish_pending_) {
      publish_pending_ = out_->try_put(value_) == PutResult::kBlocked;
    }
    while (publish_pending_) {
      if (out_->try_publish()) {
        publish_pending_ = false;
        break;
      }
      Phaser& ph = out_->stream().phaser();
      if (!sched_.block_on(*this, ph, [&] { return ph.can_signal_now(out_->registration()); }))
        return false;
    }
    return true;
  }
  Step finish() {
    if (out_) {
      if (!out_->try_publish()) {
        Phaser& ph = out_->stream().phaser();
        if (!sched_.block_on(*this, ph, [&] { return ph.can_signal_now(out_->registration()); }))
          return Step::kBlocked;
        return Step::kYield;
      }
      out_->drop();
    }
    if (in_) in_->drop();
    return Step::kDone;
  }

  Scheduler& sched_;
  StreamReader* in_;
  StreamWriter* out_;
  std::uint64_t n_, made_ = 0;
  Value value_ = 0;
  bool holding_ = false, publish_pending_ = false;
  Quantum quantum_;
};

// Runs the scheduler on `threads` threads until every task is done or it stalls (or 60 s pass).
bool drive(Scheduler& s, int threads) {
  std::atomic<bool> stop{false};
  std::vector<std::thread> pool;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (int w = 0; w < threads; ++w) {
    pool.emplace_back([&, w] {
      while (!stop.load() && !s.all_done() && !s.stalled()) {
        if (!s.run_one(std::uint32_t(w))) std::this_thread::yield();
        if (std::chrono::steady_clock::now() > deadline) stop = true;
      }
    });
  }
  for (auto& t : pool) t.join();
  return !stop.load();
}

struct Chain {
  std::vector<std::unique_ptr<Stream>> streams;
  std::vector<std::unique_ptr<StreamWriter>> writers;
  std::vector<std::unique_ptr<StreamReader>> readers;
  std::vector<std::unique_ptr<ChainTask>> tasks;
};

TEST(Scheduler, HundredsOfTasksOnTwoThreadsDeliverEveryElementInOrder) {
  const std::uint32_t kTasks = test_build::kUnderTsan ? 60 : 300;
  const std::uint64_t kItems = test_build::kUnderTsan ? 300 : 3000;
  for (std::uint32_t batch : {1u, 16u}) {
    Scheduler s(kTasks);
    Chain c;
    for (std::uint32_t i = 0; i + 1 < kTasks; ++i) {
      c.streams.push_back(std::make_unique<Stream>(i, 2, batch, Reduce::kAny, 0, 2));
      Stream& st = *c.streams.back();
      c.writers.push_back(
          std::make_unique<StreamWriter>(st, st.attach(Mode::kSig, Mode::kSigWait, nullptr, i)));
      c.readers.push_back(std::make_unique<StreamReader>(
          st, st.attach(Mode::kWait, Mode::kSigWait, nullptr, i + 1)));
    }
    for (std::uint32_t i = 0; i < kTasks; ++i) {
      StreamReader* in = i > 0 ? c.readers[i - 1].get() : nullptr;
      StreamWriter* out = i + 1 < kTasks ? c.writers[i].get() : nullptr;
      c.tasks.push_back(std::make_unique<ChainTask>(i, s, in, out, kItems));
    }
    for (auto& t : c.tasks) s.spawn(*t);
    ASSERT_TRUE(drive(s, 2)) << "timed out";
    EXPECT_FALSE(s.stalled());
    const auto& seen = c.tasks.back()->seen;
    ASSERT_EQ(seen.size(), kItems) << "batch " << batch;
    for (std::uint64_t i = 0; i < kItems; ++i) ASSERT_EQ(seen[i], Value(i));
  }
}

TEST(Scheduler, ACycleWithoutATokenIsReportedAsStalled) {
  Scheduler s(2);
  Stream x(0, 2, 1, Reduce::kAny, 0, 2), y(1, 2, 1, Reduce::kAny, 0, 2);
  StreamReader a_in(x, x.attach(Mode::kWait, Mode::kSigWait, nullptr, 0));
  StreamWriter a_out(y, y.attach(Mode::kSig, Mode::kSigWait, nullptr, 0));
  StreamReader b_in(y, y.attach(Mode::kWait, Mode::kSigWait, nullptr, 1));
  StreamWriter b_out(x, x.attach(Mode::kSig, Mode::kSigWait, nullptr, 1));
  ChainTask a(0, s, &a_in, &a_out, 0), b(1, s, &b_in, &b_out, 0);
  s.spawn(a);
  s.spawn(b);
  EXPECT_FALSE(s.stalled());
  ASSERT_TRUE(drive(s, 2));
  EXPECT_TRUE(s.stalled());
  EXPECT_EQ(s.live(), 2u);
  EXPECT_EQ(a.state(), TaskState::kBlocked);
  EXPECT_EQ(b.state(), TaskState::kBlocked);
}

// Brute force: u is on a cycle iff it reaches itself through one or more edges.
std::vector<bool> on_cycle(std::uint32_t n, const std::vector<std::pair<int, int>>& edges) {
  std::vector<std::vector<bool>> reach(n, std::vector<bool>(n, false));
  for (auto [u, v] : edges) reach[u][v] = true;
  for (std::uint32_t k = 0; k < n; ++k)
    for (std::uint32_t i = 0; i < n; ++i)
      for (std::uint32_t j = 0; j < n; ++j)
        if (reach[i][k] && reach[k][j]) reach[i][j] = true;
  std::vector<bool> out(n);
  for (std::uint32_t i = 0; i < n; ++i) out[i] = reach[i][i];
  return out;
}

TEST(CycleDetection, MarksExactlyTheStreamsOnCyclesAsTasksRegister) {
  // The thread ring: task i waits on stream i and signals i+1; the last one closes the ring.
  CycleDetector ring;
  for (std::uint32_t i = 0; i + 1 < 8; ++i) EXPECT_TRUE(ring.add_task({i}, {i + 1}).empty());
  EXPECT_EQ(ring.add_task({7}, {0}).size(), 8u);
  // A barrier (SIG_WAIT on one phaser) is a cycle of one.
  CycleDetector barrier;
  EXPECT_EQ(barrier.add_task({3}, {3}), std::vector<std::uint32_t>{3});

  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const std::uint32_t n = 2 + rng() % 9;
    CycleDetector d;
    std::vector<std::pair<int, int>> edges;
    for (int t = 0; t < 12; ++t) {
      std::vector<std::uint32_t> waits{std::uint32_t(rng() % n)}, sigs{std::uint32_t(rng() % n)};
      if (rng() % 3 == 0) sigs.push_back(std::uint32_t(rng() % n));
      d.add_task(waits, sigs);
      for (auto u : waits)
        for (auto v : sigs) edges.emplace_back(int(u), int(v));
      const std::vector<bool> want = on_cycle(n, edges);
      for (std::uint32_t x = 0; x < n; ++x) ASSERT_EQ(d.cyclic(x), want[x]) << "trial " << trial;
    }
  }
}

}  // namespace
}  // namespace pipelab::phaser
