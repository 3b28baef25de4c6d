#include "decay_series.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "parse_errors.hpp"
#include "posenc/error.hpp"

namespace posenc::cli {

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
