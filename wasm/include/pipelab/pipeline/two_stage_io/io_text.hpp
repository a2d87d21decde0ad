// Text for the two-stage I/O runtimes (Dempsey, seed 002: the output side is its Part 2, the input
// side its Part 1, which Part 2 recaps): the per-item formatting step of the output pipeline (a
// Black-Scholes call price, then "item,price\n" via snprintf) and the record format of the input
// pipeline ("item,price-in-1e-4,qty\n" lines generated from the seed), with the sequential
// references the tests and the bench compare the parallel runtimes against.
// Pure functions of (seed, item): any thread may call them concurrently; nothing here is shared.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "pipelab/workload/kernels.hpp"

namespace pipelab::pipeline::io_text {

// The widest line either format produces ("18446744073709551615,<price>\n" < 64 bytes).
inline constexpr std::size_t kMaxLineBytes = 64;

// The seed-002 pricing step for one item: the workload kernels' Black-Scholes call price, with
// inputs drawn from the run's seed (salted so they differ from the kernel's own runs).
inline double price_of(std::uint64_t seed, std::uint64_t item) noexcept {
  return workload::kernel_detail::call_price(workload::splitmix64(seed ^ 0x5EED002ull), item);
}

// Formats item's output line into out (room for kMaxLineBytes); returns its length.
inline std::size_t format_line(char* out, std::uint64_t seed, std::uint64_t item) noexcept {
  const int n = std::snprintf(out, kMaxLineBytes, "%llu,%.4f\n",
                              static_cast<unsigned long long>(item), price_of(seed, item));
  return n > 0 ? std::size_t(n) : 0;
}

// The output pipeline's whole text, written by one thread in item order.
inline std::string sequential_output(std::uint64_t seed, std::uint64_t items) {
  std::string text;
  char line[kMaxLineBytes];
  for (std::uint64_t i = 0; i < items; ++i) text.append(line, format_line(line, seed, i));
  return text;
}

// FNV-1a over the bytes, continuing from h: the writer's running checksum.
inline std::uint64_t checksum(const char* p, std::size_t n, std::uint64_t h) noexcept {
  return workload::kernel_detail::fnv1a(reinterpret_cast<const unsigned char*>(p), n, h);
}
inline constexpr std::uint64_t kChecksumSeed = 0xCBF29CE484222325ull;

// The input pipeline's text: `records` lines "item,price_e4,qty\n" (Part 1's input file).
inline std::string input_text(std::uint64_t seed, std::uint64_t records) {
  std::string text;
  char line[kMaxLineBytes];
  for (std::uint64_t i = 0; i < records; ++i) {
    const std::uint64_t h = workload::splitmix64(seed ^ workload::splitmix64(i + 1));
    const int n =
        std::snprintf(line, sizeof line, "%llu,%llu,%llu\n", static_cast<unsigned long long>(i),
                      static_cast<unsigned long long>(h % 10000000),
                      static_cast<unsigned long long>(1 + (h >> 40) % 1000));
    text.append(line, std::size_t(n));
  }
  return text;
}

struct ParsedRecord {
  std::uint64_t item = 0, price_e4 = 0, qty = 0;
  bool ok = false;
};

// Parses one line (without or with its trailing '\n'): three unsigned decimal fields.
inline ParsedRecord parse_record(const char* p, std::size_t n) noexcept {
  ParsedRecord r;
  std::uint64_t* fields[3] = {&r.item, &r.price_e4, &r.qty};
  std::size_t f = 0, digits = 0;
  for (std::size_t i = 0; i < n && p[i] != '\n'; ++i) {
    if (p[i] == ',') {
      if (digits == 0 || ++f == 3) return r;
      digits = 0;
    } else if (p[i] >= '0' && p[i] <= '9') {
      *fields[f] = *fields[f] * 10 + std::uint64_t(p[i] - '0');
      ++digits;
    } else {
      return r;
    }
  }
  r.ok = f == 2 && digits > 0;
  return r;
}

// A record's contribution to the input pipeline's result (order-independent: summed).
inline std::uint64_t record_value(const ParsedRecord& r) noexcept {
  return r.price_e4 * r.qty + r.item;
}

struct InputTotals {
  std::uint64_t records = 0, sum = 0, bad = 0;
};

// One thread scans and parses the whole text: the reference for the two-stage input.
inline InputTotals sequential_parse(const std::string& text) noexcept {
  InputTotals t;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\n') continue;
    const ParsedRecord r = parse_record(text.data() + start, i - start);
    ++t.records;
    if (r.ok)
      t.sum += record_value(r);
    else
      ++t.bad;
    start = i + 1;
  }
  return t;
}

}  // namespace pipelab::pipeline::io_text
