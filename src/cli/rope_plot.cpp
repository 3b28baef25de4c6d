// The PNG of `posenc rope --format png`: two stacked line plots over the pair index, log10 of
// inv_freq (top) and of the wavelength in tokens (bottom), each before and after scaling, with
// dashed lines at the original and target context lengths in the wavelength panel. The plots
// have no text yet (render/line_plot draws none): what each curve is goes into tEXt chunks.
#include "rope_command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "posenc/render/line_plot.hpp"

namespace posenc::cli {
namespace {

constexpr int kWidth = 800;
constexpr int kPanelHeight = 400;
constexpr render::Rgb kReference{120, 120, 120};

std::vector<double> log10_of(const std::vector<double>& v) {
  std::vector<double> out;
  for (double x : v) out.push_back(x > 0 && std::isfinite(x) ? std::log10(x) : std::numeric_limits<double>::quiet_NaN());
  return out;
}

/// The frame line_plot uses for these series (same rule: finite values, first and last x).
render::PlotFrame frame_of(const render::PlotOptions& opt, const std::vector<double>& x,
                           const std::vector<std::vector<double>>& series) {
  double lo = INFINITY, hi = -INFINITY;
  for (const auto& s : series)
    for (double v : s)
      if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  if (!std::isfinite(lo)) lo = hi = 0.0;
  return render::make_frame(opt, x.front(), x.back(), lo, hi);
}

void dashed_hline(render::Image& img, const render::PlotFrame& f, double y) {
  if (!(y >= f.y_min && y <= f.y_max)) return;
  const int py = static_cast<int>(std::lround(f.py(y)));
  for (int x = f.left; x < f.left + f.width; x += 10) img.fill_rect(x, py, std::min(6, f.left + f.width - x), 1, kReference);
}

void paste(render::Image& dst, const render::Image& src, int top) {
  for (int y = 0; y < src.height(); ++y)
    for (int x = 0; x < src.width(); ++x) dst.set(x, top + y, src.at(x, y));
}

std::string range_of(const render::PlotFrame& f) { return fmt::format("{:.4g} .. {:.4g}", f.y_min, f.y_max); }

}  // namespace

std::vector<std::uint8_t> rope_report_png(const encodings::RopeReport& r) {
  std::vector<double> x, wl_orig, wl;
  for (const auto& row : r.rows) {
    x.push_back(static_cast<double>(row.index));
    wl_orig.push_back(row.wavelength_original);
    wl.push_back(row.wavelength);
  }
  render::PlotOptions opt;
  opt.width = kWidth;
  opt.height = kPanelHeight;
  const std::vector<std::vector<double>> freq = {log10_of(r.freqs.inv_freq_original), log10_of(r.freqs.inv_freq)};
  const std::vector<std::vector<double>> wave = {log10_of(wl_orig), log10_of(wl)};
  const auto wave_frame = frame_of(opt, x, wave);
  render::Image top = render::line_plot(x, freq, opt);
  render::Image bottom = render::line_plot(x, wave, opt);
  if (r.original_length > 0) dashed_hline(bottom, wave_frame, std::log10(static_cast<double>(r.original_length)));
  if (r.target_length > 0 && r.target_length != r.original_length)
    dashed_hline(bottom, wave_frame, std::log10(static_cast<double>(r.target_length)));
  render::Image img(kWidth, 2 * kPanelHeight);
  paste(img, top, 0);
  paste(img, bottom, kPanelHeight);

  const auto& c = r.config;
  const std::string title =
      fmt::format("RoPE frequencies: {} (convention {}, d={}, base={}{})", to_string(c.scaling), to_string(c.convention),
                  c.rotary_dim, c.base, r.freqs.factor != 1.0 ? fmt::format(", factor {}", r.freqs.factor) : std::string());
  const std::string description = fmt::format(
      "x: pair index 0..{}. Top panel: log10(inv_freq), y {}. Bottom panel: log10(wavelength in tokens), y {}; "
      "dashed lines at log10 of the original ({}) and target ({}) context lengths. In each panel the first (dark) "
      "curve is before scaling, the second (light) after.",
      r.rows.empty() ? 0 : r.rows.size() - 1, range_of(frame_of(opt, x, freq)), range_of(wave_frame), r.original_length,
      r.target_length);
  return render::encode_png(img, {{"Software", "posenc " POSENC_VERSION},
                                  {"Title", title},
                                  {"Description", description},
                                  {"attention_factor", fmt::format("{}", r.freqs.attention_factor)},
                                  {"regimes", fmt::format("{} unchanged, {} interpolated, {} blended, {} rescaled, {} zero",
                                                          r.unchanged, r.interpolated, r.blended, r.rescaled, r.zero)}});
}

}  // namespace posenc::cli
