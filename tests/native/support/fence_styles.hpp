// The fence styles of pipelab/sync.hpp as GoogleTest type parameters, named in test output
// (".../StandaloneFences.", ".../SeqCstOperations."). Natively a typed test runs both; under TSan
// only the seq_cst one, since a stand-alone fence is an error there (-Werror=tsan).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "pipelab/sync.hpp"

namespace pipelab::test_styles {

struct Standalone {
  static constexpr sync::FenceStyle kStyle = sync::FenceStyle::kStandalone;
};
struct SeqCstOperations {
  static constexpr sync::FenceStyle kStyle = sync::FenceStyle::kSeqCstOperations;
};

// Both styles: for code that never reaches a real fence (the model checker's atomics).
using AllFenceStyles = ::testing::Types<Standalone, SeqCstOperations>;
// The styles this build may compile with std::atomic.
#if defined(PIPELAB_UNDER_TSAN)
using BuildFenceStyles = ::testing::Types<SeqCstOperations>;
#else
using BuildFenceStyles = AllFenceStyles;
#endif

struct FenceStyleName {
  template <class T>
  static std::string GetName(int) {
    return T::kStyle == sync::FenceStyle::kStandalone ? "StandaloneFences" : "SeqCstOperations";
  }
};

}  // namespace pipelab::test_styles
