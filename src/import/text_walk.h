// The text walker shared by the pre-read checks of assimp's text parsers (text_checks.cpp for
// MD5/SMD, x_check.cpp for DirectX .x): assimp's character classes and number readers, modelled
// byte for byte on the copy of the file assimp parses (the file and one terminating NUL).
// Internal to src/io.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace sv::text_walk {

// assimp's character classes (ParsingUtils.h).
inline bool is_space(char c) { return c == ' ' || c == '\t'; }
inline bool is_line_end(char c) { return c == '\r' || c == '\n' || c == '\0' || c == '\f'; }
inline bool is_space_or_newline(char c) { return is_space(c) || is_line_end(c); }

// A text walked as assimp walks its own copy: `buf` holds the file and one terminating NUL at
// `end`. Positions past `end` are outside assimp's buffer.
struct Walk {
  std::string_view text;  // as the file holds it (line numbers are counted here)
  std::string buf;
  std::size_t end = 0;
  explicit Walk(std::string_view t) : text(t), buf(t), end(t.size()) { buf.push_back('\0'); }
  char at(std::size_t p) const { return p <= end ? buf[p] : '\0'; }
  std::size_t line_of(std::size_t p) const {
    return 1 +
           static_cast<std::size_t>(std::count(
               text.begin(), text.begin() + static_cast<std::ptrdiff_t>(std::min(p, end)), '\n'));
  }
  void skip_spaces(std::size_t& p) const {
    while (is_space(at(p))) ++p;
  }
  bool skip_spaces_and_line_end(std::size_t& p) const {
    for (char c = at(p); c == ' ' || c == '\t' || c == '\r' || c == '\n'; c = at(p)) ++p;
    return at(p) != '\0';
  }
  void skip_line(std::size_t& p) const {
    while (at(p) != '\r' && at(p) != '\n' && at(p) != '\0') ++p;
    while (at(p) == '\r' || at(p) == '\n') ++p;
  }
  bool token_match(std::size_t& p, std::string_view token) const {
    if (buf.compare(p, token.size(), token) != 0 || !is_space_or_newline(at(p + token.size())))
      return false;
    p += token.size() + (at(p + token.size()) != '\0' ? 1 : 0);
    return true;
  }
  // strtoul10: leading digits, 32-bit wrap-around; does not move on a non-digit.
  uint32_t strtoul10(std::size_t& p) const {
    uint32_t v = 0;
    while (at(p) >= '0' && at(p) <= '9') v = v * 10 + static_cast<uint32_t>(at(p++) - '0');
    return v;
  }
  int32_t strtol10(std::size_t& p) const {
    const bool neg = at(p) == '-';
    if (neg || at(p) == '+') ++p;
    const uint32_t v = strtoul10(p);
    return static_cast<int32_t>(neg ? 0u - v : v);
  }
  // fast_atoreal_move's movement. Returns false where it would throw (not a number); `stuck`
  // is set where it returns without moving (an integer part beyond 2^64: strtoul10_64 gives up).
  bool atof(std::size_t& p, bool* stuck = nullptr) const {
    if (at(p) == '-' || at(p) == '+') ++p;
    auto ieq = [&](std::size_t q, std::string_view w) {
      for (std::size_t i = 0; i < w.size(); ++i)
        if ((at(q + i) | 0x20) != w[i]) return false;
      return true;
    };
    if (ieq(p, "nan")) {
      p += 3;
      return true;
    }
    if (ieq(p, "inf")) {
      p += 3;
      if (ieq(p, "inity")) p += 5;
      return true;
    }
    auto digit = [&](std::size_t q) { return at(q) >= '0' && at(q) <= '9'; };
    if (!digit(p) && !((at(p) == '.' || at(p) == ',') && digit(p + 1))) return false;
    if (at(p) != '.' && at(p) != ',') {
      // strtoul10_64: on overflow it returns 0 and leaves the pointer where it was.
      uint64_t v = 0;
      std::size_t q = p;
      while (digit(q)) {
        const uint64_t next = v * 10 + static_cast<uint64_t>(at(q) - '0');
        if (v > UINT64_MAX / 10 || next < v) {
          if (stuck) *stuck = true;  // left after the sign: the next read starts here again
          return true;
        }
        v = next;
        ++q;
      }
      p = q;
    }
    if ((at(p) == '.' || at(p) == ',') && digit(p + 1)) {
      ++p;
      while (digit(p)) ++p;  // 15 digits read, the rest skipped: no overflow
    } else if (at(p) == '.') {
      ++p;
    }
    if (at(p) == 'e' || at(p) == 'E') {
      ++p;
      if (at(p) == '-' || at(p) == '+') ++p;
      if (!digit(p)) return false;  // strtoul10_64 throws on a non-digit
      uint64_t v = 0;
      std::size_t q = p;
      while (digit(q)) {
        const uint64_t next = v * 10 + static_cast<uint64_t>(at(q) - '0');
        if (v > UINT64_MAX / 10 || next < v) return true;  // left on the exponent's digits
        v = next;
        ++q;
      }
      p = q;
    }
    return true;
  }
};

}  // namespace sv::text_walk
