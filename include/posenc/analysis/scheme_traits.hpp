#pragma once
/// How the analyses (decay, similarity, project, check) treat each scheme: what kind of
/// table it is, whether later keys are masked, what its values are called, the parameter
/// values the analyses use and the rotary frequencies a rope table reports. Every per-scheme
/// decision of the analyses is made here, so that any front end answers alike.
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "posenc/analysis/rotary.hpp"
#include "posenc/params.hpp"
#include "posenc/table.hpp"

namespace posenc::analysis {

/// Absolute tables have one vector per position; rope rotates q and k; bias schemes add to logits.
enum class SchemeKind { kAbsolute, kRope, kBias };

/// The kind of `scheme`: rope → kRope; alibi, t5, deberta, shaw, kerple, sandwich, fire → kBias
/// (fire's table is the input of its bias MLP); every other name, ""
/// (an --input table) and "input" → kAbsolute (mrope and axial-rope analyse their rotated
/// rows as position vectors; their identities are the axial ones, see is_axial).
SchemeKind scheme_kind(const std::string& scheme);

/// True for the schemes with several position axes (mrope, axial-rope): their identities are
/// checked per axis (axial-relative, text-reduces-to-rope, rope-norm).
bool is_axial(const std::string& scheme);

/// True for alibi, kerple, sandwich --form causal, t5 --mode causal and xpos (causal only, as
/// x-transformers asserts): later keys are masked, decay offsets run −K..0.
bool is_causal(const std::string& scheme, const ParamMap& params);

/// What a bias scheme's values are: "bias" (alibi, kerple, sandwich), "bucket" (t5, deberta),
/// "input" (fire: its MLP's input); "" for the others.
std::string bias_value_name(const std::string& scheme);

/// The name of a decay curve's values for `scheme` (the first scheme of a run) and `metric`:
/// the bias value name, "score" for rope's dot product, "" for the metric itself.
std::string decay_value_name(const std::string& scheme, const std::string& metric);

/// Why a scheme's own table holds −inf entries ("causal alibi masks future keys with -inf"; kerple
/// and sandwich alike),
/// read from the table's echoed scheme and params; "" when the scheme masks nothing.
std::string masked_entries_reason(const TableInfo& info);

/// True for integer, whose values are the positions themselves (float32 rounds them past 2^24).
bool values_are_positions(const std::string& scheme);

/// True for binary, whose values are the bits 0 and 1 of the position (one column per bit).
bool values_are_bits(const std::string& scheme);

/// True for the bias tables whose heatmaps reduce by max when downsampled (alibi, t5, deberta):
/// their cells are stepped (buckets, slope steps), and averaging would blur the zero diagonal.
bool heatmap_reduces_by_max(const std::string& scheme);

/// The entry `name` of params or results, or nullptr.
const ParamValue* find_entry(const std::vector<std::pair<std::string, ParamValue>>& entries, const std::string& name);

/// θ_i (after any scaling) and layout of a rope table, read from its echoed results
/// ("inv_freq") and params ("layout"). Throws Error when the table reports no inv_freq.
struct RopeView {
  std::vector<double> theta;
  RopeLayout layout = RopeLayout::kHalf;
};
RopeView rope_view(const TableInfo& info);

/// The scheme's values as the analyses use them: rope computes in float64 unless precision
/// was given (the analyses study the formula; f32 emulates the references' float32), and each
/// scheme's analysis_defaults fill the parameters not given. `scheme` "" returns params as is.
ParamMap analysis_params(const std::string& scheme, ParamMap params);

/// The scheme's table with len raised to `rows` (at least 1) when len was not given.
std::unique_ptr<Table> scheme_table(const std::string& scheme, ParamMap params, std::size_t rows);

/// Values that follow from the parameters and that an analysis echoes with them: alibi's
/// "slopes" of its heads (of its --variant); empty for the other schemes, and when `varied` (a
/// parameter given several values) is one they follow from (heads, bias-max).
std::vector<std::pair<std::string, ParamValue>> derived_values(const std::string& scheme, const ParamMap& params,
                                                               const std::string& varied = "");

}  // namespace posenc::analysis
