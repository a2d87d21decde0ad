// Link: the queue between two stage groups of the static runtime, behind one small interface so
// the queue kind can be chosen at run time (a virtual call per item is noise next to a µs-scale
// stage). Wraps the queues of wasm/include/pipelab/queues: 1:1 links use the spec's kind,
// many-to-many links use Vyukov's MPMC unless the kind is "mutex" (contracts/spec.md); an unbounded
// capacity (open model) uses a mutex-guarded std::deque, since every queue in queues/ is bounded.
// Capacity is rounded up to what the queue accepts (BatchQueue: even, Vyukov: a power of two, both
// >= 2); effective_capacity() reports it. Roles: producers call push-side methods, consumers
// pop-side, as the wrapped queue allows. Bookkeeping: pushed_/popped_ count items through
// (relaxed/acq_rel adds); a consumer samples occupancy = pushed - popped right after its pop and
// keeps the maximum (occupancy checks). producers_left_ counts producer threads still running: a
// release decrement after their final flush, read with acquire by consumers deciding the stream has
// ended.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "pipelab/cacheline.hpp"
#include "pipelab/pipeline/item.hpp"
#include "pipelab/pipeline/spec.hpp"
#include "pipelab/queues/batch_queue.hpp"
#include "pipelab/queues/cached_spsc_queue.hpp"
#include "pipelab/queues/flush.hpp"
#include "pipelab/queues/lamport_queue.hpp"
#include "pipelab/queues/mutex_queue.hpp"
#include "pipelab/queues/vyukov_mpmc_queue.hpp"
#include "pipelab/telemetry/event.hpp"

namespace pipelab::pipeline {

class Link {
 public:
  virtual ~Link() = default;
  [[nodiscard]] virtual bool try_push(const PipelineItem& item) noexcept = 0;
  [[nodiscard]] virtual bool try_pop(PipelineItem& item) noexcept = 0;
  // Publishes a partial batch; false if it could not yet (retry later, never blocks).
  [[nodiscard]] virtual bool try_flush() noexcept { return true; }
  virtual const char* name() const noexcept = 0;
  // 0 = unbounded.
  virtual std::uint64_t effective_capacity() const noexcept = 0;

  // The real queue's index moves of the last producer-side call (try_push or try_flush) or
  // consumer-side call (try_pop), as batch-* telemetry events in the order they happened, once
  // (a second call returns 0).
  // Only BatchQueue links report them, and only after report_indices(true); others return 0.
  // Each side calls its own from its own thread.
  struct IndexMove {
    telemetry::EventKind kind;
    std::uint32_t arg;  // telemetry::batch_arg()
  };
  virtual void report_indices(bool) noexcept {}
  static constexpr std::uint32_t kMaxMoves = 3;  // publish, write, publish (1-item semi-buffers)
  using IndexMoves = IndexMove[kMaxMoves];
  virtual std::uint32_t take_producer_moves(IndexMoves&) noexcept { return 0; }
  virtual std::uint32_t take_consumer_moves(IndexMoves&) noexcept { return 0; }

  void reset(std::uint32_t producers) noexcept {
    producers_left_.store(producers, std::memory_order_relaxed);
    pushed_.store(0, std::memory_order_relaxed);
    popped_.store(0, std::memory_order_relaxed);
    max_occupancy_.store(0, std::memory_order_relaxed);
  }
  void producer_done() noexcept { producers_left_.fetch_sub(1, std::memory_order_release); }
  bool producers_finished() const noexcept {
    return producers_left_.load(std::memory_order_acquire) == 0;
  }
  // Returns the occupancy as the producer sees it (for the enqueue event's arg).
  std::uint64_t count_push() noexcept {
    const std::uint64_t pushed = pushed_.fetch_add(1, std::memory_order_relaxed) + 1;
    const std::uint64_t popped = popped_.load(std::memory_order_relaxed);
    return pushed > popped ? pushed - popped : 0;
  }
  // Returns the occupancy sample (items pushed and not yet popped, as this consumer sees it).
  std::uint64_t count_pop() noexcept {
    // pushed first: reading it after our increment would count pushes that followed later pops.
    const std::uint64_t pushed = pushed_.load(std::memory_order_relaxed);
    const std::uint64_t popped = popped_.fetch_add(1, std::memory_order_relaxed) + 1;
    const std::uint64_t occ = pushed > popped ? pushed - popped : 0;
    std::uint64_t m = max_occupancy_.load(std::memory_order_relaxed);
    while (occ > m && !max_occupancy_.compare_exchange_weak(m, occ, std::memory_order_relaxed)) {
    }
    return occ;
  }
  std::uint64_t max_occupancy() const noexcept {
    return max_occupancy_.load(std::memory_order_relaxed);
  }

