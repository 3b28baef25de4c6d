#pragma once
// Pieces shared by the analysis commands (decay, similarity, project, check): what kind
// of scheme a table is, RoPE frequencies read from a rope table, --vary, JSON echoes.
#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

#include "posenc/analysis/rotary.hpp"
#include "posenc/params.hpp"
#include "posenc/table.hpp"
#include "scheme_options.hpp"

namespace posenc::cli {

/// Absolute tables have one vector per position; rope rotates q and k; bias schemes add to logits.
enum class SchemeKind { kAbsolute, kRope, kBias };
SchemeKind scheme_kind(const std::string& scheme);  ///< "" (an --input table) is absolute

/// The entry `name` of params or results, or nullptr.
const ParamValue* find_entry(const std::vector<std::pair<std::string, ParamValue>>& entries, const std::string& name);

/// θ_i (after any scaling) and layout of a rope table, read from its echoed results
/// ("inv_freq") and params ("layout").
struct RopeView {
  std::vector<double> theta;
  analysis::RopeLayout layout = analysis::RopeLayout::kHalf;
};
RopeView rope_view(const TableInfo& info);

/// One parameter setting of a --vary run: its label ("base=100") and the scheme's values.
struct Variant {
  std::string label;
  ParamMap params;
};
/// `vary` is "" (one variant, no label) or NAME=V1,V2,... with NAME a parameter of `scheme`;
/// each value is checked like the flag itself (type, range, choices). Throws Error naming --vary.
std::vector<Variant> make_variants(const std::string& scheme, const ParamMap& base, const std::string& vary);

/// The scheme's values as the analyses use them: rope computes in float64 unless --precision is
/// given (the analyses study the formula; `--precision f32` emulates the references' float32).
ParamMap analysis_params(const std::string& scheme, ParamMap params);

/// The table an analysis reads: the --input file, or the scheme's with analysis_params.
std::unique_ptr<Table> analysis_table(const SchemeOptions& source);

/// The scheme's table with --len raised to `rows` when the user did not give --len.
std::unique_ptr<Table> scheme_table(const std::string& scheme, ParamMap params, std::size_t rows);

/// {"name": value, ...} in order.
nlohmann::ordered_json entries_json(const std::vector<std::pair<std::string, ParamValue>>& entries);

/// Text of a number for CSV and text output (fmt "{}"; float32 rounds first); nan, inf, -inf.
std::string number_text(double v, bool float32);

/// A CSV field, quoted when it holds a comma, quote or newline.
std::string csv_field(const std::string& s);

}  // namespace posenc::cli
