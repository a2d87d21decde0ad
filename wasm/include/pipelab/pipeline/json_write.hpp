// JSON text as JavaScript writes it: number_text() is String(x), quote() and stringify() are
// JSON.stringify. Spec messages show values and the normalised spec crosses back to TypeScript as
// text, so both sides must print the same bytes for the same value (contracts/spec.md).
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "pipelab/pipeline/json.hpp"

namespace pipelab::json {

namespace write_detail {
// `x` (finite, > 0) with `digits` significant digits, as printf's "%.*e" rounds it.
inline std::string scientific(double x, int digits) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.*e", digits - 1, x);
  return buf;
}
}  // namespace write_detail

// Number::toString of ECMA-262: the fewest significant digits that read back as `x`, written
// plainly for exponents -7 < e < 21 and as 1.5e+21 / 1e-7 beyond. The digits come from printf
// and strtod (both correctly rounded in glibc and musl); where the nearest decimal of a given
// length does not read back but a neighbour does (the uneven gap at a power of two), the
// neighbour is taken, as JavaScript takes the closest decimal of the shortest length.
inline std::string number_text(double x) {
  if (std::isnan(x)) return "NaN";
  if (x == 0) return "0";  // -0 too, as in JavaScript
  if (x < 0) return "-" + number_text(-x);
  if (std::isinf(x)) return "Infinity";
  std::string sci;
  for (int digits = 1; digits <= 17 && sci.empty(); ++digits) {
    for (double probe : {x, std::nextafter(x, HUGE_VAL), std::nextafter(x, 0.0)}) {
      std::string s = write_detail::scientific(probe, digits);
      if (std::strtod(s.c_str(), nullptr) == x) {
        sci = std::move(s);
        break;
      }
    }
  }
  // sci is "d[.ddd]e±xx": split into the digit string and the decimal exponent.
  const std::size_t e = sci.find('e');
  std::string d;
  for (std::size_t i = 0; i < e; ++i) {
    if (sci[i] != '.') d.push_back(sci[i]);
  }
  while (d.size() > 1 && d.back() == '0') d.pop_back();
  const int k = int(d.size());
  const int n = std::atoi(sci.c_str() + e + 1) + 1;  // x = 0.d × 10^n
  if (k <= n && n <= 21) return d + std::string(std::size_t(n - k), '0');
  if (0 < n && n <= 21) return d.substr(0, std::size_t(n)) + "." + d.substr(std::size_t(n));
  if (-6 < n && n <= 0) return "0." + std::string(std::size_t(-n), '0') + d;
  const std::string mantissa = k == 1 ? d : d.substr(0, 1) + "." + d.substr(1);
  return mantissa + "e" + (n - 1 < 0 ? "-" : "+") + std::to_string(std::abs(n - 1));
}

// JSON.stringify of a string: escapes ", \, and control characters (\b \f \n \r \t by name, the
// rest as \u00xx), and a lone surrogate (3 bytes ED A0..BF xx, see json.hpp) as \udxxx; every
// other byte as it is.
inline std::string quote(std::string_view s) {
  static const char* const kHex = "0123456789abcdef";
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '"':
        out += "\\\"";
        continue;
      case '\\':
        out += "\\\\";
        continue;
      case '\b':
        out += "\\b";
        continue;
      case '\f':
        out += "\\f";
        continue;
      case '\n':
        out += "\\n";
        continue;
      case '\r':
        out += "\\r";
        continue;
      case '\t':
        out += "\\t";
        continue;
      default:
        break;
    }
    if (c < 0x20) {
      out += "\\u00";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    } else if (c == 0xED && i + 2 < s.size() &&
               (static_cast<unsigned char>(s[i + 1]) & 0xE0) == 0xA0) {
      const unsigned code = 0xD000 | ((static_cast<unsigned char>(s[i + 1]) & 0x3F) << 6) |
                            (static_cast<unsigned char>(s[i + 2]) & 0x3F);
      out += "\\u";
      for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(code >> shift) & 0xF];
      i += 2;
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

// JSON.stringify of a parsed value: no spaces, object keys in JavaScript's order.
inline std::string stringify(const Value& v) {
  switch (v.type) {
    case Value::Type::kNull:
      return "null";
    case Value::Type::kBool:
      return v.boolean ? "true" : "false";
    case Value::Type::kNumber:
      return std::isfinite(v.number) ? number_text(v.number) : "null";
    case Value::Type::kString:
      return quote(v.string);
    case Value::Type::kArray: {
      std::string out = "[";
      for (const Value& item : v.array) out += (out.size() > 1 ? "," : "") + stringify(item);
      return out + "]";
    }
    case Value::Type::kObject: {
      std::string out = "{";
      for (const Member* m : js_key_order(v)) {
        out += (out.size() > 1 ? "," : "") + quote(m->first) + ":" + stringify(m->second);
      }
      return out + "}";
    }
  }
  return "null";
}

}  // namespace pipelab::json
