#pragma once
// Pieces shared by the analysis commands (decay, similarity, project, check): --vary, the table
// an analysis reads, JSON and CSV text. What each scheme is to the analyses is the library's
// (posenc/analysis/scheme_traits.hpp).
#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

#include "posenc/params.hpp"
#include "posenc/table.hpp"
#include "scheme_options.hpp"

namespace posenc::cli {

/// One parameter setting of a --vary run: its label ("base=100") and the scheme's values.
struct Variant {
  std::string label;
  ParamMap params;
};
/// `vary` is "" (one variant, no label) or NAME=V1,V2,... with NAME a parameter of `scheme`;
/// each value is checked like the flag itself (type, range, choices). Throws Error naming --vary.
std::vector<Variant> make_variants(const std::string& scheme, const ParamMap& base, const std::string& vary);

/// The table an analysis reads: the --input file, or the scheme's with analysis::analysis_params.
std::unique_ptr<Table> analysis_table(const SchemeOptions& source);

/// {"name": value, ...} in order.
nlohmann::ordered_json entries_json(const std::vector<std::pair<std::string, ParamValue>>& entries);

/// Text of a number for CSV and text output (fmt "{}"; float32 rounds first); nan, inf, -inf.
std::string number_text(double v, bool float32);

/// A CSV field, quoted when it holds a comma, quote or newline.
std::string csv_field(const std::string& s);

}  // namespace posenc::cli
