// Real kernels for pipeline stages: each maps (item, value from the previous stage, size) to a new
// 64-bit value by doing the work the lesson names — a small matrix product (seed 001), a chunk hash
// and a run-length compress step (dedup-like), a feature vector and a rank against a fixed
// database (ferret-like), Black-Scholes pricing and text formatting of the prices (seed 002).
// Inputs are generated from the value with counter-based randomness (mix.hpp), so a result
// depends only on (kernel, size, item, value): identical in every runtime and thread count.
// Scratch memory is thread_local; any thread may call run_kernel() concurrently.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "pipelab/pipeline/spec.hpp"
#include "pipelab/workload/mix.hpp"

namespace pipelab::workload {

namespace kernel_detail {

inline std::uint64_t fnv1a(const unsigned char* p, std::size_t n, std::uint64_t h) noexcept {
  for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001B3ull;
  return h;
}
inline std::uint64_t bits_of(double d) noexcept {
  std::uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}
inline double draw(std::uint64_t seed, std::uint64_t i) noexcept {
  return unit(splitmix64(seed ^ splitmix64(i)));
}

// size x size matrices A and B from the value; returns a hash of C = A * B.
inline std::uint64_t matrix(std::uint32_t n, std::uint64_t seed) {
  thread_local std::vector<double> a, b, c;
  a.resize(std::size_t(n) * n);
  b.resize(a.size());
  c.assign(a.size(), 0.0);
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = draw(seed, 2 * i);
    b[i] = draw(seed, 2 * i + 1);
  }
  for (std::uint32_t i = 0; i < n; ++i)
    for (std::uint32_t k = 0; k < n; ++k) {
      const double aik = a[std::size_t(i) * n + k];
      for (std::uint32_t j = 0; j < n; ++j)
        c[std::size_t(i) * n + j] += aik * b[std::size_t(k) * n + j];
    }
  double sum = 0;
  for (double v : c) sum += v;
  return bits_of(sum);
}

// A chunk of size*64 bytes with runs (so compression has something to do).
inline const std::vector<unsigned char>& chunk(std::uint32_t size, std::uint64_t seed) {
  thread_local std::vector<unsigned char> buf;
  buf.resize(std::size_t(size) * 64);
  std::uint64_t x = seed;
  for (std::size_t i = 0; i < buf.size();) {
    x = splitmix64(x);
    const std::size_t run = 1 + (x & 7);
    for (std::size_t r = 0; r < run && i < buf.size(); ++r) buf[i++] = (unsigned char)(x >> 8);
  }
  return buf;
}

inline std::uint64_t dedup_hash(std::uint32_t size, std::uint64_t seed) {
  const auto& buf = chunk(size, seed);
  return fnv1a(buf.data(), buf.size(), 0xCBF29CE484222325ull);
}

// Run-length encoding (byte, count) pairs; returns hash of the output and its length.
inline std::uint64_t dedup_compress(std::uint32_t size, std::uint64_t seed) {
  const auto& in = chunk(size, seed);
  thread_local std::vector<unsigned char> out;
  out.clear();
  for (std::size_t i = 0; i < in.size();) {
    std::size_t j = i;
    while (j < in.size() && in[j] == in[i] && j - i < 255) ++j;
    out.push_back(in[i]);
    out.push_back((unsigned char)(j - i));
    i = j;
  }
  return fnv1a(out.data(), out.size(), out.size());
}

// Feature vector of `size` values: prefix means of a generated signal, normalized.
inline std::uint64_t ferret_features(std::uint32_t size, std::uint64_t seed) {
  thread_local std::vector<double> f;
  f.resize(size);
  double acc = 0, norm = 0;
  for (std::uint32_t i = 0; i < size; ++i) {
    acc += draw(seed, i);
    f[i] = acc / double(i + 1);
    norm += f[i] * f[i];
  }
  norm = std::sqrt(norm);
  std::uint64_t h = 0;
  for (double v : f) h = splitmix64(h ^ bits_of(v / norm));
  return h;
}

// Ranks a query vector (from the value) against 32 fixed database vectors; returns best index
// and its distance bits.
inline std::uint64_t ferret_rank(std::uint32_t size, std::uint64_t seed) {
  double best = 1e300;
  std::uint64_t best_i = 0;
  for (std::uint64_t d = 0; d < 32; ++d) {
    double dist = 0;
    for (std::uint32_t i = 0; i < size; ++i) {
      const double q = draw(seed, i) - draw(0xFE77E7ull + d, i);
      dist += q * q;
    }
    if (dist < best) {
      best = dist;
      best_i = d;
    }
  }
  return splitmix64(bits_of(best) ^ best_i);
}

inline double cnd(double x) noexcept { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// Black-Scholes price of European call option i: spot, strike, years to expiry, rate and
// volatility drawn from (seed, i). The one pricing step: the kernel below and the two-stage
// output's formatting (pipeline/two_stage_io/io_text.hpp) both call it.
inline double call_price(std::uint64_t seed, std::uint64_t i) noexcept {
  const double s = 50 + 100 * draw(seed, 5 * i), k = 50 + 100 * draw(seed, 5 * i + 1);
  const double t = 0.1 + 2 * draw(seed, 5 * i + 2), r = 0.01 + 0.05 * draw(seed, 5 * i + 3);
  const double v = 0.1 + 0.5 * draw(seed, 5 * i + 4);
  const double d1 = (std::log(s / k) + (r + 0.5 * v * v) * t) / (v * std::sqrt(t));
  const double d2 = d1 - v * std::sqrt(t);
  return s * cnd(d1) - k * std::exp(-r * t) * cnd(d2);
}

// Prices `size` European calls; returns a hash of the price bits.
inline std::uint64_t black_scholes(std::uint32_t size, std::uint64_t seed) {
  std::uint64_t h = 0;
  for (std::uint32_t i = 0; i < size; ++i) h = splitmix64(h ^ bits_of(call_price(seed, i)));
  return h;
}

// Formats `size` prices as text lines ("%.4f\n") and hashes the text.
inline std::uint64_t format_prices(std::uint32_t size, std::uint64_t seed) {
  thread_local std::vector<char> text;
  text.resize(std::size_t(size) * 32);
  std::size_t at = 0;
  for (std::uint32_t i = 0; i < size; ++i) {
    at += std::size_t(std::snprintf(text.data() + at, 32, "%.4f\n", 1000 * draw(seed, i)));
  }
  return fnv1a(reinterpret_cast<const unsigned char*>(text.data()), at, at);
}

}  // namespace kernel_detail

inline std::uint64_t run_kernel(pipeline::KernelName k, std::uint32_t size, std::uint64_t item,
                                std::uint64_t value) {
  using pipeline::KernelName;
  namespace d = kernel_detail;
  const std::uint64_t seed = splitmix64(value ^ splitmix64(item));
  switch (k) {
    case KernelName::kMatrix:
      return d::matrix(size, seed);
    case KernelName::kDedupHash:
      return d::dedup_hash(size, seed);
    case KernelName::kDedupCompress:
      return d::dedup_compress(size, seed);
    case KernelName::kFerretFeatures:
      return d::ferret_features(size, seed);
    case KernelName::kFerretRank:
      return d::ferret_rank(size, seed);
    case KernelName::kBlackScholes:
      return d::black_scholes(size, seed);
    case KernelName::kFormatPrices:
      return d::format_prices(size, seed);
  }
  return value;
}

}  // namespace pipelab::workload
