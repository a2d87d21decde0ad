// Field readers for the JSON that C++ reads (an ExperimentSpec, a race config): each takes a parsed
// value and its field path, checks the JSON type, the kind of number and the range, and throws
// SpecError naming the field and what is allowed ("queue.capacity: 0 is out of range (allowed
// 1..65536)"). An integer is range-checked before anyone casts it, so no value of the text can
// overflow a field. The words follow contracts/spec.md; the messages a person reads come from the
// TypeScript validator (src/spec), which checks everything before the page sends a spec here.
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pipelab/pipeline/json.hpp"
#include "pipelab/pipeline/json_write.hpp"
#include "pipelab/pipeline/spec_limits.hpp"  // generated from contracts/spec-limits.json

namespace pipelab::pipeline {

// A bad field: path() names it (`stages[1].threads`, "" for the text as a whole) and what() is
// "path: problem" (the problem alone for "").
class SpecError : public std::invalid_argument {
 public:
  SpecError(std::string path, const std::string& problem)
      : std::invalid_argument(path.empty() ? problem : path + ": " + problem),
        path_(std::move(path)) {}
  // A message that names its field itself; path() is then "".
  explicit SpecError(const std::string& message) : std::invalid_argument(message) {}
  const std::string& path() const noexcept { return path_; }

 private:
  std::string path_;
};

}  // namespace pipelab::pipeline

namespace pipelab::pipeline::spec_fields {

using json::Value;
using limits::Range;
using Names = std::vector<std::string_view>;

inline std::string join(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}
inline std::string at(const std::string& path, std::size_t index) {
  return path + "[" + std::to_string(index) + "]";
}
inline std::string allowed(Range r) {
  return json::number_text(r.lo) + ".." + json::number_text(r.hi);
}

// A value as messages show it: scalars as JavaScript prints them, containers by their kind.
inline std::string show(const Value& v) {
  switch (v.type) {
    case Value::Type::kArray:
      return "an array";
    case Value::Type::kObject:
      return "an object";
    case Value::Type::kNumber:
      return json::number_text(v.number);
    case Value::Type::kString:
      return json::quote(v.string);
    case Value::Type::kBool:
      return v.boolean ? "true" : "false";
    case Value::Type::kNull:
      break;
  }
  return "null";
}

inline std::string list(const Names& names, const char* separator) {
  std::string out;
  for (std::string_view n : names) out += (out.empty() ? "" : separator) + std::string(n);
  return out;
}

inline void check_range(const std::string& path, double v, Range r) {
  if (!(v >= r.lo && v <= r.hi)) {
    throw SpecError(path, json::number_text(v) + " is out of range (allowed " + allowed(r) + ")");
  }
}

inline const Value& object(const Value& v, const std::string& path) {
  if (v.type != Value::Type::kObject) throw SpecError(path, show(v) + " is not an object");
  return v;
}

// The object at `path`, after rejecting any key not in `allowed` (typos must not fall back).
inline const Value& object(const Value& v, const std::string& path, const Names& allowed) {
  object(v, path);
  for (const auto& [key, member] : v.object) {
    bool known = false;
    for (std::string_view a : allowed) known = known || a == key;
    if (!known)
      throw SpecError(join(path, key), "unknown field (allowed: " + list(allowed, ", ") + ")");
  }
  return v;
}

inline const Value& require(const Value& obj, const std::string& path, std::string_view key) {
  const Value* v = obj.find(key);
  if (v == nullptr) throw SpecError(join(path, key), "missing (required)");
  return *v;
}

inline double number(const Value& v, const std::string& path, Range r) {
  if (v.type != Value::Type::kNumber) {
    throw SpecError(path, show(v) + " is not a number (allowed " + allowed(r) + ")");
  }
  check_range(path, v.number, r);
  return v.number;
}

inline double integer(const Value& v, const std::string& path, Range r) {
  if (v.type != Value::Type::kNumber || std::floor(v.number) != v.number) {
    throw SpecError(path, show(v) + " is not an integer (allowed " + allowed(r) + ")");
  }
  check_range(path, v.number, r);
  return v.number;
}

inline const std::string& string_of(const Value& v, const std::string& path) {
  if (v.type != Value::Type::kString) throw SpecError(path, show(v) + " is not a string");
  return v.string;
}

inline const std::vector<Value>& array(const Value& v, const std::string& path) {
  if (v.type != Value::Type::kArray) throw SpecError(path, show(v) + " is not an array");
  return v.array;
}

// One of `words` (an enum's words in enum order), as that enum.
template <typename Enum, std::size_t N>
Enum word(const Value& v, const std::string& path, const char* const (&words)[N]) {
  for (std::size_t i = 0; i < N; ++i) {
    if (v.type == Value::Type::kString && v.string == words[i]) return Enum(i);
  }
  throw SpecError(path, show(v) + " is not one of " + list(Names(words, words + N), " | "));
}

// One of `options`, matched by its to_string() word.
template <typename Enum>
Enum word(const Value& v, const std::string& path, const std::vector<Enum>& options) {
  Names words;
  for (Enum e : options) {
    if (v.type == Value::Type::kString && v.string == to_string(e)) return e;
    words.push_back(to_string(e));
  }
  throw SpecError(path, show(v) + " is not one of " + list(words, " | "));
}

}  // namespace pipelab::pipeline::spec_fields
