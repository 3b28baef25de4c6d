#include "decay_series.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "parse_errors.hpp"
#include "posenc/error.hpp"

namespace posenc::cli {

std::vector<std::string> split_words(const std::string& spec) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < spec.size(); ++i) {
    const char ch = spec[i];
    if (ch == ' ' || ch == '\t' || ch == '\n') {
      if (in_word) words.push_back(word), word.clear(), in_word = false;
      continue;
    }
    in_word = true;
    if (ch == '\'') {
      const std::size_t end = spec.find('\'', i + 1);
      if (end == std::string::npos) throw Error("unterminated ' quote");
      word.append(spec, i + 1, end - i - 1);
      i = end;
    } else if (ch == '"') {
      std::size_t j = i + 1;
      for (; j < spec.size() && spec[j] != '"'; ++j) {
        if (spec[j] == '\\' && j + 1 < spec.size() && (spec[j + 1] == '"' || spec[j + 1] == '\\')) ++j;
        word.push_back(spec[j]);
      }
      if (j >= spec.size()) throw Error("unterminated \" quote");
      i = j;
    } else if (ch == '\\' && i + 1 < spec.size()) {
      word.push_back(spec[++i]);
    } else {
      word.push_back(ch);
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

std::unique_ptr<Compared> parse_compare(const std::string& spec) {
  auto c = std::make_unique<Compared>();
  c->spec = spec;
  c->source.bind(c->app);
  std::vector<std::string> words;
  try {
    words = split_words(spec);
    std::reverse(words.begin(), words.end());  // CLI11 takes argv reversed
    c->app.parse(words);
    c->source.scheme();  // unknown words, neither or both of SCHEME and --input
  } catch (const CLI::ParseError& e) {
    throw Error(fmt::format("--compare '{}': {}", spec, parse_error_message(c->app, e)));
  } catch (const Error& e) {
    throw Error(fmt::format("--compare '{}': {}", spec, e.what()));
  }
  return c;
}

}  // namespace posenc::cli
