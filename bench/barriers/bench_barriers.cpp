// Barrier round-trip benchmark (npm run bench:barriers drives it): `threads` threads call
// arrive_and_wait() back to back; the time per barrier is the run's wall time over the barriers
// passed. One timed run per barrier kind and thread count, at least --min-ms long (the barrier
// count doubles until a run lasts that long; the shorter runs warm up). Prints one JSON line per
// run: {"barrier", "threads", "barriers", "seconds", "us_per_barrier"}.
// Contenders: our SpinBarrier and BlockingBarrier (pipelab/sync/), and std::barrier (C++20,
// natively: the peer) where the standard library has it. Kinds run in the order given by
// --order (the driver rotates it between rounds, so no kind always runs first).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#if __has_include(<version>)
#include <version>
#endif
#if defined(__cpp_lib_barrier)
#include <barrier>
#endif

#include "pipelab/sync/blocking_barrier.hpp"
#include "pipelab/sync/spin_barrier.hpp"

namespace {

using Clock = std::chrono::steady_clock;

// Seconds for `barriers` round trips of `threads` threads through `barrier` (arrive_and_wait()).
template <typename Barrier>
double timed_run(Barrier& barrier, unsigned threads, std::uint64_t barriers) {
  std::atomic<unsigned> ready{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      ready.fetch_add(1, std::memory_order_acq_rel);
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      for (std::uint64_t i = 0; i < barriers; ++i) barrier.arrive_and_wait();
    });
  }
  while (ready.load(std::memory_order_acquire) != threads) std::this_thread::yield();
  const auto t0 = Clock::now();
  go.store(true, std::memory_order_release);
  for (auto& th : pool) th.join();
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

template <typename Barrier>
void measure(const char* name, unsigned threads, double min_ms) {
  std::uint64_t barriers = 256;
  double seconds = 0;
  for (;;) {
    Barrier barrier(threads);
    seconds = timed_run(barrier, threads, barriers);
    if (seconds * 1000 >= min_ms || barriers >= (std::uint64_t(1) << 32)) break;
    barriers *= 2;
  }
  std::printf(
      "{\"barrier\": \"%s\", \"threads\": %u, \"barriers\": %llu, \"seconds\": %.6f, "
      "\"us_per_barrier\": %.6f}\n",
      name, threads, static_cast<unsigned long long>(barriers), seconds, seconds * 1e6 / barriers);
  std::fflush(stdout);
}

#if defined(__cpp_lib_barrier)
// std::barrier's constructor takes a ptrdiff_t; the same shape as ours for measure().
struct StdBarrier {
  explicit StdBarrier(unsigned threads) : b(threads) {}
  void arrive_and_wait() { b.arrive_and_wait(); }
  std::barrier<> b;
};
#endif

bool run_kind(const std::string& kind, unsigned threads, double min_ms) {
  if (kind == "spin") {
    measure<pipelab::sync::SpinBarrier>("spin", threads, min_ms);
  } else if (kind == "blocking") {
    measure<pipelab::sync::BlockingBarrier>("blocking", threads, min_ms);
  } else if (kind == "std-barrier") {
#if defined(__cpp_lib_barrier)
    measure<StdBarrier>("std-barrier", threads, min_ms);
#else
    std::fprintf(stderr, "std-barrier: not in this standard library (skipped)\n");
#endif
  } else {
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<unsigned> threads;
  std::vector<std::string> order = {"spin", "blocking", "std-barrier"};
  double min_ms = 100;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const char* value = argv[i + 1];
    if (flag == "--threads") {
      threads.clear();
      for (char* p = const_cast<char*>(value); *p;) {
        threads.push_back(unsigned(std::strtoul(p, &p, 10)));
        if (*p == ',') ++p;
      }
    } else if (flag == "--order") {
      order.clear();
      std::string list = value;
      for (std::size_t at = 0; at <= list.size();) {
        const std::size_t comma = std::min(list.find(',', at), list.size());
        order.push_back(list.substr(at, comma - at));
        at = comma + 1;
      }
    } else if (flag == "--min-ms") {
      min_ms = std::atof(value);
    } else {
      std::fprintf(stderr, "unknown flag %s (allowed: --threads 2,3 --order a,b --min-ms N)\n",
                   flag.c_str());
      return 2;
    }
  }
  if (threads.empty()) threads = {2};
  for (unsigned t : threads) {
    if (t < 1 || t > 64) {
      std::fprintf(stderr, "--threads %u is out of range (allowed 1..64)\n", t);
      return 2;
    }
    for (const std::string& kind : order) {
      if (!run_kind(kind, t, min_ms)) {
        std::fprintf(stderr, "--order: unknown barrier %s (allowed spin, blocking, std-barrier)\n",
                     kind.c_str());
        return 2;
      }
    }
  }
  return 0;
}
