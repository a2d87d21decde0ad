// Kernels and stage work: deterministic (same inputs → same outputs on any thread), sensitive to
// their inputs, and service-time draws follow their distributions' means.
#include "pipelab/workload/kernels.hpp"

#include <gtest/gtest.h>

#include <set>
#include <thread>
#include <vector>

#include "pipelab/workload/stage_work.hpp"

namespace pipelab::workload {
namespace {

using pipeline::KernelName;
const KernelName kAll[] = {KernelName::kMatrix,        KernelName::kDedupHash,
                           KernelName::kDedupCompress, KernelName::kFerretFeatures,
                           KernelName::kFerretRank,    KernelName::kBlackScholes,
                           KernelName::kFormatPrices};

TEST(Kernels, DeterministicAcrossThreadsAndInputSensitive) {
  std::vector<std::uint64_t> here;
  for (KernelName k : kAll) here.push_back(run_kernel(k, 16, 3, 42));
  std::vector<std::uint64_t> there;
  std::thread([&] {
    for (KernelName k : kAll) there.push_back(run_kernel(k, 16, 3, 42));
  }).join();
  EXPECT_EQ(here, there);
  for (KernelName k : kAll) {
    EXPECT_NE(run_kernel(k, 16, 3, 42), run_kernel(k, 16, 4, 42)) << pipeline::to_string(k);
    EXPECT_NE(run_kernel(k, 16, 3, 42), run_kernel(k, 16, 3, 43)) << pipeline::to_string(k);
  }
  EXPECT_EQ(std::set<std::uint64_t>(here.begin(), here.end()).size(), here.size());
}

TEST(StageWork, DrawsHaveTheirMeans) {
  pipeline::ServiceSpec e;
  e.kind = pipeline::ServiceKind::kExponential;
  e.mean_us = 100;
  pipeline::ServiceSpec b;
  b.kind = pipeline::ServiceKind::kBimodal;
  b.fast_us = 10;
  b.slow_us = 110;
  b.slow_fraction = 0.25;
  pipeline::ServiceSpec u;
  u.kind = pipeline::ServiceKind::kUniform;
  u.min_us = 50;
  u.max_us = 150;
  double se = 0, sb = 0, su = 0;
  constexpr int kN = 100000;
  const StageWork we(e, 7, 0), wb(b, 7, 1), wu(u, 7, 2);
  for (int i = 0; i < kN; ++i) {
    se += we.draw_us(i);
    sb += wb.draw_us(i);
    su += wu.draw_us(i);
  }
  EXPECT_NEAR(se / kN, 100, 2);
  EXPECT_NEAR(sb / kN, 35, 1);
  EXPECT_NEAR(su / kN, 100, 1);
  EXPECT_EQ(we.draw_us(5), StageWork(e, 7, 0).draw_us(5));
  EXPECT_NE(we.draw_us(5), StageWork(e, 8, 0).draw_us(5));
}

}  // namespace
}  // namespace pipelab::workload
