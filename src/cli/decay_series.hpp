#pragma once
// The words of `posenc decay --compare 'SCHEME [options]'`, and the curves of a scheme or an
// --input table (the curves themselves are the library's: posenc/analysis/scheme_decay.hpp).
#include <memory>
#include <string>
#include <vector>

#include "posenc/analysis/scheme_decay.hpp"
#include "posenc/params.hpp"
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
/// The words of `spec` as parse_compare splits them; throws Error for an unterminated quote.
std::vector<std::string> split_words(const std::string& spec);

/// The curves of the --input table of `source` when `scheme` is "", else of `scheme` with
/// `params` (analysis::scheme_decay_curves).
analysis::DecayCurves decay_curves(const std::string& scheme, const ParamMap& params, const SchemeOptions& source,
                                   const analysis::DecayRequest& r);

}  // namespace posenc::cli
