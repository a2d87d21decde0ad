// A small stateless model checker for lock-free code (CDSChecker / Relacy style; neither is
// packaged for Debian): the REAL structure code, instantiated with model::Sync, runs on model
// threads, and explore() re-runs a small program once per interleaving (up to a preemption bound)
// and per value each load may read under the memory model below; after each execution the
// program's check() decides whether it went right. Fails with the trace of the first bad execution.
//
// Memory model (operational and view-based, after the "promising" semantics without promises;
// it allows fewer behaviours than C++ does, never more, so a failure is a real bug):
//  - every atomic location keeps all values written to it in modification order; a store or RMW
//    goes last;
//  - each thread has a view: per location, the oldest write it may still read. A load may read any
//    write at or after its view (so a relaxed load can read a stale value) and moves its view
//    there;
//  - a release store carries the writer's whole view (a relaxed one only its own position); an
//    acquire load that reads it joins that view into its own (synchronizes-with). An RMW reads the
//    last write and also carries that write's view on (release sequences);
//  - seq_cst, after [atomics.order]: one global view G. A seq_cst fence joins G into the thread's
//    view, and G becomes that view. A seq_cst store or RMW raises G at its own location; a seq_cst
//    load reads at or after G there (so seq_cst operations, fences included, take effect in the
//    one order the interleaving gives them);
//  - a failed compare_exchange_strong is a load (of a value other than the expected one: a strong
//    CAS never fails on it); a successful one is an RMW;
//  - a thread starts with its parent's view, and joining it joins its view into the parent's.
// Scheduling: a switch may happen before each atomic operation. Switching away from a thread that
// could go on is a preemption; each execution has at most `preemption_bound` (CHESS's bound: the
// known concurrency bugs need few). Within the bound the search is exhaustive: depth-first over
// the recorded sequence of choices (which thread runs, which write a load reads), re-executing the
// program from the start for each sequence.
// Threads are ucontext coroutines on the calling OS thread: native builds only (not TSan, not
// wasm).
#pragma once

#include <ucontext.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "pipelab/sync.hpp"

namespace pipelab::model {

using Value = std::uint64_t;
using View = std::vector<std::uint32_t>;  // per location: the index of the oldest readable write

struct Options {
  int preemption_bound = 2;
  std::uint64_t max_executions = 20'000'000;  // a guard: exceeding it fails the exploration
  std::vector<std::string> location_names;    // for traces, in order of creation
};

// What check() reports about one execution: a failure, and named outcomes (counted over all
// executions, so a test can show that a race really went each way).
class Report {
 public:
  void fail(std::string why) {
    if (failure_.empty()) failure_ = std::move(why);
  }
  void saw(const std::string& outcome) { seen_.push_back(outcome); }

 private:
  friend class Checker;
  std::string failure_;
  std::vector<std::string> seen_;
};

struct Result {
  std::uint64_t executions = 0;
  bool exhausted = false;  // every choice sequence within the bound was run
  std::string failure;     // empty: every execution passed its check
  std::string trace;       // the failing execution, one operation per line
  std::map<std::string, std::uint64_t> outcomes;
};

// A program to explore: constructed afresh for every execution (its constructor runs on the main
// model thread and may use model atomics), then run(i) for each model thread i concurrently, then
// check() on the main thread, which sees everything the threads did (they have been joined).
class Program {
 public:
  virtual ~Program() = default;
  virtual int threads() const = 0;
  virtual void run(int thread) = 0;
  virtual void check(Report& report) = 0;
};

class Checker {
 public:
  explicit Checker(Options options) : options_(std::move(options)) {}

  // Explores every execution of the programs `make` returns; stops at the first failure.
  Result explore(const std::function<std::unique_ptr<Program>()>& make) {
    Result result;
    for (;;) {
      Report report;
      execute(make, report, false);
      ++result.executions;
      for (const auto& o : report.seen_) ++result.outcomes[o];
      if (!report.failure_.empty()) {
        result.failure = report.failure_;
        Report again;
        execute(make, again, true);  // the same choices, now with a trace
        result.trace = trace_;
        return result;
      }
      if (!next_path()) {
        result.exhausted = true;
        return result;
      }
      if (result.executions >= options_.max_executions) return result;
    }
  }

