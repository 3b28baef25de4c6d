#pragma once
/// What the curves of one `posenc decay` run come from, for every front end: the settings of
/// `--vary NAME=V1,V2,...`, a `--compare 'SCHEME --NAME VALUE ...'` spec read as words, and a
/// table of the user's (`--input FILE`).
#include <memory>
#include <string>
#include <vector>

#include "posenc/formats/readers.hpp"
#include "posenc/params.hpp"
#include "posenc/table.hpp"

namespace posenc::analysis {

/// One parameter setting of a --vary run: its label ("base=100") and the scheme's values.
struct Variant {
  std::string label;
  ParamMap params;
};
/// `vary` is "" (one variant, no label) or NAME=V1,V2,... with NAME a parameter of `scheme`;
/// each value is checked like the flag itself (type, range, choices). Throws Error naming --vary.
std::vector<Variant> make_variants(const std::string& scheme, const ParamMap& base, const std::string& vary);

/// `spec` split into words as a POSIX shell splits them: at blanks outside quotes; '...' keeps
/// everything, "..." keeps all but \" and \\, a backslash outside quotes keeps the next
/// character. Throws Error for an unterminated quote.
std::vector<std::string> split_words(const std::string& spec);

/// A scheme and its options, or an input file, as the words of a --compare spec.
struct SchemeWords {
  std::string scheme;  ///< "" with `input`
  ParamMap values;     ///< every parameter of the scheme, `given` for the words given
  std::string input;   ///< --input FILE
};
/// Reads `spec` ("learned --dim 128", "rope --dim=64 --scaling yarn --factor 4", "--input t.npy")
/// without a command-line parser: SCHEME, then --NAME VALUE or --NAME=VALUE for parameters of the
/// scheme (a true/false parameter also as a bare --NAME), each checked as the flag is; or
/// --input FILE alone. Throws Error "compare='SPEC': RULE" (`where` names the option).
SchemeWords parse_scheme_words(const std::string& spec, const std::string& where = "compare");

/// The table of `path` as `--input` reads it (a 2-D table; with max_axes 3 also H x N x M):
/// its index column's name and first value, its column names, titled "table from PATH".
/// What the reader decided for the user goes to `notes` when given.
std::unique_ptr<Table> input_table(const std::string& path, const formats::ReadOptions& options,
                                   std::vector<std::string>* notes = nullptr);

}  // namespace posenc::analysis
