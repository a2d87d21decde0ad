// The timeline a run records is consistent: the runtimes share one clock read between events that
// happen at one instant (the end of a stage and the start of the next parallel one, a pop and the
// service it starts, a service's end and the push that follows), and these checks hold whatever
// they share. Per worker, times never go back; each item starts and ends each stage once, and
// never starts a stage before it ended the one before; a serial stage's services never overlap,
// and a serial-in-order stage starts items in input order; in the static runtimes an item is
// dequeued before its service starts and enqueued after it ends.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "pipeline/pipeline_test_support.hpp"

namespace pipelab::pipeline {
namespace {

using telemetry::Event;
using telemetry::EventKind;

struct Service {
  double start = -1, end = -1;
  int starts = 0, ends = 0;
};

void expect_consistent_timeline(const ExperimentSpec& spec, const std::string& label) {
  RunOptions o;
  o.ring_capacity = 1u << 16;
  auto rt = make_runtime(spec, o);
  rt->run();
  auto& tel = rt->telemetry();
  const std::size_t stages = spec.stages.size();
  std::vector<std::vector<Service>> by_item(spec.items, std::vector<Service>(stages));
  std::map<std::pair<std::uint64_t, std::uint32_t>, double> dequeued, enqueued;
  std::vector<Event> ev(o.ring_capacity);
  for (std::uint32_t w = 0; w < tel.workers(); ++w) {
    ASSERT_EQ(tel.ring(w).dropped(), 0u) << label;
    const std::size_t n = tel.ring(w).pop_into(ev.data(), ev.size());
    for (std::size_t i = 0; i < n; ++i) {
      const Event& e = ev[i];
      if (i > 0) {
        ASSERT_GE(e.time_us, ev[i - 1].time_us) << label << ": worker " << w;
      }
      if (e.item == telemetry::kNoItem) continue;
      ASSERT_LT(e.item, spec.items) << label;
      if (e.kind == EventKind::kDequeue) dequeued[{e.item, e.stage}] = e.time_us;
      if (e.kind == EventKind::kEnqueue) enqueued[{e.item, e.stage}] = e.time_us;
      if (e.kind != EventKind::kStart && e.kind != EventKind::kEnd) continue;
      ASSERT_LT(e.stage, stages) << label;
      Service& s = by_item[e.item][e.stage];
      if (e.kind == EventKind::kStart) {
        s.start = e.time_us;
        ++s.starts;
      } else {
        s.end = e.time_us;
        ++s.ends;
      }
    }
  }
  for (std::uint64_t item = 0; item < spec.items; ++item) {
    for (std::size_t s = 0; s < stages; ++s) {
      const Service& v = by_item[item][s];
      ASSERT_EQ(v.starts, 1) << label << ": item " << item << " stage " << s;
      ASSERT_EQ(v.ends, 1) << label << ": item " << item << " stage " << s;
      ASSERT_LE(v.start, v.end) << label << ": item " << item << " stage " << s;
      if (s > 0) {
        ASSERT_LE(by_item[item][s - 1].end, v.start)
            << label << ": item " << item << " started stage " << s << " before ending " << s - 1;
      }
      const auto dq = dequeued.find({item, std::uint32_t(s)});
      if (dq != dequeued.end()) {
        ASSERT_LE(dq->second, v.start) << label << ": item " << item;
      }
      const auto enq = enqueued.find({item, std::uint32_t(s)});
      if (enq != enqueued.end()) {
        ASSERT_GE(enq->second, v.end) << label << ": item " << item;
      }
    }
  }
  for (std::size_t s = 0; s < stages; ++s) {
    if (!is_serial(spec.stages[s].mode)) continue;
    std::vector<std::pair<Service, std::uint64_t>> services;
    for (std::uint64_t item = 0; item < spec.items; ++item) {
      services.push_back({by_item[item][s], item});
    }
    std::sort(services.begin(), services.end(),
              [](const auto& a, const auto& b) { return a.first.start < b.first.start; });
    for (std::size_t i = 1; i < services.size(); ++i) {
      ASSERT_GE(services[i].first.start, services[i - 1].first.end)
          << label << ": serial stage " << s << " ran items " << services[i - 1].second << " and "
          << services[i].second << " at once";
      if (spec.stages[s].mode == StageMode::kSerialInOrder) {
        ASSERT_LT(services[i - 1].second, services[i].second)
            << label << ": stage " << s << " started items out of order";
      }
    }
  }
}

// Serial stages of 2 µs between parallel ones of ~1 µs: workers often reach a serial gate just as
// another leaves it, where a start stamped before the gate would overlap the previous service.
ExperimentSpec busy_serial_spec(RuntimeKind rt, std::uint32_t par_threads) {
  ExperimentSpec s = testing::mixed_spec(rt, par_threads, 2000);
  for (StageSpec& st : s.stages) {
    if (is_serial(st.mode)) st.service = ServiceSpec::fixed(2);
  }
  return s;
}

TEST(Timeline, WorkStealingRecordsAConsistentTimeline) {
  for (std::uint32_t threads : {1u, 2u, 4u}) {
    ExperimentSpec s = busy_serial_spec(RuntimeKind::kWorkStealing, 1);
    s.threads = threads;
    s.tokens = 2 * threads;
    expect_consistent_timeline(s, "work-stealing t=" + std::to_string(threads));
  }
}

TEST(Timeline, StaticAndCollapsedRecordAConsistentTimeline) {
  for (RuntimeKind rt : {RuntimeKind::kStatic, RuntimeKind::kCollapsed}) {
    ExperimentSpec s = busy_serial_spec(rt, 2);
    s.stages.insert(s.stages.begin() + 2, testing::stage("a2", StageMode::kParallel, 2));
    s.queue = QueueSpec{QueueKind::kLamport, 4};
    expect_consistent_timeline(s, to_string(rt));
  }
}

}  // namespace
}  // namespace pipelab::pipeline
