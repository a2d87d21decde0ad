// QueueRace: one run of the lesson's queue race on real threads — a chain of `stages` threads
// linked by stages-1 queues of one kind, moving 8-byte items for a fixed time (seed 001 §IV-A's
// micro-benchmark, as bench/queues measures it, but started and cancelled from the page).
//
// Thread roles: one controller thread (the engine worker in the browser, the test natively) calls
//   start / request_cancel / alive / join / result; start() creates the stage threads and returns
//   at once (in the browser the engine worker must get back to its event loop before extra pthread
//   Workers can boot), the controller polls alive() and joins once it is 0. Stage 0 makes items
//   0, 1, 2, ... until durationMs has passed on its clock, then flushes; every other stage pops,
//   works, pushes; the last stage counts. A middle or last stage knows the stream ended when it
//   has passed on as many items as stage 0 made (`made_`, published after stage 0's last push).
// Measuring: the last stage times the stream on its own clock only (in a browser each Worker's
//   clock is synchronised to the engine worker's to ~0.1 ms, too coarse for a cross-thread
//   difference): items per second between the first item it sees after a warm-up (a fifth of the
//   run: thread start, wasm tier-up) and the last. With offeredPerS > 0 (2 stages), stage 0 paces
//   a finite stream and stamps each item's push time on its clock; the last stage's pop time minus
//   the stamp, minus the offset between the two clocks (estimated first by a ping-pong between
//   the two threads, NTP-style: the round with the shortest round trip), is the time the item
//   waited before the consumer saw it. The stream ends on a partial semi-buffer for batching
//   queues, so flush() has something to publish: its items and the last one's wait are reported.
// Cancel: every wait loop re-checks cancel_ (relaxed load of a line nobody writes while the run
//   goes), so all threads exit within one wait step (at most ~0.1 ms of sleep) of request_cancel().
// Waiting: ParkWait, spinning ~1M attempts before it parks when every thread has a core, 64 when
//   the chain has more threads than cores (the thread we wait for needs our core), as the bench.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "pipelab/queues/batch_queue.hpp"
#include "pipelab/queues/batch_queue_unpadded.hpp"
#include "pipelab/queues/cached_spsc_queue.hpp"
#include "pipelab/queues/fastforward_queue.hpp"
#include "pipelab/queues/flush.hpp"
#include "pipelab/queues/lamport_queue.hpp"
#include "pipelab/queues/lamport_queue_unpadded.hpp"
#include "pipelab/queues/mutex_queue.hpp"
#include "pipelab/queues/vyukov_mpmc_queue.hpp"
#include "pipelab/queues/wait_policy.hpp"
#include "pipelab/race/race_config.hpp"
#include "pipelab/workload/busy_work.hpp"
#include "pipelab/workload/l1_matrix.hpp"

namespace pipelab::race {

struct RaceResult {
  RaceConfig config;
  bool cancelled = false;
  std::uint64_t made = 0;          // items stage 0 made (all of them reached the last stage)
  std::uint64_t received = 0;      // items the last stage received
  std::uint64_t out_of_order = 0;  // items that did not arrive as the next expected one
  std::uint64_t timed_items = 0;   // items in the timed window
  double timed_us = 0;             // the window, on the last stage's clock
  // The latency probe (offeredPerS > 0); waits in ns, negative values (clock error) clamped to 0.
  std::uint64_t latency_samples = 0;
  double latency_mean_ns = 0;
  double latency_median_ns = 0;
  double latency_p99_ns = 0;
  std::uint64_t tail_items = 0;    // items of the partial semi-buffer the final flush published
  double tail_latency_ns = 0;      // the last item's wait
  double clock_offset_ns = 0;      // consumer clock minus producer clock, as estimated
  double clock_round_trip_ns = 0;  // the shortest round trip of the estimate

  double items_per_s() const noexcept { return timed_us > 0 ? timed_items / timed_us * 1e6 : 0; }
};

class QueueRace {
 public:
  // The latency probe's stream length cap (its stamps are kept one per item).
  static constexpr std::uint64_t kMaxLatencyItems = std::uint64_t{1} << 18;

