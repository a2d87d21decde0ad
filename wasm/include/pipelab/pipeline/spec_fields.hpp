// Field readers for the ExperimentSpec JSON parser, the C++ twin of src/spec/specFields.ts: each
// takes a parsed value and its field path, checks the JSON type, the kind of number and the range,
// and throws SpecError in the one wording of contracts/spec.md ("is not an integer", "is out of
// range", "unknown field", "not taken by", "missing", "is not one of"), naming what is allowed.
#pragma once

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "pipelab/pipeline/json.hpp"
#include "pipelab/pipeline/json_write.hpp"
#include "pipelab/pipeline/spec.hpp"

namespace pipelab::pipeline::spec_fields {

using json::Value;
using limits::Range;
using Names = std::vector<std::string_view>;

inline std::string join(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
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
    default:
      return json::stringify(v);
  }
}

inline std::string list(const Names& names, const char* separator) {
  std::string out;
  for (std::string_view n : names) out += (out.empty() ? "" : separator) + std::string(n);
  return out;
}

inline bool contains(const Names& names, std::string_view key) {
  for (std::string_view n : names) {
    if (n == key) return true;
  }
  return false;
}

// The object at `path`, after rejecting any key not in `allowed` (typos must not fall back).
inline const Value& object(const Value& v, const std::string& path, const Names& allowed) {
  if (v.type != Value::Type::kObject) throw SpecError(path, show(v) + " is not an object");
  for (const json::Member* m : json::js_key_order(v)) {
    if (!contains(allowed, m->first)) {
      throw SpecError(join(path, m->first), "unknown field (allowed: " + list(allowed, ", ") + ")");
    }
  }
  return v;
}

// A known field that this variant (a runtime kind, a service kind) does not take; `variant`
// reads "the static runtime".
[[noreturn]] inline void not_taken(const std::string& field_path, const Names& taken,
                                   const std::string& variant) {
  throw SpecError(field_path, "not taken by " + variant + " (allowed: " + list(taken, ", ") + ")");
}

// Rejects every field of `obj` the variant does not take; fields in `carried` are the caller's.
inline void only_taken(const Value& obj, const std::string& path, const Names& taken,
                       const std::string& variant, const Names& carried = {}) {
  for (const json::Member* m : json::js_key_order(obj)) {
    if (!contains(taken, m->first) && !contains(carried, m->first)) {
      not_taken(join(path, m->first), taken, variant);
    }
  }
}

inline const Value& require(const Value& obj, const std::string& path, std::string_view key,
                            const char* note = "") {
  const Value* v = obj.find(key);
  if (v == nullptr) throw SpecError(join(path, key), std::string("missing (required") + note + ")");
  return *v;
}

inline double number(const Value& v, const std::string& path, Range r) {
  if (v.type != Value::Type::kNumber) {
    throw SpecError(path, show(v) + " is not a number (allowed " + detail::allowed(r) + ")");
  }
  detail::check_range(path, v.number, r);
  return v.number;
}

inline double integer(const Value& v, const std::string& path, Range r) {
  if (v.type != Value::Type::kNumber || !std::isfinite(v.number) ||
      std::floor(v.number) != v.number) {
    throw SpecError(path, show(v) + " is not an integer (allowed " + detail::allowed(r) + ")");
  }
  detail::check_range(path, v.number, r);
  return v.number;
}

// The string at `path`; its byte range is the caller's rule (detail::check_name).
inline const std::string& string_of(const Value& v, const std::string& path, Range bytes) {
  if (v.type != Value::Type::kString) {
    throw SpecError(path,
                    show(v) + " is not a string (allowed " + detail::allowed(bytes) + " bytes)");
  }
  return v.string;
}

inline const Value& array(const Value& v, const std::string& path, Range length,
                          const char* items) {
  if (v.type != Value::Type::kArray) {
    throw SpecError(
        path, show(v) + " is not an array (allowed " + detail::allowed(length) + " " + items + ")");
  }
  return v;
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
