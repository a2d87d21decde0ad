// The Chase-Lev deque's races, model-checked: the real deque code (sched/chase_lev_deque.hpp) on
// the model checker's atomics (support/model_checker.hpp), in both fence styles (pipelab/sync.hpp:
// the paper's fences, and the seq_cst operations the TSan build uses). Each scenario is a small
// program (tasks pushed first, then the owner's pops and pushes against one or two thieves'
// steals); every interleaving within the preemption bound and every value each load may read is
// run, and after each execution the main thread drains the deque and checks that every task was
// taken exactly once and nothing else was taken. The owner/thief race for the last task is run
// both ways on purpose and counted. A deque with its fences removed must be caught.
// Native build only (the checker's threads are ucontext coroutines).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "pipelab/sched/chase_lev_deque.hpp"
#include "support/fence_styles.hpp"
#include "support/model_checker.hpp"
#include "support/stress.hpp"

namespace pipelab::sched {
namespace {

using sync::FenceStyle;

// One scenario. `owner`: a task number > 0 pushes it, 0 pops. `steals`: steals per thief.
struct Script {
  const char* name;
  std::size_t capacity;
  std::vector<std::uint32_t> before;  // pushed by the main thread before the others start
  std::vector<std::uint32_t> owner;
  std::vector<int> steals;
};

constexpr std::uint32_t kDrained = ~0u;  // "taken by the final drain"

// The scenario as a model program on deque type D.
template <class D>
class DequeRun final : public model::Program {
 public:
  explicit DequeRun(const Script& s) : s_(s), deque_(s.capacity) {
    for (std::uint32_t t : s_.before) push(t);
  }
  int threads() const override { return 1 + int(s_.steals.size()); }
  void run(int thread) override {
    if (thread == 0) {
      // The main thread pushed `before`: from here on this thread is the owner (the hand-over is a
      // thread start, which synchronizes).
      for (std::uint32_t op : s_.owner) {
        if (op > 0) {
          push(op);
        } else {
          took(0, deque_.pop());
        }
      }
    } else {
      for (int k = 0; k < s_.steals[std::size_t(thread - 1)]; ++k) took(thread, deque_.steal());
    }
  }
  void check(model::Report& report) override {
    for (std::uint32_t v; (v = deque_.pop()) != D::kEmpty;) took(kDrained, v);
    std::vector<int> times(kMaxTask + 1, 0);
    for (const auto& [by, task] : taken_) {
      if (task == 0 || task > kMaxTask || !pushed_[task]) {
        report.fail("task " + std::to_string(task) + " was taken but never pushed");
        return;
      }
      ++times[task];
      report.saw("task " + std::to_string(task) + " taken by " +
                 (by == kDrained ? "the drain"
                  : by == 0      ? "the owner"
                                 : "a thief"));
    }
    for (std::uint32_t t = 1; t <= kMaxTask; ++t) {
      if (pushed_[t] && times[t] != 1) {
        report.fail("task " + std::to_string(t) + " was taken " + std::to_string(times[t]) +
                    " times");
      }
    }
  }

 private:
  static constexpr std::uint32_t kMaxTask = 8;
  void push(std::uint32_t t) {
    if (deque_.push(t)) pushed_[t] = true;  // a full deque refuses it: then it must not appear
  }
  void took(std::uint32_t by, std::uint32_t task) {
    if (task != D::kEmpty) taken_.push_back({by, task});
  }

