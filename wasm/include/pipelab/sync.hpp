// Fences ThreadSanitizer can check, and the Sync policy a lock-free structure takes (its atomics,
// its fence style and its test points). Every lock-free structure that needs a seq_cst fence
// goes through this header: the Chase-Lev deque today, the phasers and barriers when they land.
//
// Why: ThreadSanitizer does not model std::atomic_thread_fence. GCC says so ("'atomic_thread_fence'
//   is not supported with '-fsanitize=thread'" [-Wtsan]), and TSan then neither sees the ordering
//   the fence gives nor checks the code that relies on it. The TSan build compiles with
//   -Werror=tsan (wasm/CMakeLists.txt), so a bare fence in any header the tests compile FAILS the
//   TSan build, and tests/unit/lockfree/bare-fences.test.ts fails on a fence written anywhere
//   under wasm/include, bench/ or tests/native outside this file. Phaser and barrier code: call
//   Sync::fence() with Sync::around() on the operations either side, never the fence itself.
// How: a store that must be ordered before a later load of another variable (the Dekker / store
//   buffering pattern of Chase-Lev, phasers, barriers) is written
//       bottom_.store(b, Sync::around(std::memory_order_relaxed));
//       Sync::fence();
//       t = top_.load(Sync::around(std::memory_order_relaxed));
//   FenceStyle::kStandalone (native and wasm builds): exactly the paper's code, relaxed operations
//   around a seq_cst fence. FenceStyle::kSeqCstOperations (the default under TSan): no fence, and
//   the operations on either side become seq_cst. Seq_cst operations are totally ordered, so a
//   seq_cst store followed by a seq_cst load on another variable is not reordered, which is all
//   the fence gave here, and TSan understands seq_cst operations.
// Rules: the rewrite is equivalent only when the fence orders the ONE access just before it
//   against the ONE access just after it, and when every fence of the pattern (both sides: owner
//   and thieves) is rewritten alike; one build always uses one style for all code. Both styles are
//   compiled and checked side by side in the native tests (tests/native/sched/: the model checker
//   explores every interleaving of the deque in both styles; the race tests run both).
// Sync policy: a structure takes `class Sync = DefaultSync` and uses Sync::Atomic<T>, around(),
//   fence() and point(). Tests swap in their own Sync: the model checker's atomics
//   (tests/native/support/model_checker.hpp), or hooks that pause or yield at a named point.
//   point() is a no-op in DefaultSync: production code pays nothing for it.
#pragma once

#include <atomic>

// Defined (as 1) when this translation unit is built with ThreadSanitizer (GCC or clang).
#if defined(__SANITIZE_THREAD__)
#define PIPELAB_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PIPELAB_UNDER_TSAN 1
#endif
#endif

namespace pipelab::sync {

enum class FenceStyle {
  kStandalone,        // relaxed/acquire operations around std::atomic_thread_fence(seq_cst)
  kSeqCstOperations,  // no fence; the operations around it are seq_cst (what TSan can check)
};

#if defined(PIPELAB_UNDER_TSAN)
inline constexpr FenceStyle kDefaultFenceStyle = FenceStyle::kSeqCstOperations;
#else
inline constexpr FenceStyle kDefaultFenceStyle = FenceStyle::kStandalone;
#endif

// The order of an operation next to a seq_cst fence: its own order when the fence stays, seq_cst
// when the fence is folded into the operations.
constexpr std::memory_order around_fence(FenceStyle style, std::memory_order native) noexcept {
  return style == FenceStyle::kSeqCstOperations ? std::memory_order_seq_cst : native;
}

// std::atomic with fence style S: the Sync every structure uses outside tests.
template <FenceStyle S = kDefaultFenceStyle>
struct StdSync {
  template <class T>
  using Atomic = std::atomic<T>;
  static constexpr FenceStyle kFenceStyle = S;

  static constexpr std::memory_order around(std::memory_order native) noexcept {
    return around_fence(S, native);
  }
  static void fence() noexcept {
    if constexpr (S == FenceStyle::kStandalone) {
      std::atomic_thread_fence(std::memory_order_seq_cst);  // the one fence in wasm/include
    }
  }
  // Test hook at a named point of a structure's operation (an enum of that structure).
  template <class Point>
  static void point(Point) noexcept {}
};

using DefaultSync = StdSync<>;

}  // namespace pipelab::sync