  // The model thread running now (0: the main thread), for test Syncs that keep per-thread state.
  int thread() const noexcept { return running_; }

  // The model atomics' operations, for the thread running now.
  std::uint32_t new_location(Value init) {
    locations_.push_back({Write{init, View{}}});
    return std::uint32_t(locations_.size() - 1);
  }
  Value load(std::uint32_t loc, std::memory_order order) {
    schedule();
    const std::uint32_t lo = lowest_readable(loc, order);
    const std::uint32_t last = std::uint32_t(locations_[loc].size() - 1);
    const std::uint32_t at = last - choose(last - lo + 1);  // newest first
    read(loc, at, order);
    log("load", loc, order, locations_[loc][at].value, at);
    return locations_[loc][at].value;
  }
  void store(std::uint32_t loc, Value value, std::memory_order order) {
    schedule();
    write(loc, value, order, nullptr);
    log("store", loc, order, value, std::uint32_t(locations_[loc].size() - 1));
  }
  // Returns the value read; the RMW wrote f(value).
  Value rmw(std::uint32_t loc, const std::function<Value(Value)>& f, std::memory_order order) {
    schedule();
    const Value old = read_last_for_rmw(loc, order);
    const Write& last = locations_[loc].back();
    const View carried = last.view;
    write(loc, f(old), order, &carried);
    log("rmw", loc, order, old, std::uint32_t(locations_[loc].size() - 2));
    return old;
  }
  bool compare_exchange(std::uint32_t loc, Value& expected, Value desired,
                        std::memory_order success, std::memory_order failure) {
    schedule();
    const std::vector<Write>& h = locations_[loc];
    const std::uint32_t last = std::uint32_t(h.size() - 1);
    // Readable writes: the last one (succeeds if it holds `expected`), and any older readable
    // write that does not hold it (a failure reading a stale value).
    std::vector<std::uint32_t> options{last};
    for (std::uint32_t i = lowest_readable(loc, failure); i < last; ++i) {
      if (h[i].value != expected) options.push_back(i);
    }
    const std::uint32_t at = options[choose(std::uint32_t(options.size()))];
    const Value seen = h[at].value;
    if (at == last && seen == expected) {
      read_last_for_rmw(loc, success);
      const View carried = locations_[loc].back().view;
      write(loc, desired, success, &carried);
      log("cas ok", loc, success, seen, at);
      return true;
    }
    read(loc, at, failure);
    log("cas fail", loc, failure, seen, at);
    expected = seen;
    return false;
  }
  void fence(std::memory_order order) {
    if (order != std::memory_order_seq_cst) {
      std::fprintf(stderr, "model checker: only seq_cst fences are modelled\n");
      std::abort();
    }
    schedule();
    View& v = view();
    join(v, sc_);
    sc_ = v;
    log("fence", kNoLocation, order, 0, 0);
  }

  static Checker*& current() {
    static Checker* checker = nullptr;
    return checker;
  }

 private:
  static constexpr std::uint32_t kNoLocation = ~0u;
  static constexpr std::size_t kStackBytes = 256 * 1024;

  struct Write {
    Value value;
    View view;  // what an acquire load of this write learns
  };
  struct Fiber {
    ucontext_t context;
    std::unique_ptr<char[]> stack;
    bool done = false;
  };

  static bool acquires(std::memory_order o) {
    return o == std::memory_order_acquire || o == std::memory_order_acq_rel ||
           o == std::memory_order_seq_cst || o == std::memory_order_consume;
  }
  static bool releases(std::memory_order o) {
    return o == std::memory_order_release || o == std::memory_order_acq_rel ||
           o == std::memory_order_seq_cst;
  }
  static std::uint32_t at(const View& v, std::uint32_t loc) { return loc < v.size() ? v[loc] : 0; }
  static void raise(View& v, std::uint32_t loc, std::uint32_t index) {
    if (v.size() <= loc) v.resize(loc + 1, 0);
    v[loc] = std::max(v[loc], index);
  }
  static void join(View& into, const View& from) {
    if (into.size() < from.size()) into.resize(from.size(), 0);
    for (std::size_t i = 0; i < from.size(); ++i) into[i] = std::max(into[i], from[i]);
  }

