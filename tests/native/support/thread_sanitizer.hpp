// ThreadSanitizer detection for the native tests, defined once. Under TSan every memory access
// costs ~5-50x more, so stress tests size their runs down; this says when.
//   PIPELAB_TEST_TSAN                  defined (as 1) in a TSan build: for #if
//   pipelab::test_build::kUnderTsan    the same as a constant: for constexpr sizes
// GCC announces TSan with __SANITIZE_THREAD__, clang with __has_feature(thread_sanitizer).
#pragma once

#if defined(__SANITIZE_THREAD__)
#define PIPELAB_TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PIPELAB_TEST_TSAN 1
#endif
#endif

namespace pipelab::test_build {

#if defined(PIPELAB_TEST_TSAN)
inline constexpr bool kUnderTsan = true;
#else
inline constexpr bool kUnderTsan = false;
#endif

}  // namespace pipelab::test_build