  QueueRace() = default;
  QueueRace(const QueueRace&) = delete;
  QueueRace& operator=(const QueueRace&) = delete;
  ~QueueRace() {
    request_cancel();
    join();
  }

  // Starts the run's threads and returns at once. Throws std::logic_error if a run is active.
  void start(const RaceConfig& config) {
    if (!threads_.empty()) throw std::logic_error("queue race: a run is active; cancel it first");
    // The work variant's busy loop calibrates on first use (~30 ms): here, not in a timed run.
    if (config.variant == RaceVariant::kWork) workload::BusyWork::global();
    chain_ = make_chain(config);
    alive_.store(config.stages, std::memory_order_release);
    for (std::uint32_t s = 0; s < config.stages; ++s) {
      threads_.emplace_back([this, s] {
        chain_->stage(s);
        alive_.fetch_sub(1, std::memory_order_acq_rel);
      });
    }
  }

  void request_cancel() noexcept {
    if (chain_) chain_->cancel.store(true, std::memory_order_relaxed);
  }

  // Threads of the run that have not exited yet (polled by a controller that must not block).
  unsigned alive() const noexcept { return alive_.load(std::memory_order_acquire); }

  // Joins the run's threads (blocks; call once alive() is 0 where blocking is not allowed).
  void join() {
    for (auto& t : threads_) t.join();
    threads_.clear();
  }

  // The finished run's numbers (after join()).
  RaceResult result() const {
    if (!chain_) throw std::logic_error("queue race: no run yet");
    if (!threads_.empty()) throw std::logic_error("queue race: the run has not been joined");
    return chain_->result();
  }

  // Runs one config to the end on the calling thread's behalf (native tests and tools).
  static RaceResult run(const RaceConfig& config) {
    QueueRace race;
    race.start(config);
    race.join();
    return race.result();
  }

 private:
  // What every chain shares, whatever its queue type.
  struct ChainBase {
    explicit ChainBase(const RaceConfig& c) : config(c) {}
    virtual ~ChainBase() = default;
    virtual void stage(std::uint32_t s) = 0;
    RaceResult result() const;

    const RaceConfig config;
    std::atomic<bool> cancel{false};
    std::atomic<std::uint32_t> ready{0};
    alignas(kPrefetchPairBytes) std::atomic<std::uint64_t> made{~std::uint64_t{0}};
    // The latency probe: push stamps (stage 0 writes slot i before pushing item i; the queue's
    // release/acquire hands it to the consumer) and the consumer's raw differences.
    std::vector<std::int64_t> push_ns;
    std::vector<std::int64_t> raw_wait_ns;
    std::atomic<std::uint64_t> ping{0}, pong{0};
    std::atomic<std::int64_t> pong_ns{0};
    double clock_offset_ns = 0, clock_round_trip_ns = 0;  // written by stage 0 before pushing
    // Written by the last stage, read after join.
    std::uint64_t received = 0, out_of_order = 0, timed_items = 0, sink = 0;
    double timed_us = 0;
    std::uint64_t latency_items = 0;  // the probe's stream length (0: timed run)
    std::uint64_t tail_items = 0;
  };

  template <typename Queue>
  struct Chain;

  static std::unique_ptr<ChainBase> make_chain(const RaceConfig& c);

