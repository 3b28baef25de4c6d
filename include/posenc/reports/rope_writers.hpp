#pragma once
/// Writers for `posenc rope`: the per-pair report, the diff of two configurations and the
/// interleaved↔half permutation, as aligned text, CSV or JSON. They only format.
/// Numbers in CSV and JSON are shortest round-trip; NaN (a quantity that does not apply, e.g.
/// the blend weight of an NTK pair) is `nan` in CSV, `-` in text and null in JSON; an infinite
/// wavelength (a zero frequency) is `inf` in CSV and text and null in JSON.
#include <ostream>
#include <string>

#include "posenc/rope/rope_apply.hpp"
#include "posenc/rope/rope_report.hpp"

namespace posenc::reports {

/// Aligned table (one row per pair), then the summary, the resolved settings and warnings.
void write_rope_report_text(const rope::RopeReport& r, std::ostream& out);

/// CSV, one row per pair: pair,dim_a,dim_b,inv_freq_original,inv_freq,wavelength_original,
/// wavelength,turns_original,turns_target,regime,blend.
void write_rope_report_csv(const rope::RopeReport& r, std::ostream& out);

/// JSON object with stable keys: rope_type, convention, precision, layout, head_dim,
/// rotary_dim, base, factor, original_length (null = not set), original_length_source,
/// target_length, target_length_source, attention_factor, logit_scale,
/// inv_freq, inv_freq_original, pairs[], yarn, llama3, longrope_list, never_full_turn,
/// regimes{}, settings[], warnings[], notes[].
void write_rope_report_json(const rope::RopeReport& r, std::ostream& out);

/// Labels for the two sides of a diff ("hf", "ggml", or two file names).
struct RopeDiffLabels {
  std::string a = "a", b = "b";
};

/// The largest differences and whether they are within `tol`.
void write_rope_diff_text(const rope::RopeDiff& d, const RopeDiffLabels& labels, double tol, std::int64_t len,
                          std::ostream& out);
/// JSON: a, b, pairs, len, tol, within, inv_freq_max_abs, inv_freq_max_rel, inv_freq_worst_pair,
/// attention_factor_a, attention_factor_b, cos_max_abs, sin_max_abs, worst_position, worst_pair,
/// same_layout, per_pair {inv_freq_rel, table_max_abs} (one value per pair).
void write_rope_diff_json(const rope::RopeDiff& d, const RopeDiffLabels& labels, double tol, std::int64_t len,
                          std::ostream& out);

/// `half_row <- interleaved_row` lines, then the inverse.
void write_rope_permutation_text(const rope::RopePermutation& p, std::ostream& out);
/// JSON: dim, to_half, to_interleaved, rule.
void write_rope_permutation_json(const rope::RopePermutation& p, std::ostream& out);

}  // namespace posenc::reports
