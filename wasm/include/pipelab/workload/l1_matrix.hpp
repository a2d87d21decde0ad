// L1MatrixWork: the `matrix` variant's work between two items of the queue benchmark and race
// (seed 001, §IV-A: "a matrix multiplication is done between two data sent in the purpose of
// measuring performance of algorithms when the first level cache is under heavy use").
//
// Each thread owns three n x n double matrices A, B and C (3 * 8 * n^2 bytes: 24 KiB at the
// default n = 32, three quarters of a 32 KiB L1 data cache) and computes one row of C = A * B per
// item, rows in turn: every item reads all of B and a row of A and writes a row of C (n^2
// multiply-adds, ~0.1-0.3 us natively at n = 32), so over n items the whole product is done and
// the queue's lines compete with 24 KiB of matrix data for the L1. The 4 x 4 product it replaces
// (64 multiply-adds on 192 bytes, ~30 ns) left the L1 idle. The item's value is written into A
// before its row is computed, so no two items repeat the same work and nothing can be hoisted.
// Thread roles: one object per thread (it is not shared); run() is noexcept and allocation-free.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace pipelab::workload {

class L1MatrixWork {
 public:
  static constexpr std::uint32_t kMinSize = 2;
  static constexpr std::uint32_t kMaxSize = 64;  // 96 KiB of matrices: already past any L1
  static constexpr std::uint32_t kDefaultSize = 32;

  // Throws std::invalid_argument naming the size and the allowed range.
  explicit L1MatrixWork(std::uint32_t n = kDefaultSize)
      : n_(validated(n)), a_(std::size_t(n) * n), b_(a_.size()), c_(a_.size()) {
    for (std::size_t i = 0; i < a_.size(); ++i) {
      a_[i] = 1.0 + double(i % 7) * 0.125;
      b_[i] = 0.5 + double(i % 5) * 0.25;
    }
  }

  static std::uint32_t validated(std::uint32_t n) {
    if (n < kMinSize || n > kMaxSize) {
      throw std::invalid_argument("matrix size " + std::to_string(n) +
                                  " is out of range (allowed " + std::to_string(kMinSize) + ".." +
                                  std::to_string(kMaxSize) + ")");
    }
    return n;
  }

  std::uint32_t size() const noexcept { return n_; }
  std::size_t bytes() const noexcept { return 3 * a_.size() * sizeof(double); }

  // One row of C = A * B, with the item's value written into A first; returns a value that
  // depends on the row (for the caller's sink).
  std::uint64_t run(std::uint64_t item) noexcept {
    const std::size_t n = n_;
    double* const c = &c_[row_ * n];
    const double* const a = &a_[row_ * n];
    a_[row_ * n + (item % n)] = 1.0 + double(item & 0xFF) * (1.0 / 256);
    for (std::size_t j = 0; j < n; ++j) c[j] = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const double aik = a[k];
      const double* const bk = &b_[k * n];
      for (std::size_t j = 0; j < n; ++j) c[j] += aik * bk[j];
    }
    std::uint64_t bits;
    std::memcpy(&bits, &c[item % n], sizeof bits);
    row_ = row_ + 1 == n ? 0 : row_ + 1;
    return bits;
  }

 private:
  std::uint32_t n_;
  std::size_t row_ = 0;
  std::vector<double> a_, b_, c_;
};

}  // namespace pipelab::workload