  std::unique_ptr<ChainBase> chain_;
  std::vector<std::thread> threads_;
  std::atomic<unsigned> alive_{0};
};

namespace race_detail {

inline std::int64_t now_ns() noexcept {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The work between two items at one stage.
class StageWork {
 public:
  StageWork(const RaceConfig& c)
      : variant_(c.variant),
        matrix_(c.variant == RaceVariant::kMatrix ? c.matrix_size
                                                  : workload::L1MatrixWork::kMinSize),
        iterations_(c.variant == RaceVariant::kWork
                        ? workload::BusyWork::global().iterations_for_us(c.work_us / c.stages)
                        : 0) {}
  std::uint64_t operator()(std::uint64_t item) noexcept {
    if (variant_ == RaceVariant::kMatrix) return matrix_.run(item);
    if (variant_ == RaceVariant::kWork)
      return workload::BusyWork::run_iterations(iterations_, item);
    return item;
  }

 private:
  RaceVariant variant_;
  workload::L1MatrixWork matrix_;
  std::uint64_t iterations_;
};

}  // namespace race_detail

template <typename Queue>
struct QueueRace::Chain final : ChainBase {
  Chain(const RaceConfig& c, std::function<std::unique_ptr<Queue>()> make_queue) : ChainBase(c) {
    for (std::uint32_t i = 0; i + 1 < c.stages; ++i) links.push_back(make_queue());
    oversubscribed = c.stages > std::max(1u, std::thread::hardware_concurrency());
    if (c.offered_per_s > 0) {
      std::uint64_t n = std::max<std::uint64_t>(
          1, std::min<std::uint64_t>(kMaxLatencyItems - c.semi_items,
                                     std::uint64_t(c.offered_per_s * c.duration_ms / 1e3)));
      if (batches(c.queue)) {
        // End on a partial semi-buffer (just over half of one): the final flush publishes it.
        n = n / c.semi_items * c.semi_items + c.semi_items / 2 + 1;
        tail_items = c.semi_items / 2 + 1;
      }
      latency_items = n;
      push_ns.assign(n, 0);
      raw_wait_ns.assign(n, 0);
    }
  }

  bool cancelled() const noexcept { return cancel.load(std::memory_order_relaxed); }

  queues::ParkWait new_wait() const noexcept {
    return queues::ParkWait(oversubscribed ? 64u : 1u << 20);
  }

  // Waits for every stage thread to exist, so no stage times the others' start-up.
  bool gate() noexcept {
    ready.fetch_add(1, std::memory_order_acq_rel);
    queues::ParkWait wait = new_wait();
    while (ready.load(std::memory_order_acquire) < config.stages) {
      if (cancelled()) return false;
      wait.wait();
    }
    return true;
  }

  bool push(Queue& q, std::uint64_t item, queues::ParkWait& wait) noexcept {
    while (!q.try_push(item)) {
      if (cancelled()) return false;
      wait.wait();
    }
    wait.reset();
    return true;
  }

  void publish_rest(Queue& q, queues::ParkWait& wait) noexcept {
    while (!queues::try_publish_partial(q)) {
      if (cancelled()) return;
      wait.wait();
    }
  }

  void stage(std::uint32_t s) override {
    if (!gate()) return;
    race_detail::StageWork work(config);
    Queue* in = s > 0 ? links[s - 1].get() : nullptr;
    Queue* out = s + 1 < config.stages ? links[s].get() : nullptr;
    queues::ParkWait wait = new_wait();
    if (latency_items > 0) {
      if (in == nullptr) {
        estimate_clock_offset();
      } else {
        answer_clock_pings();
      }
    }
    if (in == nullptr) {
      produce(out, work, wait);
    } else {
      forward(*in, out, work, wait);
    }
  }

  // Stage 0: items 0, 1, 2, ... until the time is up (or the probe's stream is made).
  void produce(Queue* out, race_detail::StageWork& work, queues::ParkWait& wait) noexcept {
    const std::int64_t start = race_detail::now_ns();
    const auto deadline = start + std::int64_t(config.duration_ms * 1e6);
    const double gap_ns = config.offered_per_s > 0 ? 1e9 / config.offered_per_s : 0;
    Meter meter(*this);
    std::uint64_t i = 0;
    for (;; ++i) {
      if (latency_items > 0) {
        if (i == latency_items || cancelled()) break;
        const auto due = start + std::int64_t(double(i) * gap_ns);
        std::int64_t now = race_detail::now_ns();
        while (now < due) now = race_detail::now_ns();
        push_ns[i] = now;
      } else if ((i & 255) == 0 && (cancelled() || race_detail::now_ns() >= deadline)) {
        break;
      }
      const std::uint64_t value = work(i);
      if (out == nullptr) {
        meter.arrive(i, value);
      } else if (!push(*out, i, wait)) {
        break;
      }
    }
    made.store(i, std::memory_order_release);
    if (out != nullptr) publish_rest(*out, wait);
    if (out == nullptr) meter.finish();
  }