  View& view() { return views_[running_]; }

  std::uint32_t lowest_readable(std::uint32_t loc, std::memory_order order) {
    std::uint32_t lo = at(view(), loc);
    if (order == std::memory_order_seq_cst) lo = std::max(lo, at(sc_, loc));
    return lo;
  }
  void read(std::uint32_t loc, std::uint32_t index, std::memory_order order) {
    raise(view(), loc, index);
    if (acquires(order)) join(view(), locations_[loc][index].view);
  }
  Value read_last_for_rmw(std::uint32_t loc, std::memory_order order) {
    const std::uint32_t last = std::uint32_t(locations_[loc].size() - 1);
    read(loc, last, order);
    return locations_[loc][last].value;
  }
  void write(std::uint32_t loc, Value value, std::memory_order order, const View* carried) {
    const std::uint32_t index = std::uint32_t(locations_[loc].size());
    raise(view(), loc, index);
    View released = releases(order) ? view() : View{};
    raise(released, loc, index);
    if (carried) join(released, *carried);
    locations_[loc].push_back(Write{value, std::move(released)});
    if (order == std::memory_order_seq_cst) raise(sc_, loc, index);
  }

  // --- choices and scheduling ---
  std::uint32_t choose(std::uint32_t n) {
    if (n <= 1) return 0;
    if (position_ < path_.size()) {
      const auto [taken, count] = path_[position_++];
      if (count != n) {
        std::fprintf(stderr, "model checker: the program is not deterministic\n");
        std::abort();
      }
      return taken;
    }
    path_.push_back({0, n});
    ++position_;
    return 0;
  }
  bool next_path() {
    while (!path_.empty() && path_.back().first + 1 >= path_.back().second) path_.pop_back();
    if (path_.empty()) return false;
    ++path_.back().first;
    return true;
  }
  // Model threads 1..n, in order, that have not finished: `first` (if any) at the front.
  std::vector<int> runnable(int first) const {
    std::vector<int> r;
    if (first > 0) r.push_back(first);
    for (int t = 1; t < int(fibers_.size()); ++t) {
      if (t != first && !fibers_[t].done) r.push_back(t);
    }
    return r;
  }
  // Before each operation of a model thread: maybe let another thread go first (a preemption).
  void schedule() {
    if (running_ == 0 || preemptions_ >= options_.preemption_bound) return;
    const std::vector<int> r = runnable(running_);
    const int next = r[choose(std::uint32_t(r.size()))];
    if (next == running_) return;
    ++preemptions_;
    if (tracing_) trace_ += "-- preemption " + std::to_string(preemptions_) + "\n";
    next_ = next;
    swapcontext(&fibers_[running_].context, &main_);
  }

  static void fiber_entry() {
    Checker& c = *current();
    const int me = c.running_;
    c.program_->run(me - 1);
    c.fibers_[me].done = true;  // uc_link returns to the scheduler loop
  }

  void execute(const std::function<std::unique_ptr<Program>()>& make, Report& report,
               bool tracing) {
    current() = this;
    tracing_ = tracing;
    trace_.clear();
    position_ = 0;
    preemptions_ = 0;
    locations_.clear();
    sc_.clear();
    running_ = 0;
    views_.assign(1, View{});
    program_ = make();
    const int n = program_->threads();
    fibers_.resize(std::size_t(n) + 1);
    const View parent = views_[0];
    views_.resize(std::size_t(n) + 1, parent);  // each thread starts with its parent's view
    for (int t = 1; t <= n; ++t) {
      Fiber& f = fibers_[t];
      f.done = false;
      if (!f.stack) f.stack.reset(new char[kStackBytes]);
      getcontext(&f.context);
      f.context.uc_stack.ss_sp = f.stack.get();
      f.context.uc_stack.ss_size = kStackBytes;
      f.context.uc_link = &main_;
      makecontext(&f.context, &Checker::fiber_entry, 0);
    }
    // The first thread to run is a free choice; so is the next one whenever a thread finishes.
    std::vector<int> r = runnable(0);
    next_ = r.empty() ? 0 : r[choose(std::uint32_t(r.size()))];
    while (next_ != 0) {
      running_ = next_;
      if (tracing_) trace_ += "-- T" + std::to_string(running_) + " runs\n";
      swapcontext(&main_, &fibers_[running_].context);
      if (fibers_[running_].done) {
        r = runnable(0);
        next_ = r.empty() ? 0 : r[choose(std::uint32_t(r.size()))];
      }
    }
    running_ = 0;
    for (int t = 1; t <= n; ++t) join(views_[0], views_[t]);
    if (tracing_) trace_ += "-- joined; the main thread checks\n";
    program_->check(report);
    program_.reset();
  }

