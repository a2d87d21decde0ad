// ThreadSanitizer detection for the native tests. Under TSan every memory access costs ~5-50x
// more, so stress tests size their runs down; this says when.
//   PIPELAB_TEST_TSAN                  defined (as 1) in a TSan build: for #if
//   pipelab::test_build::kUnderTsan    the same as a constant: for constexpr sizes
// The detection itself (GCC's __SANITIZE_THREAD__, clang's __has_feature) is pipelab/sync.hpp's
// PIPELAB_UNDER_TSAN, which also picks the fence style the lock-free structures use.
#pragma once

#include "pipelab/sync.hpp"

#if defined(PIPELAB_UNDER_TSAN)
#define PIPELAB_TEST_TSAN 1
#endif

namespace pipelab::test_build {

#if defined(PIPELAB_TEST_TSAN)
inline constexpr bool kUnderTsan = true;
#else
inline constexpr bool kUnderTsan = false;
#endif

}  // namespace pipelab::test_build
