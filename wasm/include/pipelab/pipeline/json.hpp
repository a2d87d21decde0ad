// A small JSON reader for what the page hands C++ (an ExperimentSpec, a race config): values,
// objects in source order, syntax errors by byte offset.
//
// Why our own: the em++ sysroot has no JSON library, and the texts are a few hundred bytes that
// the app's TypeScript wrote with JSON.stringify, so a recursive-descent reader over string_view
// is enough. It must survive any bytes (the spec fuzzers feed it garbage): nesting is capped at 64
// levels, a duplicate key is an error (a second value must not silently win), numbers are IEEE
// doubles as in JavaScript. Strings are UTF-8; an escaped surrogate pair becomes one code point, a
// lone escaped surrogate its own 3 bytes (JSON.stringify writes a lone surrogate escaped).
// Not thread-safe by design: one parse per call, no shared state.
#pragma once

#include <cstdlib>
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
    while (pos_ < text_.size() && std::string_view(" \n\r\t").find(text_[pos_]) != npos) ++pos_;
  }
  char peek() const noexcept { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool digit() const noexcept { return peek() >= '0' && peek() <= '9'; }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  bool consume(std::string_view w) noexcept {
    if (text_.substr(pos_, w.size()) != w) return false;
    pos_ += w.size();
    return true;
  }

  Value parse_value(int depth) {
    if (depth > 64) fail("nesting deeper than 64 levels");
    skip_ws();
    Value v;
    const char c = peek();
    if (c == '{' || c == '[') {
      parse_container(v, depth, c == '{');
    } else if (c == '"') {
      v.type = Value::Type::kString;
      v.string = parse_string();
    } else if (consume("true") || consume("false")) {
      v.type = Value::Type::kBool;
      v.boolean = c == 't';
    } else if (consume("null")) {
      v.type = Value::Type::kNull;
    } else if (c == '-' || digit()) {
      v.type = Value::Type::kNumber;
      v.number = parse_number();
    } else {
      fail("expected a value");
    }
    return v;
  }

  // An object's members or an array's items, comma-separated up to the closing bracket.
  void parse_container(Value& v, int depth, bool is_object) {
    v.type = is_object ? Value::Type::kObject : Value::Type::kArray;
    const char close = is_object ? '}' : ']';
    ++pos_;
    skip_ws();
    if (peek() == close) {
      ++pos_;
      return;
    }
    for (;;) {
      skip_ws();
      if (is_object) {
        std::string key = parse_string();
        if (v.find(key) != nullptr) fail("duplicate key \"" + key + "\"");
        skip_ws();
        expect(':');
        Value member = parse_value(depth + 1);
        v.object.emplace_back(std::move(key), std::move(member));
      } else {
        v.array.push_back(parse_value(depth + 1));
      }
      skip_ws();
      if (peek() != ',') break;
      ++pos_;
    }
    expect(close);
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
      // Escape letters and what they stand for, in pairs.
      static constexpr std::string_view kEscapes = "\"\"\\\\//b\bf\fn\nr\rt\t";
      const char e = peek();
      ++pos_;
      const std::size_t at = kEscapes.find(e);
      if (e == 'u') {
        append_utf8(out, parse_code_point());
      } else if (e != '\0' && at != npos && at % 2 == 0) {
        out.push_back(kEscapes[at + 1]);
      } else {
        fail("bad escape in string");
      }
    }
  }

  unsigned parse_hex4() {
    if (pos_ + 4 > text_.size()) fail("short \\u escape");
    unsigned code = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = text_[pos_++];
      const char lower = char(h | 0x20);
      const unsigned d = h >= '0' && h <= '9'           ? unsigned(h - '0')
                         : lower >= 'a' && lower <= 'f' ? unsigned(lower - 'a' + 10)
                                                        : 16;
      if (d == 16) fail("bad hex digit in \\u escape");
      code = code << 4 | d;
    }
    return code;
  }

  // After the "u" of an escape: a code unit, or a whole code point when a high surrogate is
  // followed at once by an escaped low one (d83d de00 is U+1F600, 4 bytes).
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
    const int tail = code < 0x80 ? 0 : code < 0x800 ? 1 : code < 0x10000 ? 2 : 3;
    static constexpr unsigned char kLead[] = {0x00, 0xC0, 0xE0, 0xF0};
    out.push_back(char(kLead[tail] | (code >> (6 * tail))));
    for (int i = tail - 1; i >= 0; --i) out.push_back(char(0x80 | ((code >> (6 * i)) & 0x3F)));
  }

  // RFC 8259's grammar, checked before strtod reads the digits (strtod alone takes "1.", "0x1").
  double parse_number() {
    const std::size_t start = pos_;
    consume("-");
    if (!digit()) fail("bad number");
    if (!consume("0")) {
      while (digit()) ++pos_;
    }
    if (consume(".")) {
      if (!digit()) fail("bad number: digit expected after '.'");
      while (digit()) ++pos_;
    }
    if (consume("e") || consume("E")) {
      if (!consume("+")) consume("-");
      if (!digit()) fail("bad number: digit expected in exponent");
      while (digit()) ++pos_;
    }
    return std::strtod(std::string(text_.substr(start, pos_ - start)).c_str(), nullptr);
  }

  static constexpr std::size_t npos = std::string_view::npos;
  std::string_view text_;
  std::size_t pos_ = 0;
};

inline Value parse(std::string_view text) { return Parser(text).parse_document(); }

}  // namespace pipelab::json
