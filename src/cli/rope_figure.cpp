#include "rope_figure.hpp"

#include <fmt/format.h>

#include <vector>

namespace posenc::cli {

render::LineFigure rope_report_figure(const encodings::RopeReport& r) {
  const encodings::RopeConfig& c = r.config;
  render::LineFigure f;
  const bool scaled = c.scaling != encodings::RopeScaling::kNone;
  const std::string who = c.model_type.empty() ? std::string() : c.model_type + ", ";
  f.title = scaled ? fmt::format("RoPE wavelengths: {}{} ×{:g}, d={}, base {}", who, encodings::to_string(c.scaling),
                                 r.freqs.factor, c.rotary_dim, c.base)
                   : fmt::format("RoPE wavelengths: {}d={}, base {}", who, c.rotary_dim, c.base);
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
    if (r.freqs.attention_factor != 1.0) f.subtitle += fmt::format("; attention factor {:.4g}", r.freqs.attention_factor);
  } else if (r.never_full_turn > 0) {
    f.subtitle = fmt::format("{} pairs never make a full turn within the original context", r.never_full_turn);
  }
  f.x_label = "pair i";
  f.y_label = "wavelength 2π/θ (positions)";
  f.log_y = true;
  render::LineSeries before{scaled ? "original" : "wavelength", {}}, after{fmt::format("{}", encodings::to_string(c.scaling)), {}};
  for (const auto& row : r.rows) {
    f.x.push_back(static_cast<double>(row.index));
    before.y.push_back(row.wavelength_original);
    after.y.push_back(row.wavelength);
  }
  f.series.push_back(std::move(before));
  if (scaled) f.series.push_back(std::move(after));
  if (r.original_length > 0)
    f.references.push_back({static_cast<double>(r.original_length), fmt::format("original context {}", r.original_length)});
  if (scaled && r.target_length > 0 && r.target_length != r.original_length)
    f.references.push_back({static_cast<double>(r.target_length), fmt::format("target length {}", r.target_length)});
  return f;
}

}  // namespace posenc::cli
