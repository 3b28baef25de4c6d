#pragma once
// Pieces shared by the analysis commands (decay, similarity, project, check): --vary, the table
// an analysis reads, JSON and CSV text. What each scheme is to the analyses is the library's
// (posenc/analysis/scheme_traits.hpp).
#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

#include "posenc/analysis/decay_sources.hpp"
#include "posenc/params.hpp"
#include "posenc/table.hpp"
#include "scheme_options.hpp"

namespace posenc::cli {

/// --vary's settings are the library's (posenc/analysis/decay_sources.hpp).
using analysis::make_variants;
using analysis::Variant;

/// The table an analysis reads: the --input file, or the scheme's with analysis::analysis_params.
std::unique_ptr<Table> analysis_table(const SchemeOptions& source);

/// {"name": value, ...} in order.
nlohmann::ordered_json entries_json(const std::vector<std::pair<std::string, ParamValue>>& entries);

/// Text of a number for CSV and text output (fmt "{}"; float32 rounds first); nan, inf, -inf.
std::string number_text(double v, bool float32);

/// A CSV field, quoted when it holds a comma, quote or newline.
std::string csv_field(const std::string& s);

}  // namespace posenc::cli
