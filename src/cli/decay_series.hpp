#pragma once
// The words of `posenc decay --compare 'SCHEME [options]'` (the curves are the library's:
// posenc/analysis/decay_run.hpp).
#include <memory>
#include <string>
#include <vector>

#include "posenc/analysis/decay_sources.hpp"
#include "scheme_options.hpp"

namespace posenc::cli {

/// One `--compare "SCHEME [options]"`, parsed the way the words after `posenc decay` are.
struct Compared {
  std::string spec;
  CLI::App app{"", "decay --compare"};
  SchemeOptions source;
};
/// Throws Error "--compare 'SPEC': ..." for unknown words or values. The words are split as a
/// POSIX shell splits them: at blanks outside quotes; '...' keeps everything, "..." keeps all
/// but \" and \\, a backslash outside quotes keeps the next character (--input 'my table.npy').
std::unique_ptr<Compared> parse_compare(const std::string& spec);
/// The words of `spec` as parse_compare splits them (the library's: decay_sources.hpp).
using analysis::split_words;

}  // namespace posenc::cli
