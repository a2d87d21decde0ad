// JSON text out of C++: numbers and strings for the race's results (race_json.hpp) and for the
// values a C++ message quotes (spec_fields.hpp). The page reads both with JSON.parse or shows them
// as they are, so any valid JSON spelling of the value will do.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace pipelab::json {

// Whole numbers in full (100000000, not 1e+08), others with the fewest significant digits that
// read back as `x` (0.1, not 0.1000000000000000055); JSON has no spelling for infinities and NaN,
// which messages show as JavaScript does.
inline std::string number_text(double x) {
  if (!std::isfinite(x)) return std::isnan(x) ? "NaN" : x < 0 ? "-Infinity" : "Infinity";
  char text[32];
  if (x == std::floor(x) && std::fabs(x) < 1e21) {
    std::snprintf(text, sizeof text, "%.0f", x);
    return text;
  }
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, x);
    if (std::strtod(text, nullptr) == x) break;
  }
  return text;
}

// A JSON string: ", \ and control characters escaped, every other byte as it is.
inline std::string quote(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", unsigned(c));
      out += escape;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace pipelab::json
