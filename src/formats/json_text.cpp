#include "posenc/formats/json_text.hpp"

#include <array>
#include <cctype>

namespace posenc::formats {
namespace {

constexpr std::string_view kMark = "\xEE\x80\x80";  // U+E000 in UTF-8
constexpr std::array<std::string_view, 3> kLiterals = {"-Infinity", "Infinity", "NaN"};

/// The last character before `i` that is not white space, or 0.
char previous_token(std::string_view text, std::size_t i) {
  while (i > 0) {
    const char ch = text[--i];
    if (ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r') return ch;
  }
  return 0;
}

bool word_char(char ch) { return std::isalnum(static_cast<unsigned char>(ch)) != 0 || ch == '_'; }

}  // namespace

std::string python_json_literals(std::string_view text, std::vector<std::size_t>* replaced) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (in_string) {
      out += ch;
      if (ch == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (ch == '"') {
        in_string = false;
      }
      continue;
    }
    if (ch == '"') {
      in_string = true;
      out += ch;
      continue;
    }
    bool done = false;
    const char before = previous_token(text, i);
    if (before == ':' || before == '[' || before == ',') {
      for (const auto lit : kLiterals) {
        const std::size_t end = i + lit.size();
        if (text.substr(i, lit.size()) == lit && (end == text.size() || !word_char(text[end]))) {
          if (replaced != nullptr) replaced->push_back(i);
          out += '"';
          out += kMark;
          out += lit;
          out += '"';
          i = end - 1;
          done = true;
          break;
        }
      }
    }
    if (!done) out += ch;
  }
  return out;
}

std::size_t original_offset(std::size_t offset, const std::vector<std::size_t>& replaced) {
  // Replacement k starts at replaced[k] + 5k in the result and is 5 bytes longer than the literal.
  std::size_t shift = 0;
  for (std::size_t k = 0; k < replaced.size() && replaced[k] + shift < offset; ++k) shift += 5;
  return offset >= shift ? offset - shift : 0;
}

std::string_view nonfinite_literal(std::string_view s) {
  if (s.substr(0, kMark.size()) != kMark) return {};
  const std::string_view lit = s.substr(kMark.size());
  for (const auto l : kLiterals)
    if (lit == l) return l;
  return {};
}

}  // namespace posenc::formats
