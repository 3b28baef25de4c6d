#include "posenc/text.hpp"

#include <algorithm>
#include <numeric>

namespace posenc {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  std::iota(prev.begin(), prev.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string did_you_mean(std::string_view given, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_d = 0;
  for (const auto& c : candidates) {
    // A prefix ("sin" for "sinusoidal") is a good guess even when far in edits.
    const std::size_t d = c.rfind(given, 0) == 0 && !given.empty() ? 1 : edit_distance(given, c);
    if (best.empty() || d < best_d) {
      best = c;
      best_d = d;
    }
  }
  const std::size_t limit = std::max<std::size_t>(2, given.size() / 3);
  if (best.empty() || best_d > limit) return "";
  return ", did you mean '" + best + "'?";
}

std::string join_choices(const std::vector<std::string>& choices) {
  std::string out;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (i > 0) out += (i + 1 == choices.size()) ? " or " : ", ";
    out += choices[i];
  }
  return out;
}

std::string counted(std::int64_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

namespace {

/// Length of the valid UTF-8 sequence starting at s[i] (2..4), or 0.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  std::size_t n = 0;
  unsigned min = 0;
  if (c >= 0xC2 && c <= 0xDF) n = 2, min = 0x80;
  else if (c >= 0xE0 && c <= 0xEF) n = 3, min = 0x800;
  else if (c >= 0xF0 && c <= 0xF4) n = 4, min = 0x10000;
  else return 0;
  if (i + n > s.size()) return 0;
  unsigned cp = c & (0x7F >> n);
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

}  // namespace

std::string printable(std::string_view bytes, std::size_t max, bool* escaped) {
  static const char* const kHex = "0123456789abcdef";
  std::string out;
  bool any = false;
  std::size_t i = 0;
  for (; i < bytes.size() && out.size() < max; ++i) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
    } else if (const std::size_t n = c >= 0x80 ? utf8_length(bytes, i) : 0; n > 0) {
      out.append(bytes.substr(i, n));
      i += n - 1;
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
      any = true;
    }
  }
  if (i < bytes.size()) out += "...";
  if (escaped != nullptr) *escaped = any;
  return out;
}

}  // namespace posenc
