// Overhead probe: the per-operation costs behind two wasm-vs-native gaps of the pipeline bench
// (bench/README.md, "Pipelines: the wasm gaps"), measured on ONE thread as the fastest of many
// short batches, so other work on the machine can only lengthen a batch, never shorten it: the
// figures hold at any load, unlike the bench's two-core ratios. Prints one JSON line per figure.
//   telemetry: ns per clock read (steady_us) and, in wasm, per call of a JS function that only
//     returns a number (the wasm-to-JS crossing: the rest of a read is the clock's own work), per
//     ring push (record_at), per tally_service, per clock read made right after a 10 us service
//     (as at each service's end: alone, beside a core doing the same busy work, and beside one
//     that also reads the clock); and,
//     from one real run of the bench's telemetry case (work stealing, SPS, 10 us stages) with rings
//     large enough to hold it, events per item and the clock reads behind them (distinct times:
//     record_at reuses a read).
//   two-stage output: us to format one 1,024-item batch (io_text::format_line) and to checksum it
//     (the writer's work), and the writer's share of the serial work per batch.
//   usage: overhead_probe
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <thread>
#include <vector>

#include "pipeline_cases.hpp"

#if defined(__EMSCRIPTEN__)
#include <emscripten/emscripten.h>
EM_JS(double, probe_js_number, (), { return 1.5; });
#endif

namespace {

using namespace pipelab::bench;
namespace tl = pipelab::telemetry;

// Fastest ns per call of f(i) over `reps` batches of `batch` calls.
template <class F>
double fastest_ns(F&& f, int batch = 1000, int reps = 2000) {
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    const double t0 = tl::steady_us();
    for (int i = 0; i < batch; ++i) f(i);
    best = std::min(best, (tl::steady_us() - t0) * 1000.0 / batch);
  }
  return best;
}

void telemetry_costs() {
  tl::RunTelemetry tel(1, 3, 1u << 16, true);
  tel.reset();
  std::vector<tl::Event> out(4096);
  volatile double sink = 0;
  const double clock_ns = fastest_ns([&](int) { sink = sink + tl::steady_us(); });
  // The reader empties the ring every 1,024 pushes, as a page would: pushes never drop.
  auto drain = [&] {
    while (tel.ring(0).pop_into(out.data(), out.size()) > 0) {
    }
  };
  const double push_ns = fastest_ns([&](int i) {
    if ((i & 1023) == 0) drain();
    tel.record_at(1.0, 0, tl::EventKind::kStart, 0, std::uint32_t(i));
  });
  const double tally_ns = fastest_ns([&](int i) { tel.tally_service(0, i % 3, 10.0, 5.0); });
  char js_call[32] = "null";  // natively no JS
#if defined(__EMSCRIPTEN__)
  std::snprintf(js_call, sizeof js_call, "%.1f",
                fastest_ns([&](int) { sink = sink + probe_js_number(); }));
#endif
  std::printf(
      "{\"probe\":\"telemetry-ops\",\"clock_read_ns\":%.1f,\"js_call_ns\":%s,\"push_ns\":%.1f,"
      "\"tally_ns\":%.1f}\n",
      clock_ns, js_call, push_ns, tally_ns);
}

// A clock read right after a 10 us service, as the runtimes make one at each service's end:
// fastest of many batches of (spin 10 us; read the clock) against the same batches without the
// read; the difference per service is what that read costs where it is made (back-to-back reads,
// clock_read_ns above, stay warm in the caches and predictors; this one follows other work).
// `neighbour`: what a second thread does meanwhile on the other core — nothing, the same busy
// work alone, or the same busy work with a clock read after each service (as in a real run).
enum class Neighbour { kNone, kSpin, kSpinAndRead };

