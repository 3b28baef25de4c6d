#include "posenc/render/rope_figures.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numbers>
#include <vector>

namespace posenc::render {
namespace {

/// One plot of the figure: `value(row, scaled)` per pair, before and (when scaled) after scaling.
/// "yarn", or "longrope (short_factor)": LongRoPE's frequencies depend on the list in use.
std::string method_name(const rope::RopeReport& r) {
  std::string s(rope::to_string(r.config.scaling));
  if (!r.freqs.longrope_list.empty()) s += fmt::format(" ({}_factor)", r.freqs.longrope_list);
  return s;
}

template <class F>
void add_curves(LineFigure& plot, const rope::RopeReport& r, bool scaled, F value) {
  LineSeries before{scaled ? "original" : "unscaled", {}};
  LineSeries after{method_name(r), {}};
  for (const auto& row : r.rows) {
    before.y.push_back(value(row, false));
    after.y.push_back(value(row, true));
  }
  plot.series.push_back(std::move(before));
  if (scaled) plot.series.push_back(std::move(after));
}

}  // namespace

LineFigure rope_report_figure(const rope::RopeReport& r) {
  const rope::RopeConfig& c = r.config;
  LineFigure f;
  const bool scaled = c.scaling != rope::RopeScaling::kNone;
  const std::string who = c.model_type.empty() ? std::string() : c.model_type + ", ";
  f.title = scaled ? fmt::format("RoPE wavelengths and frequencies: {}{} ×{:g}{}, d={}, base {}", who,
                                 rope::to_string(c.scaling), r.freqs.factor,
                                 r.freqs.longrope_list.empty() ? "" : fmt::format(" ({}_factor)", r.freqs.longrope_list),
                                 c.rotary_dim, c.base)
                   : fmt::format("RoPE wavelengths and frequencies: {}d={}, base {}", who, c.rotary_dim, c.base);
  std::vector<std::string> counts;
  auto count = [&](std::size_t n, const char* what) {
    if (n > 0) counts.push_back(fmt::format("{} {}", n, what));
  };
  count(r.unchanged, "unchanged");
  count(r.interpolated, "interpolated");
  count(r.blended, "blended");
  count(r.rescaled, "rescaled");
  count(r.zero, "not rotated");
  if (scaled) {
    f.subtitle = fmt::format("pairs: {}", fmt::join(counts, ", "));
    if (r.freqs.attention_factor != 1.0)
      f.subtitle += fmt::format("; attention factor {:.4g}", r.freqs.attention_factor);
    if (!r.freqs.longrope_list.empty() && c.seq_len <= 0 && c.convention != rope::RopeConvention::kGgml)
      f.subtitle += fmt::format("; {}_factor: no --seq-len", r.freqs.longrope_list);
  } else if (r.never_full_turn > 0) {
    f.subtitle = fmt::format("{} pairs never make a full turn within the original context", r.never_full_turn);
  }
  f.x_label = "pair i";
  f.y_label = "wavelength 2π/θ (positions)";
  f.log_y = true;
  f.height = 720;  // two plots
  for (const auto& row : r.rows) f.x.push_back(static_cast<double>(row.index));
  add_curves(f, r, scaled,
             [](const rope::RopePairRow& row, bool s) { return s ? row.wavelength : row.wavelength_original; });
  if (r.original_length > 0)
    f.references.push_back(
        {static_cast<double>(r.original_length), fmt::format("original context {}", r.original_length)});
  if (scaled && r.target_length > 0 && r.target_length != r.original_length)
    f.references.push_back({static_cast<double>(r.target_length), fmt::format("target length {}", r.target_length)});

  // The same pairs as inverse frequencies θ_i (radians per position); below 2π/L a pair makes
  // less than one turn within L positions.
  LineFigure freq;
  freq.title = "inverse frequency θ per pair";
  freq.y_label = "θ (radians per position)";
  freq.log_y = true;
  add_curves(freq, r, scaled,
             [](const rope::RopePairRow& row, bool s) { return s ? row.inv_freq : row.inv_freq_original; });
  const double two_pi = 2.0 * std::numbers::pi;
  if (r.original_length > 0)
    freq.references.push_back({two_pi / static_cast<double>(r.original_length),
                               fmt::format("one turn in {} (2π/{})", r.original_length, r.original_length)});
  if (scaled && r.target_length > 0 && r.target_length != r.original_length)
    freq.references.push_back({two_pi / static_cast<double>(r.target_length),
                               fmt::format("one turn in {} (2π/{})", r.target_length, r.target_length)});
  f.panels.push_back(std::move(freq));
  return f;
}

}  // namespace posenc::render

namespace posenc::render {

LineFigure rope_diff_figure(const rope::RopeDiff& d, const reports::RopeDiffLabels& labels, double tol,
                                    std::int64_t len) {
  LineFigure f;
  f.title = fmt::format("RoPE {} vs {}: differences per pair", labels.a, labels.b);
  f.subtitle = fmt::format("largest: θ {:.2e} relative (pair {}), cos/sin {:.2e}; {} --tol {:g}", d.inv_freq_max_rel,
                           d.inv_freq_worst_pair, std::max(d.cos_max_abs, d.sin_max_abs),
                           d.within(tol) ? "within" : "above", tol);
  f.x_label = "pair i";
  f.y_label = "relative difference";
  f.log_y = true;
  f.height = 720;
  for (std::size_t i = 0; i < d.pairs; ++i) f.x.push_back(static_cast<double>(i));
  // A pair with no difference has no point on a log axis; the curve breaks there.
  f.series.push_back({"|Δθ| / θ", d.inv_freq_rel});
  f.references.push_back({tol, fmt::format("--tol {:g}", tol)});
  LineFigure table;
  table.title = fmt::format("largest |Δcos|, |Δsin| over positions 0 … {}", len - 1);
  table.y_label = "absolute difference";
  table.log_y = true;
  table.series.push_back({"max |Δcos|, |Δsin|", d.table_max_abs});
  table.references.push_back({tol, fmt::format("--tol {:g}", tol)});
  f.panels.push_back(std::move(table));
  return f;
}

}  // namespace posenc::render