  const Script& s_;
  D deque_;
  bool pushed_[kMaxTask + 1] = {};
  std::vector<std::pair<std::uint32_t, std::uint32_t>> taken_;  // (by, task)
};

// The scenarios, small enough to explore exhaustively within the bound.
const Script kLastTask{"last task: the owner pops it while two thieves steal", 2, {1}, {0}, {1, 1}};
const Script kTwoTasks{
    "two tasks: the owner pops twice, two thieves steal once", 2, {1, 2}, {0, 0}, {1, 1}};
const Script kThiefTwice{
    "two tasks: the owner pops once, one thief steals twice", 2, {1, 2}, {0}, {2}};
const Script kWrapAround{"the owner pushes around a 2-slot ring while a thief steals twice",
                         2,
                         {},
                         {1, 2, 0, 3, 0},
                         {2}};
// Three tasks, pushes and pops against two thieves (a bound lower: it is the largest).
const Script kBusy{"three tasks: the owner pushes and pops against two thieves stealing twice",
                   4,
                   {1},
                   {2, 0, 3, 0},
                   {2, 2}};

int preemption_bound() { return test_stress::long_mode() ? 4 : 3; }

template <class D>
model::Result explore(const Script& s, int bound = preemption_bound()) {
  model::Options o;
  o.preemption_bound = bound;
  o.location_names = {"top", "bottom"};
  for (std::size_t i = 0; i < s.capacity; ++i)
    o.location_names.push_back("slot" + std::to_string(i));
  model::Checker checker(o);
  const model::Result r = checker.explore([&] { return std::make_unique<DequeRun<D>>(s); });
  std::printf("[ model    ] %s: %llu executions (preemption bound %d)%s\n", s.name,
              static_cast<unsigned long long>(r.executions), bound,
              r.exhausted ? "" : " NOT EXHAUSTED");
  for (const auto& [outcome, n] : r.outcomes) {
    std::printf("[ model    ]   %s: %llu\n", outcome.c_str(), static_cast<unsigned long long>(n));
  }
  return r;
}

template <FenceStyle S>
using ModelDeque = BasicChaseLevDeque<model::Sync<S>>;

template <class D>
void expect_correct(const Script& s) {
  const model::Result r = explore<D>(s);
  EXPECT_TRUE(r.failure.empty()) << s.name << ": " << r.failure << "\n" << r.trace;
  EXPECT_TRUE(r.exhausted) << s.name << ": stopped after " << r.executions << " executions";
}

template <class T>
class ChaseLevModel : public ::testing::Test {};
TYPED_TEST_SUITE(ChaseLevModel, test_styles::AllFenceStyles, test_styles::FenceStyleName);

// The race the stress tests could not make happen: both ways, in every style.
TYPED_TEST(ChaseLevModel, LastTaskRaceGoesBothWaysAndTakesItOnce) {
  using D = ModelDeque<TypeParam::kStyle>;
  const model::Result r = explore<D>(kLastTask);
  EXPECT_TRUE(r.failure.empty()) << r.failure << "\n" << r.trace;
  EXPECT_TRUE(r.exhausted);
  EXPECT_GT(r.outcomes.count("task 1 taken by the owner")
                ? r.outcomes.at("task 1 taken by the owner")
                : 0,
            0u)
      << "the owner never won the last task";
  EXPECT_GT(
      r.outcomes.count("task 1 taken by a thief") ? r.outcomes.at("task 1 taken by a thief") : 0,
      0u)
      << "the owner never lost the last task to a thief";
}

TYPED_TEST(ChaseLevModel, TwoTasksTwoThieves) {
  expect_correct<ModelDeque<TypeParam::kStyle>>(kTwoTasks);
}

TYPED_TEST(ChaseLevModel, OneThiefStealsTwice) {
  expect_correct<ModelDeque<TypeParam::kStyle>>(kThiefTwice);
}

TYPED_TEST(ChaseLevModel, OwnerPushesAroundTheRing) {
  expect_correct<ModelDeque<TypeParam::kStyle>>(kWrapAround);
}

// The biggest scenario: at a bound of 2 in npm test, 3 in the long mode.
TYPED_TEST(ChaseLevModel, BusyOwnerAgainstTwoThieves) {
  const model::Result r = explore<ModelDeque<TypeParam::kStyle>>(kBusy, preemption_bound() - 1);
  EXPECT_TRUE(r.failure.empty()) << r.failure << "\n" << r.trace;
  EXPECT_TRUE(r.exhausted);
}

// The checker has teeth: the paper's deque with both fences deleted (relaxed operations, no
// fence: what a TSan build would check if the fences were simply dropped) takes a task twice.
struct FencelessSync : model::Sync<FenceStyle::kStandalone> {
  static void fence() noexcept {}
};

TEST(ChaseLevModelMutant, WithoutFencesATaskIsTakenTwice) {
  using D = BasicChaseLevDeque<FencelessSync>;
  for (const Script* s : {&kTwoTasks, &kThiefTwice}) {
    const model::Result r = explore<D>(*s);
    EXPECT_FALSE(r.failure.empty()) << s->name << ": the fence-free deque passed";
    if (!r.failure.empty()) {
      std::printf("[ model    ] caught as expected: %s\n%s", r.failure.c_str(), r.trace.c_str());
    }
  }
}

// One piece of ordering cut at a time: each fence deleted alone (the paper's style), and each
// operation that stands in for a fence under TSan weakened alone from seq_cst back to its own
// order (the seq_cst style). Every cut must make some scenario take a task twice or lose it.
// Not among them: steal()'s top_ load weakened to acquire. It passes here, and it cannot fail on
// this checker: every write of top_ is a seq_cst CAS, so the acquire load synchronizes with it,
// and the checker puts seq_cst operations in the one order the interleaving gives them, which
// then orders the thief's bottom_ load after the owner's bottom_ store. C++20 is weaker: an
// acquire load that reads a seq_cst write gives only "simply happens before", which does not
// order the seq_cst operations around it (a Power-only outcome; x86 and wasm, where every atomic
// is seq_cst, cannot show it). So the load stays seq_cst, as the paper's fence requires.
enum class Cut {
  kPopFence,         // pop(): the fence between the bottom_ store and the top_ load
  kStealFence,       // steal(): the fence between the top_ load and the bottom_ load
  kPopBottomStore,   // pop(): bottom_.store, seq_cst -> release
  kPopTopLoad,       // pop(): top_.load, seq_cst -> relaxed
  kStealBottomLoad,  // steal(): bottom_.load, seq_cst -> acquire
};

// The model Sync with one cut. The deque tells which site an around() or fence() belongs to only
// through its order and its points, so this keeps per model thread the last point reached:
// pop()'s fence follows kPopBottomStored, steal()'s kStealTopRead, and of steal()'s two acquire
// loads the top_ one comes before kStealTopRead, the bottom_ one after.
constexpr FenceStyle style_for(Cut c) {
  return c == Cut::kPopFence || c == Cut::kStealFence ? FenceStyle::kStandalone
                                                      : FenceStyle::kSeqCstOperations;
}

template <Cut C>
struct CutSync : model::Sync<style_for(C)> {
  using Base = model::Sync<style_for(C)>;

