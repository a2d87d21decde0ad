// The queue micro-benchmark's measurement loops, after the BatchQueue paper's section IV-A:
// a chain of `stages` threads linked by stages-1 queues; `comm` moves items with nothing between
// them, `matrix` computes one row of a 32 x 32 double matrix product per item in every stage
// (workload/l1_matrix.hpp: 24 KiB of matrices per thread keep the L1 busy, as in the paper; the
// 4 x 4 product used before took ~30 ns on 192 bytes and left it idle). Also two producer-consumer
// pairs that move items in bulk (BatchQueue's try_push_n / try_pop_n, as ringbuf.js moves its
// batches), one thread pushing and popping alone (the per-item floor, no second core), a paced
// latency probe, and the costs group's pieces (bench/README.md): a pair counting each side's
// waits, the status flag handed between two threads, and one thread storing it.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

#include "pipelab/cacheline.hpp"
#include "pipelab/queues/flush.hpp"
#include "pipelab/queues/wait_policy.hpp"
#include "pipelab/workload/l1_matrix.hpp"

namespace pipelab::bench {

using Clock = std::chrono::steady_clock;
using Item = std::uint64_t;

enum class Variant { kComm, kMatrix };

// Read by main() after each run, so the compiler cannot delete the work or the pops.
inline std::atomic<std::uint64_t> g_sink{0};

// Publishes the producer's partial batch (queues/flush.hpp), waiting as the stage waits.
template <typename Queue, typename Wait>
void publish_rest(Queue& queue, Wait& wait) {
  while (!queues::try_publish_partial(queue)) wait.wait();
}

// Runs `items` through stages-1 queues made by make_queue(); returns the wall time in seconds from
// releasing the threads to joining them. Every stage waits with ParkWait (spin, yield, then sleep):
// on this shared 2-core machine a pure spinner whose partner was descheduled burns whole time
// slices, and in wasm yield() does not yield, so only sleeping (sleep_us, a real futex wait
// there) hands the core back. Every queue, ours and the peers', runs under the same policy.
template <typename Queue, typename MakeQueue>
double run_chain(MakeQueue make_queue, int stages, Variant variant, std::uint64_t items) {
  std::vector<std::unique_ptr<Queue>> links;
  for (int i = 0; i + 1 < stages; ++i) links.push_back(make_queue());
  std::atomic<bool> go{false};
  const bool matrix = variant == Variant::kMatrix;
  // A core per thread: spin up to ~1M attempts (milliseconds) before parking, so a batch hand-off
  // never pays a sleep (in wasm, where pause is a no-op, 4096 spins last only ~10-40 us).
  // More threads than cores: spin briefly, the stage we wait for needs our core to make progress.
  const bool oversubscribed = static_cast<unsigned>(stages) > std::thread::hardware_concurrency();
  auto stage_body = [&](int stage) {
    queues::ParkWait policy(oversubscribed ? 64 : 1u << 20);
    while (!go.load(std::memory_order_acquire)) queues::cpu_relax();
    Queue* in = stage > 0 ? links[stage - 1].get() : nullptr;
    Queue* out = stage + 1 < stages ? links[stage].get() : nullptr;
    Item sum = 0;
    workload::L1MatrixWork work;  // this stage's own matrices (allocated before the gate opens)
    for (std::uint64_t i = 0; i < items; ++i) {
      Item item = i;
      if (in) queues::pop(*in, item, policy);
      if (matrix) sum += work.run(item);
      if (out) {
        queues::push(*out, item, policy);
      } else {
        sum += item;
      }
    }
    if (out) publish_rest(*out, policy);
    g_sink.fetch_add(sum, std::memory_order_relaxed);
  };
  std::vector<std::thread> threads;
  for (int s = 0; s < stages; ++s) {
    threads.emplace_back([&, s] { stage_body(s); });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(5));  // let every thread reach the gate
  const auto start = Clock::now();
  go.store(true, std::memory_order_release);
  for (auto& thread : threads) thread.join();
  // Timed on this thread only: in Chromium each Worker's clock has its own origin, so the last
  // stage's end time cannot be compared with our start time there (the join adds microseconds).
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// A producer and a consumer moving items `batch` at a time through try_push_n / try_pop_n (as
// ringbuf-worker.mjs moves ringbuf.js batches: fill an array, push it; pop into an array, read
// it); returns the wall time in seconds, like run_chain.
template <typename Queue>
double run_bulk_pair(Queue& queue, std::size_t batch, std::uint64_t items) {
  std::atomic<bool> go{false};
  std::thread consumer([&] {
    queues::ParkWait policy(1u << 20);
    std::vector<Item> chunk(batch);
    while (!go.load(std::memory_order_acquire)) queues::cpu_relax();
    Item sum = 0;
    std::uint64_t out_of_order = 0;
    for (std::uint64_t received = 0; received < items;) {
      const std::size_t k =
          queue.try_pop_n(chunk.data(), std::min<std::uint64_t>(batch, items - received));
      if (k == 0) {
        policy.wait();
        continue;
      }
      policy.reset();
      for (std::size_t i = 0; i < k; ++i) {
        out_of_order += chunk[i] != received + i;
        sum += chunk[i];
      }
      received += k;
    }
    g_sink.fetch_add(sum + out_of_order, std::memory_order_relaxed);
  });
  queues::ParkWait policy(1u << 20);
  std::vector<Item> chunk(batch);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const auto start = Clock::now();
  go.store(true, std::memory_order_release);
  for (std::uint64_t next = 0; next < items;) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(batch, items - next));
    for (std::size_t i = 0; i < n; ++i) chunk[i] = next + i;
    for (std::size_t sent = 0; sent < n;) {
      const std::size_t k = queue.try_push_n(chunk.data() + sent, n - sent);
      if (k == 0) {
        policy.wait();
        continue;
      }
      policy.reset();
      sent += k;
    }
    next += n;
  }
  publish_rest(queue, policy);
  consumer.join();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// One thread pushes `round` items, then pops them, until `items` have gone through: the queue's
// own per-item work (index checks, copies, its atomics) with no second core to wait for or to
// fetch lines from — the floor a two-thread run of the queue can at best halve (each side does
// half of it in parallel). `round` fills a BatchQueue semi-buffer, so it publishes and releases
// once per round, as it does when streaming. Whole rounds only: up to round - 1 items more than
// asked go through (under 0.01% of a timed run).
template <typename Queue>
double run_floor(Queue& queue, std::size_t round, std::uint64_t items) {
  Item sum = 0;
  const auto start = Clock::now();
  for (std::uint64_t done = 0; done < items; done += round) {
    for (std::size_t i = 0; i < round; ++i) {
      if (!queue.try_push(done + i)) std::abort();  // a round always fits
    }
    for (std::size_t i = 0; i < round; ++i) {
      Item x = 0;
      if (!queue.try_pop(x)) std::abort();
      sum += x;
    }
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  g_sink.fetch_add(sum, std::memory_order_relaxed);
  return seconds;
}

// Two threads, one queue, per-item try_push / try_pop waiting with `Wait`, counting the failed
// attempts of each side: the side that rarely fails is the one the other waits for.
struct PairRun {
  double seconds;
  std::uint64_t producer_waits;  // try_push found both semi-buffers taken (consumer behind)
  std::uint64_t consumer_waits;  // try_pop found nothing published (producer behind)
};

template <typename Queue, typename Wait>
PairRun run_pair(Queue& queue, std::uint64_t items, Wait wait) {
  std::atomic<bool> go{false};
  std::uint64_t consumer_waits = 0;
  std::thread consumer([&, wait]() mutable {
    while (!go.load(std::memory_order_acquire)) queues::cpu_relax();
    Item sum = 0;
    for (std::uint64_t i = 0; i < items; ++i) {
      Item x = 0;
      while (!queue.try_pop(x)) {
        ++consumer_waits;
        wait.wait();
      }
      wait.reset();
      sum += x;
    }
    g_sink.fetch_add(sum, std::memory_order_relaxed);
  });
  std::uint64_t producer_waits = 0;
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const auto start = Clock::now();
  go.store(true, std::memory_order_release);
  for (std::uint64_t i = 0; i < items; ++i) {
    while (!queue.try_push(i)) {
      ++producer_waits;
      wait.wait();
    }
    wait.reset();
  }
  publish_rest(queue, wait);
  consumer.join();
  return {std::chrono::duration<double>(Clock::now() - start).count(), producer_waits,
          consumer_waits};
}

// Two threads hand one flag back and forth `flips` times (each flip: one store, and the other
// thread's load that sees it): the cost of BatchQueue's semi-buffer exchange without the data.
template <std::memory_order kStore>
double run_flips(std::uint64_t flips) {
  alignas(kPrefetchPairBytes) std::atomic<std::uint64_t> flag{0};
  std::thread other([&] {
    for (std::uint64_t i = 1; i < flips; i += 2) {
      while (flag.load(std::memory_order_acquire) != i) queues::cpu_relax();
      flag.store(i + 1, kStore);
    }
  });
  const auto start = Clock::now();
  for (std::uint64_t i = 0; i < flips; i += 2) {
    while (flag.load(std::memory_order_acquire) != i) queues::cpu_relax();
    flag.store(i + 1, kStore);
  }
  other.join();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// One thread stores to an atomic `stores` times: what one store of the status flag costs on its
// own (a release store is a plain move on x86-64; a seq_cst one, and every atomic store in wasm,
// is an xchg, a full fence).
// The flag is global: a local atomic that never escapes may be kept in a register (clang does so
// for wasm), and the loop would measure nothing.
alignas(kPrefetchPairBytes) inline std::atomic<std::uint64_t> g_store_flag{0};

template <std::memory_order kStore>
double run_stores(std::uint64_t stores) {
  std::atomic<std::uint64_t>& flag = g_store_flag;
  const auto start = Clock::now();
  for (std::uint64_t i = 0; i < stores; ++i) flag.store(i, kStore);
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  g_sink.fetch_add(flag.load(std::memory_order_relaxed), std::memory_order_relaxed);
  return seconds;
}

struct Latency {
  double median_ns;
  double p99_ns;
};

// Push-to-pop latency at a fixed offered rate (one item every gap_ns), without flushing: a batching
// queue holds each item until its batch fills, which is the cost this probe shows.
template <typename Queue>
Latency measure_latency(Queue& queue, std::uint64_t items, std::int64_t gap_ns) {
  std::vector<std::int64_t> latencies(items);
  std::atomic<bool> go{false};
  std::thread consumer([&] {
    queues::SpinWait policy;
    while (!go.load(std::memory_order_acquire)) queues::cpu_relax();
    for (std::uint64_t i = 0; i < items; ++i) {
      Item sent_ns = 0;
      queues::pop(queue, sent_ns, policy);
      latencies[i] = Clock::now().time_since_epoch().count() - static_cast<std::int64_t>(sent_ns);
    }
  });
  go.store(true, std::memory_order_release);
  queues::SpinWait policy;
  std::int64_t next = Clock::now().time_since_epoch().count();
  for (std::uint64_t i = 0; i < items; ++i) {
    std::int64_t now = Clock::now().time_since_epoch().count();
    while (now < next) now = Clock::now().time_since_epoch().count();
    next += gap_ns;
    queues::push(queue, static_cast<Item>(now), policy);
  }
  publish_rest(queue, policy);
  consumer.join();
  std::sort(latencies.begin(), latencies.end());
  // The median as bench/lib/stats.mjs defines it (the mean of the middle two for an even count);
  // p99 by nearest rank, as its percentile().
  const std::size_t mid = latencies.size() / 2;
  const double median = latencies.size() % 2
                            ? static_cast<double>(latencies[mid])
                            : (static_cast<double>(latencies[mid - 1]) + latencies[mid]) / 2;
  const std::size_t p99_rank = (latencies.size() * 99 + 99) / 100;  // ceil(0.99 n)
  return {median, static_cast<double>(latencies[p99_rank - 1])};
}

}  // namespace pipelab::bench