 private:
  // Producers add to pushed_ and consumers to popped_ on every item: a prefetch pair apart.
  alignas(kPrefetchPairBytes) std::atomic<std::uint64_t> pushed_{0};
  alignas(kPrefetchPairBytes) std::atomic<std::uint64_t> popped_{0};
  std::atomic<std::uint64_t> max_occupancy_{0};
  alignas(kPrefetchPairBytes) std::atomic<std::uint32_t> producers_left_{0};
};

// A queue of queues/ behind the Link interface; try_flush() publishes a partial batch the way
// queues/flush.hpp says for that queue.
template <typename Queue>
class QueueLink final : public Link {
 public:
  QueueLink(std::size_t capacity, const char* name) : q_(capacity), name_(name), cap_(capacity) {}
  bool try_push(const PipelineItem& item) noexcept override { return q_.try_push(item); }
  bool try_pop(PipelineItem& item) noexcept override { return q_.try_pop(item); }
  bool try_flush() noexcept override { return queues::try_publish_partial(q_); }
  const char* name() const noexcept override { return name_; }
  std::uint64_t effective_capacity() const noexcept override { return cap_; }

 private:
  Queue q_;
  const char* name_;
  std::uint64_t cap_;
};

// A BatchQueue link that can report its real indices (the lesson's cache-line view): each side
// compares its own position before and after its call, which tells the slot it wrote or read and
// whether it flipped `status` (queues/batch_queue.hpp): a push publishes either the full
// semi-buffer it found (before writing) or the one it just filled (after), a flush a partial one,
// and the pop that reads a semi-buffer's last item releases it.
class BatchLink final : public Link {
 public:
  using Queue = queues::BatchQueue<PipelineItem>;
  explicit BatchLink(std::size_t capacity) : q_(capacity) {}

  bool try_push(const PipelineItem& item) noexcept override {
    if (!reporting_) return q_.try_push(item);
    const Queue::ProducerPosition before = q_.producer_position();
    if (!q_.try_push(item)) return false;
    const Queue::ProducerPosition after = q_.producer_position();
    const std::size_t semi = q_.semi_buffer_items();
    producer_moves_ = 0;
    std::size_t half = before.half;
    std::size_t slot = before.next;
    if (slot == semi) {  // it found its semi-buffer full: published it first (or it would fail)
      add(producer_, producer_moves_, telemetry::EventKind::kBatchPublish,
          telemetry::batch_arg(half, semi));
      half ^= 1;
      slot = 0;
    }
    add(producer_, producer_moves_, telemetry::EventKind::kBatchWrite,
        telemetry::batch_arg(half, slot));
    // It filled the semi-buffer and the consumer was free: published it at once.
    if (slot + 1 == semi && after.half != half) {
      add(producer_, producer_moves_, telemetry::EventKind::kBatchPublish,
          telemetry::batch_arg(half, semi));
    }
    return true;
  }
  bool try_pop(PipelineItem& item) noexcept override {
    if (!reporting_) return q_.try_pop(item);
    const Queue::ConsumerPosition before = q_.consumer_position();
    if (!q_.try_pop(item)) return false;
    const Queue::ConsumerPosition after = q_.consumer_position();
    // Holding nothing before, the pop took the next published semi-buffer and read its slot 0.
    const std::size_t slot = before.next == before.end ? 0 : before.next;
    consumer_moves_ = 0;
    add(consumer_, consumer_moves_, telemetry::EventKind::kBatchRead,
        telemetry::batch_arg(before.half, slot));
    if (after.half != before.half) {
      add(consumer_, consumer_moves_, telemetry::EventKind::kBatchRelease,
          telemetry::batch_arg(before.half, slot + 1));
    }
    return true;
  }
  bool try_flush() noexcept override {
    const Queue::ProducerPosition before = q_.producer_position();
    if (!q_.try_flush()) return false;
    if (reporting_ && before.next > 0) {
      producer_moves_ = 0;
      add(producer_, producer_moves_, telemetry::EventKind::kBatchPublish,
          telemetry::batch_arg(before.half, before.next, /*flush=*/true));
    }
    return true;
  }
  const char* name() const noexcept override { return "batch"; }
  std::uint64_t effective_capacity() const noexcept override { return q_.capacity(); }