  // A later stage: pops until it has passed on every item stage 0 made.
  void forward(Queue& in, Queue* out, race_detail::StageWork& work,
               queues::ParkWait& wait) noexcept {
    Meter meter(*this);
    std::uint64_t passed = 0;
    for (;;) {
      std::uint64_t item;
      if (!in.try_pop(item)) {
        if (passed == made.load(std::memory_order_acquire) || cancelled()) break;
        wait.wait();
        continue;
      }
      wait.reset();
      ++passed;
      const std::uint64_t value = work(item);
      if (out == nullptr) {
        meter.arrive(item, value);
      } else if (!push(*out, item, wait)) {
        break;
      }
    }
    if (out != nullptr) publish_rest(*out, wait);
    if (out == nullptr) meter.finish();
  }

  // Ping-pong rounds of the clock-offset estimate (both sides run exactly this many).
  static constexpr std::uint64_t kClockRounds = 64;

  // Stage 0 side of the clock-offset estimate (the round with the shortest round trip).
  void estimate_clock_offset() noexcept {
    double best_rtt = 1e18;
    for (std::uint64_t k = 1; k <= kClockRounds && !cancelled(); ++k) {
      const std::int64_t t0 = race_detail::now_ns();
      ping.store(k, std::memory_order_release);
      while (pong.load(std::memory_order_acquire) != k) {
        if (cancelled()) return;
        queues::cpu_relax();
      }
      const std::int64_t t2 = race_detail::now_ns();
      const std::int64_t t1 = pong_ns.load(std::memory_order_relaxed);
      if (double(t2 - t0) < best_rtt) {
        best_rtt = double(t2 - t0);
        clock_offset_ns = double(t1) - (double(t0) + double(t2)) / 2;
      }
    }
    clock_round_trip_ns = best_rtt;
  }

  void answer_clock_pings() noexcept {
    for (std::uint64_t k = 1; k <= kClockRounds; ++k) {
      while (ping.load(std::memory_order_acquire) != k) {
        if (cancelled()) return;
        queues::cpu_relax();
      }
      pong_ns.store(race_detail::now_ns(), std::memory_order_relaxed);
      pong.store(k, std::memory_order_release);
    }
  }

  // The last stage's tally: order, the timed window, the probe's waits.
  class Meter {
   public:
    explicit Meter(Chain& chain) : c_(chain) {}
    void arrive(std::uint64_t item, std::uint64_t value) noexcept {
      if (item != c_.received) ++c_.out_of_order;
      c_.sink += value;
      const std::uint64_t n = ++c_.received;
      if (c_.latency_items > 0) {
        const std::int64_t now = race_detail::now_ns();
        if (item < c_.latency_items) c_.raw_wait_ns[item] = now - c_.push_ns[item];
        if (n == 1) window_start(first_ns_ = now, n);
        last_ns_ = now;
        return;
      }
      if (n == 1) {
        first_ns_ = race_detail::now_ns();
        window_start(first_ns_, n);
      } else if (!warm_ && (n & 255) == 0) {
        const std::int64_t now = race_detail::now_ns();
        if (double(now - first_ns_) >= warmup_ns()) {
          warm_ = true;
          window_start(now, n);
        }
      }
    }
    void finish() noexcept {
      if (c_.received == 0) return;
      if (c_.latency_items == 0) last_ns_ = race_detail::now_ns();
      // A thread descheduled past the warm-up and the deadline at once (a loaded machine) leaves
      // a window holding few or no items: time from the first item instead.
      if (2 * (c_.received - from_items_) < c_.received - 1) {
        from_ns_ = first_ns_;
        from_items_ = 1;
      }
      c_.timed_items = c_.received - from_items_;
      c_.timed_us = double(last_ns_ - from_ns_) / 1e3;
    }