double read_after_service_ns(Neighbour neighbour) {
  const auto& work = pipelab::workload::BusyWork::global();
  const int per_batch = 50;
  std::atomic<bool> stop{false};
  std::thread other;
  if (neighbour != Neighbour::kNone) {
    other = std::thread([&] {
      std::uint64_t y = 3;
      volatile double sink = 0;
      while (!stop.load(std::memory_order_relaxed)) {
        y = work.spin_us(10.0, y | 1);
        if (neighbour == Neighbour::kSpinAndRead) sink = sink + tl::steady_us();
      }
    });
  }
  std::uint64_t x = 1;
  volatile double sink = 0;
  auto batch_us = [&](bool read) {
    double best = 1e300;
    for (int rep = 0; rep < 400; ++rep) {
      const double t0 = tl::steady_us();
      for (int i = 0; i < per_batch; ++i) {
        x = work.spin_us(10.0, x | 1);
        if (read) sink = sink + tl::steady_us();
      }
      best = std::min(best, tl::steady_us() - t0);
    }
    return best;
  };
  double with = 1e300, without = 1e300;
  for (int round = 0; round < 3; ++round) {  // interleaved: drift hits both alike
    without = std::min(without, batch_us(false));
    with = std::min(with, batch_us(true));
  }

  stop.store(true);
  if (other.joinable()) other.join();
  sink = sink + double(x);  // the chain's result is used: the spins stay
  return (with - without) * 1000.0 / per_batch;
}

void clock_after_service() {
  const double alone = read_after_service_ns(Neighbour::kNone);
  const double beside_spin = read_after_service_ns(Neighbour::kSpin);
  const double beside_reads = read_after_service_ns(Neighbour::kSpinAndRead);
  std::printf(
      "{\"probe\":\"clock-after-service\",\"service_us\":10,\"read_after_service_ns\":%.1f,"
      "\"beside_busy_core_ns\":%.1f,\"beside_reading_core_ns\":%.1f}\n",
      alone, beside_spin, beside_reads);
}

// The bench's telemetry case once, every event kept: what one item costs in writes and reads.
void telemetry_per_item() {
  const std::uint64_t items = 20000;
  ExperimentSpec s = shape(RuntimeKind::kWorkStealing, "SPS", {10, 10, 10}, 1, items);
  s.threads = 2;
  s.tokens = 4;
  validate(s);
  RunOptions o;
  o.telemetry = true;
  o.ring_capacity = 1u << 18;  // > 6.5 events x 20,000 items: nothing dropped, no reader needed
  auto rt = make_runtime(s, o);
  rt->run();
  std::vector<tl::Event> buf(o.ring_capacity);
  std::uint64_t events = 0, reads = 0, dropped = 0;
  for (std::uint32_t w = 0; w < rt->telemetry().workers(); ++w) {
    dropped += rt->telemetry().ring(w).dropped();
    const std::size_t n = rt->telemetry().ring(w).pop_into(buf.data(), buf.size());
    for (std::size_t i = 0; i < n; ++i) reads += i == 0 || buf[i].time_us != buf[i - 1].time_us;
    events += n;
  }
  std::printf(
      "{\"probe\":\"telemetry-per-item\",\"items\":%llu,\"events_per_item\":%.2f,"
      "\"clock_reads_per_item\":%.2f,\"dropped\":%llu}\n",
      static_cast<unsigned long long>(items), double(events) / items, double(reads) / items,
      static_cast<unsigned long long>(dropped));
}

void two_stage_output_batch() {
  namespace io = pipelab::pipeline::io_text;
  const unsigned batch = 1024;
  std::vector<char> text(batch * io::kMaxLineBytes);
  double format_us = 1e300, checksum_us = 1e300;
  std::uint64_t h = io::kChecksumSeed;
  std::size_t bytes = 0;
  for (int rep = 0; rep < 300; ++rep) {
    const std::uint64_t first = std::uint64_t(rep % 50) * batch;
    const double t0 = tl::steady_us();
    std::size_t at = 0;
    for (unsigned i = 0; i < batch; ++i) at += io::format_line(text.data() + at, 1, first + i);
    const double t1 = tl::steady_us();
    h = io::checksum(text.data(), at, h);
    const double t2 = tl::steady_us();
    format_us = std::min(format_us, t1 - t0);
    checksum_us = std::min(checksum_us, t2 - t1);
    bytes = at;
  }
  std::printf(
      "{\"probe\":\"two-stage-output-batch\",\"batch_items\":%u,\"bytes\":%zu,"
      "\"format_us\":%.1f,\"checksum_us\":%.1f,\"writer_share\":%.3f,\"h\":%llu}\n",
      batch, bytes, format_us, checksum_us, checksum_us / (format_us + checksum_us),
      static_cast<unsigned long long>(h & 0xFF));
}

}  // namespace

int main() {
  telemetry_costs();
  clock_after_service();
  telemetry_per_item();
  two_stage_output_batch();
  return 0;
}