  void log(const char* what, std::uint32_t loc, std::memory_order order, Value value,
           std::uint32_t index) {
    if (!tracing_) return;
    static const char* const kOrders[] = {"relaxed", "consume", "acquire",
                                          "release", "acq_rel", "seq_cst"};
    std::string line = "T" + std::to_string(running_) + " " + what;
    if (loc != kNoLocation) {
      line += " " + (loc < options_.location_names.size() ? options_.location_names[loc]
                                                          : "loc" + std::to_string(loc));
      line += " = " + std::to_string(std::int64_t(value)) + " (write #" + std::to_string(index) +
              " of " + std::to_string(locations_[loc].size()) + ")";
    }
    line += std::string(" ") + kOrders[int(order)] + "\n";
    trace_ += line;
  }

  Options options_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> path_;  // (taken, count) per choice
  std::size_t position_ = 0;
  int preemptions_ = 0;
  std::vector<std::vector<Write>> locations_;
  View sc_;                  // the global seq_cst view G
  std::vector<View> views_;  // per thread; 0 is the main thread
  std::vector<Fiber> fibers_;
  ucontext_t main_{};
  int running_ = 0;
  int next_ = 0;
  std::unique_ptr<Program> program_;
  bool tracing_ = false;
  std::string trace_;
};

// std::atomic's interface (the part lock-free structures use) for integral T, on the checker.
template <class T>
class Atomic {
  static_assert(std::is_integral_v<T> && sizeof(T) <= sizeof(Value));

 public:
  Atomic() noexcept : Atomic(T{}) {}
  Atomic(T init) noexcept
      : loc_(checker().new_location(Value(init))) {}  // NOLINT: like std::atomic
  Atomic(const Atomic&) = delete;
  Atomic& operator=(const Atomic&) = delete;

  T load(std::memory_order o = std::memory_order_seq_cst) const noexcept {
    return T(checker().load(loc_, o));
  }
  void store(T v, std::memory_order o = std::memory_order_seq_cst) noexcept {
    checker().store(loc_, Value(v), o);
  }
  T exchange(T v, std::memory_order o = std::memory_order_seq_cst) noexcept {
    return T(checker().rmw(
        loc_, [v](Value) { return Value(v); }, o));
  }
  T fetch_add(T d, std::memory_order o = std::memory_order_seq_cst) noexcept {
    return T(checker().rmw(
        loc_, [d](Value x) { return Value(T(x) + d); }, o));
  }
  T fetch_sub(T d, std::memory_order o = std::memory_order_seq_cst) noexcept {
    return T(checker().rmw(
        loc_, [d](Value x) { return Value(T(x) - d); }, o));
  }
  bool compare_exchange_strong(T& expected, T desired, std::memory_order success,
                               std::memory_order failure) noexcept {
    Value e = Value(expected);
    const bool ok = checker().compare_exchange(loc_, e, Value(desired), success, failure);
    expected = T(e);
    return ok;
  }

 private:
  static Checker& checker() noexcept { return *Checker::current(); }
  std::uint32_t loc_;
};

// The Sync policy (pipelab/sync.hpp) that puts a structure on the checker, in fence style S.
template <sync::FenceStyle S>
struct Sync {
  template <class T>
  using Atomic = model::Atomic<T>;
  static constexpr sync::FenceStyle kFenceStyle = S;
  static constexpr std::memory_order around(std::memory_order native) noexcept {
    return sync::around_fence(S, native);
  }
  static void fence() noexcept {
    if constexpr (S == sync::FenceStyle::kStandalone) {
      Checker::current()->fence(std::memory_order_seq_cst);
    }
  }
  template <class Point>
  static void point(Point) noexcept {}
};

}  // namespace pipelab::model
