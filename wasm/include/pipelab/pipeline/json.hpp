// Minimal JSON reader for ExperimentSpec: values, objects in source order, syntax errors by offset.
//
// Why our own: no JSON library exists in the em++ sysroot, and a spec is a few hundred bytes, so
// a recursive-descent reader over std::string_view is enough. Numbers are IEEE doubles (as in
// JavaScript, so the TypeScript and C++ parsers agree on what a number is). Objects keep their
// keys in order and reject duplicates, so an error can name the first bad field. Nesting is
// limited to 64 levels. src/spec/jsonText.ts is the same reader in TypeScript, check for check
// and message for message (offsets count UTF-8 bytes on both sides); change both together.
// Strings are UTF-8: an escaped surrogate pair becomes one 4-byte code point, a lone escaped
// surrogate its own 3 bytes (as JavaScript keeps it in a string; json_write.hpp escapes it back).
// Not thread-safe by design: one parse per call, no shared state.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pipelab::json {

class Value {
 public:
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject };

  Type type = Type::kNull;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Value> array;
  std::vector<std::pair<std::string, Value>> object;

  // Returns the member named `key`, or nullptr when absent (objects only).
  const Value* find(std::string_view key) const noexcept {
    for (const auto& [k, v] : object) {
      if (k == key) return &v;
    }
    return nullptr;
  }
  // For messages: the JSON type name as a user would say it.
  const char* type_name() const noexcept {
    switch (type) {
      case Type::kNull:
        return "null";
      case Type::kBool:
        return "a boolean";
      case Type::kNumber:
        return "a number";
      case Type::kString:
        return "a string";
      case Type::kArray:
        return "an array";
      case Type::kObject:
        return "an object";
    }
    return "?";
  }
};

class ParseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Value parse_document() {
    Value v = parse_value(0);
    skip_ws();
    if (pos_ != text_.size()) fail("unexpected trailing characters");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw ParseError("invalid JSON at offset " + std::to_string(pos_) + ": " + what);
  }
  void skip_ws() noexcept {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\r' || text_[pos_] == '\t'))
      ++pos_;
  }
  char peek() const noexcept { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  bool consume_word(std::string_view w) noexcept {
    if (text_.substr(pos_, w.size()) != w) return false;
    pos_ += w.size();
    return true;
  }

  Value parse_value(int depth) {
    if (depth > 64) fail("nesting deeper than 64 levels");
    skip_ws();
    Value v;
    const char c = peek();
    if (c == '{') {
      parse_object(v, depth);
    } else if (c == '[') {
      parse_array(v, depth);
    } else if (c == '"') {
      v.type = Value::Type::kString;
      v.string = parse_string();
    } else if (consume_word("true")) {
      v.type = Value::Type::kBool;
      v.boolean = true;
    } else if (consume_word("false")) {
      v.type = Value::Type::kBool;
    } else if (consume_word("null")) {
      v.type = Value::Type::kNull;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      v.type = Value::Type::kNumber;
      v.number = parse_number();
    } else {
      fail("expected a value");
    }
    return v;
  }

  void parse_object(Value& v, int depth) {
    v.type = Value::Type::kObject;
    expect('{');
    skip_ws();
    if (peek() == '}') {
      ++pos_;
      return;
    }
    for (;;) {
      skip_ws();
      std::string key = parse_string();
      if (v.find(key) != nullptr) fail("duplicate key \"" + key + "\"");
      skip_ws();
      expect(':');
      Value member = parse_value(depth + 1);
      v.object.emplace_back(std::move(key), std::move(member));
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      expect('}');
      return;
    }
  }

  void parse_array(Value& v, int depth) {
    v.type = Value::Type::kArray;
    expect('[');
    skip_ws();
    if (peek() == ']') {
      ++pos_;
      return;
    }
    for (;;) {
      v.array.push_back(parse_value(depth + 1));
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      expect(']');
      return;
    }
  }

  std::string parse_string() {
    expect('"');
    std::string out;
    for (;;) {
      if (pos_ >= text_.size()) fail("unterminated string");
      const char c = text_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in string");
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      const char e = peek();
      ++pos_;
      switch (e) {
        case '"':
          out.push_back('"');
          break;
        case '\\':
          out.push_back('\\');
          break;
        case '/':
          out.push_back('/');
          break;
        case 'b':
          out.push_back('\b');
          break;
        case 'f':
          out.push_back('\f');
          break;
        case 'n':
          out.push_back('\n');
          break;
        case 'r':
          out.push_back('\r');
          break;
        case 't':
          out.push_back('\t');
          break;
        case 'u':
          append_utf8(out, parse_code_point());
          break;
        default:
          fail("bad escape in string");
      }
    }
  }

  unsigned parse_hex4() {
    if (pos_ + 4 > text_.size()) fail("short \\u escape");
    unsigned code = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = text_[pos_++];
      code <<= 4;
      if (h >= '0' && h <= '9')
        code |= unsigned(h - '0');
      else if (h >= 'a' && h <= 'f')
        code |= unsigned(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F')
        code |= unsigned(h - 'A' + 10);
      else
        fail("bad hex digit in \\u escape");
    }
    return code;
  }

  // After the "u" of an escape: a code unit, or a whole code point when a high surrogate is
  // followed at once by an escaped low one (so the pair d83d de00 is U+1F600, 4 bytes, as
  // TextEncoder counts it).
  unsigned parse_code_point() {
    const unsigned code = parse_hex4();
    if (code < 0xD800 || code > 0xDBFF || text_.substr(pos_, 2) != "\\u") return code;
    const std::size_t at = pos_;
    pos_ += 2;
    const unsigned low = parse_hex4();
    if (low >= 0xDC00 && low <= 0xDFFF) return 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
    pos_ = at;  // not a pair: the next escape is read on its own
    return code;
  }

  static void append_utf8(std::string& out, unsigned code) {
    if (code < 0x80) {
      out.push_back(char(code));
    } else if (code < 0x800) {
      out.push_back(char(0xC0 | (code >> 6)));
      out.push_back(char(0x80 | (code & 0x3F)));
    } else if (code < 0x10000) {
      out.push_back(char(0xE0 | (code >> 12)));
      out.push_back(char(0x80 | ((code >> 6) & 0x3F)));
      out.push_back(char(0x80 | (code & 0x3F)));
    } else {
      out.push_back(char(0xF0 | (code >> 18)));
      out.push_back(char(0x80 | ((code >> 12) & 0x3F)));
      out.push_back(char(0x80 | ((code >> 6) & 0x3F)));
      out.push_back(char(0x80 | (code & 0x3F)));
    }
  }

  double parse_number() {
    const std::size_t start = pos_;
    if (peek() == '-') ++pos_;
    if (peek() == '0') {
      ++pos_;
    } else if (peek() >= '1' && peek() <= '9') {
      while (peek() >= '0' && peek() <= '9') ++pos_;
    } else {
      fail("bad number");
    }
    if (peek() == '.') {
      ++pos_;
      if (!(peek() >= '0' && peek() <= '9')) fail("bad number: digit expected after '.'");
      while (peek() >= '0' && peek() <= '9') ++pos_;
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      if (!(peek() >= '0' && peek() <= '9')) fail("bad number: digit expected in exponent");
      while (peek() >= '0' && peek() <= '9') ++pos_;
    }
    const std::string literal(text_.substr(start, pos_ - start));
    return std::strtod(literal.c_str(), nullptr);
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

inline Value parse(std::string_view text) { return Parser(text).parse_document(); }

using Member = std::pair<std::string, Value>;

// An object's members in the order JavaScript lists its keys (Object.keys, JSON.stringify):
// array-index keys ("0", "7": digits without a leading zero, below 2^32 - 1) first, by value,
// then the others in source order. The TypeScript validator meets objects in that order, so the
// C++ one walks them so too and both report the same first bad field.
inline std::vector<const Member*> js_key_order(const Value& obj) {
  const auto index_of = [](const std::string& k) -> std::int64_t {
    if (k.empty() || k.size() > 10 || (k[0] == '0' && k.size() > 1)) return -1;
    std::int64_t v = 0;
    for (char c : k) {
      if (c < '0' || c > '9') return -1;
      v = v * 10 + (c - '0');
    }
    return v < 4294967295 ? v : -1;
  };
  std::vector<const Member*> order;
  for (const Member& m : obj.object) order.push_back(&m);
  std::stable_sort(order.begin(), order.end(), [&](const Member* a, const Member* b) {
    const std::int64_t ia = index_of(a->first), ib = index_of(b->first);
    if (ia < 0 || ib < 0) return ia >= 0 && ib < 0;
    return ia < ib;
  });
  return order;
}

}  // namespace pipelab::json