  static void point(ChaseLevPoint p) noexcept { last()[thread()] = p; }
  static void fence() noexcept {
    const ChaseLevPoint at = last()[thread()];
    if (C == Cut::kPopFence && at == ChaseLevPoint::kPopBottomStored) return;
    if (C == Cut::kStealFence && at == ChaseLevPoint::kStealTopRead) return;
    Base::fence();
  }
  static std::memory_order around(std::memory_order native) noexcept {
    if (native == std::memory_order_acquire) {  // steal(): which of its two loads?
      ChaseLevPoint& at = last()[thread()];
      const bool bottom_load = at == ChaseLevPoint::kStealTopRead;
      at = ChaseLevPoint::kStealBeforeCas;  // the next acquire around() is a new steal's top_ load
      if (bottom_load && C == Cut::kStealBottomLoad) return native;
    }
    if (native == std::memory_order_release && C == Cut::kPopBottomStore) return native;
    if (native == std::memory_order_relaxed && C == Cut::kPopTopLoad) return native;
    return Base::around(native);
  }

 private:
  static int thread() noexcept { return model::Checker::current()->thread(); }
  static ChaseLevPoint* last() noexcept {
    static ChaseLevPoint points[8];  // model threads: the main one and up to 7 more
    return points;
  }
};

template <Cut C>
void expect_caught(const char* cut) {
  using D = BasicChaseLevDeque<CutSync<C>>;
  for (const Script* s : {&kLastTask, &kTwoTasks, &kThiefTwice, &kWrapAround}) {
    const model::Result r = explore<D>(*s);
    if (!r.failure.empty()) {
      std::printf("[ model    ] %s caught: %s\n", cut, r.failure.c_str());
      return;
    }
  }
  ADD_FAILURE() << "the deque with " << cut << " passed every scenario";
}

TEST(ChaseLevModelMutant, PopFenceDeletedIsCaught) {
  expect_caught<Cut::kPopFence>("pop's fence deleted");
}
TEST(ChaseLevModelMutant, StealFenceDeletedIsCaught) {
  expect_caught<Cut::kStealFence>("steal's fence deleted");
}
TEST(ChaseLevModelMutant, PopBottomStoreWeakenedIsCaught) {
  expect_caught<Cut::kPopBottomStore>("pop's bottom_ store release, not seq_cst");
}
TEST(ChaseLevModelMutant, PopTopLoadWeakenedIsCaught) {
  expect_caught<Cut::kPopTopLoad>("pop's top_ load relaxed, not seq_cst");
}
TEST(ChaseLevModelMutant, StealBottomLoadWeakenedIsCaught) {
  expect_caught<Cut::kStealBottomLoad>("steal's bottom_ load acquire, not seq_cst");
}

}  // namespace
}  // namespace pipelab::sched