   private:
    double warmup_ns() const noexcept { return c_.config.duration_ms * 1e6 / 5; }
    void window_start(std::int64_t now, std::uint64_t n) noexcept {
      from_ns_ = now;
      from_items_ = n;
    }
    Chain& c_;
    bool warm_ = false;
    std::int64_t first_ns_ = 0, from_ns_ = 0, last_ns_ = 0;
    std::uint64_t from_items_ = 0;
  };

  std::vector<std::unique_ptr<Queue>> links;
  bool oversubscribed = false;
};

inline RaceResult QueueRace::ChainBase::result() const {
  RaceResult r;
  r.config = config;
  r.cancelled = cancel.load(std::memory_order_relaxed);
  const std::uint64_t m = made.load(std::memory_order_relaxed);
  r.made = m == ~std::uint64_t{0} ? 0 : m;
  r.received = received;
  r.out_of_order = out_of_order;
  r.timed_items = timed_items;
  r.timed_us = timed_us;
  if (latency_items > 0 && received > 0) {
    std::vector<double> waits;
    waits.reserve(received);
    const std::uint64_t n = std::min<std::uint64_t>(received, latency_items);
    double sum = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
      const double w = std::max(0.0, double(raw_wait_ns[i]) - clock_offset_ns);
      waits.push_back(w);
      sum += w;
    }
    r.latency_samples = n;
    r.latency_mean_ns = sum / double(n);
    r.tail_latency_ns = waits.back();
    std::sort(waits.begin(), waits.end());
    const std::size_t mid = waits.size() / 2;
    r.latency_median_ns = waits.size() % 2 ? waits[mid] : (waits[mid - 1] + waits[mid]) / 2;
    r.latency_p99_ns = waits[(waits.size() * 99 + 99) / 100 - 1];  // nearest rank
    r.tail_items = received == latency_items ? tail_items : 0;
    r.clock_offset_ns = clock_offset_ns;
    r.clock_round_trip_ns = clock_round_trip_ns;
  }
  return r;
}

inline std::unique_ptr<QueueRace::ChainBase> QueueRace::make_chain(const RaceConfig& c) {
  using namespace queues;
  using Item = std::uint64_t;
  const std::size_t semi = c.semi_items;
  auto chain = [&c](auto make) -> std::unique_ptr<ChainBase> {
    using Q = typename decltype(make())::element_type;
    return std::make_unique<Chain<Q>>(c, make);
  };
  auto per_item = [&chain](auto* tag) {
    using Q = std::remove_pointer_t<decltype(tag)>;
    return chain([] { return std::make_unique<Q>(kPerItemCapacity); });
  };
  switch (c.queue) {
    case RaceQueue::kBatch:
      return chain([semi] { return std::make_unique<BatchQueue<Item>>(2 * semi); });
    case RaceQueue::kBatchUnpadded:
      return chain([semi] { return std::make_unique<UnpaddedBatchQueue<Item>>(2 * semi); });
    case RaceQueue::kCachedSpscBatched:
      return chain([semi] { return std::make_unique<CachedSpscQueue<Item>>(2 * semi, semi); });
    case RaceQueue::kLamport:
      return per_item(static_cast<LamportQueue<Item>*>(nullptr));
    case RaceQueue::kLamportUnpadded:
      return per_item(static_cast<UnpaddedLamportQueue<Item>*>(nullptr));
    case RaceQueue::kCachedSpsc:
      return per_item(static_cast<CachedSpscQueue<Item>*>(nullptr));
    case RaceQueue::kFastForward:
      return per_item(static_cast<FastForwardQueue<Item>*>(nullptr));
    case RaceQueue::kVyukovMpmc:
      return per_item(static_cast<VyukovMpmcQueue<Item>*>(nullptr));
    case RaceQueue::kMutex:
      return per_item(static_cast<MutexQueue<Item>*>(nullptr));
  }
  throw std::invalid_argument("queue race: unknown queue kind");
}

}  // namespace pipelab::race