  void report_indices(bool on) noexcept override { reporting_ = on; }
  std::uint32_t take_producer_moves(IndexMoves& out) noexcept override {
    return take(producer_, producer_moves_, out);
  }
  std::uint32_t take_consumer_moves(IndexMoves& out) noexcept override {
    return take(consumer_, consumer_moves_, out);
  }

 private:
  static void add(IndexMoves& moves, std::uint32_t& count, telemetry::EventKind kind,
                  std::uint32_t arg) noexcept {
    moves[count++] = {kind, arg};
  }
  static std::uint32_t take(const IndexMoves& moves, std::uint32_t& count,
                            IndexMoves& out) noexcept {
    const std::uint32_t n = count;
    for (std::uint32_t i = 0; i < n; ++i) out[i] = moves[i];
    count = 0;
    return n;
  }

  Queue q_;
  bool reporting_ = false;  // set before the run's threads start
  // Each side's moves of its last call, on its own prefetch pair (written by that side only).
  alignas(kPrefetchPairBytes) IndexMoves producer_ = {};
  std::uint32_t producer_moves_ = 0;
  alignas(kPrefetchPairBytes) IndexMoves consumer_ = {};
  std::uint32_t consumer_moves_ = 0;
};

// Mutex + std::deque: the unbounded (open-model) link.
class UnboundedLink final : public Link {
 public:
  bool try_push(const PipelineItem& item) noexcept override {
    std::lock_guard<std::mutex> lock(m_);
    q_.push_back(item);  // std::bad_alloc here terminates: the open model's memory limit
    return true;
  }
  bool try_pop(PipelineItem& item) noexcept override {
    std::lock_guard<std::mutex> lock(m_);
    if (q_.empty()) return false;
    item = q_.front();
    q_.pop_front();
    return true;
  }
  const char* name() const noexcept override { return "unbounded"; }
  std::uint64_t effective_capacity() const noexcept override { return 0; }

 private:
  std::mutex m_;
  std::deque<PipelineItem> q_;
};

// The capacity of a Vyukov MPMC queue (a link here, the two-stage runtimes' span and buffer
// queues) that holds v items.
inline std::size_t round_up_pow2(std::size_t v) noexcept {
  return queues::VyukovMpmcQueue<PipelineItem>::capacity_at_least(v);
}

// one_to_one: exactly one producer thread and one consumer thread.
inline std::unique_ptr<Link> make_link(const QueueSpec& q, bool one_to_one) {
  using queues::CachedSpscQueue;
  using queues::LamportQueue;
  using queues::MutexQueue;
  using queues::VyukovMpmcQueue;
  if (!q.capacity) return std::make_unique<UnboundedLink>();
  const std::size_t cap = *q.capacity;
  if (q.kind == QueueKind::kMutex) {
    return std::make_unique<QueueLink<MutexQueue<PipelineItem>>>(cap, "mutex");
  }
  if (one_to_one) {
    switch (q.kind) {
      case QueueKind::kBatch:
        return std::make_unique<BatchLink>(cap < 2 ? 2 : cap + (cap & 1));
      case QueueKind::kLamport:
        return std::make_unique<QueueLink<LamportQueue<PipelineItem>>>(cap, "lamport");
      case QueueKind::kCachedSpsc:
        return std::make_unique<QueueLink<CachedSpscQueue<PipelineItem>>>(cap, "cached-spsc");
      default:
        break;
    }
  }
  return std::make_unique<QueueLink<VyukovMpmcQueue<PipelineItem>>>(round_up_pow2(cap),
                                                                    "vyukov-mpmc");
}

}  // namespace pipelab::pipeline
