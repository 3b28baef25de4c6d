#include "posenc/render/extrapolation_figure.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "posenc/encodings/t5.hpp"

namespace posenc::render {
namespace {

std::string extrapolate_method_name(const analysis::RopeExtrapolation& r) {
  const std::string name = r.freqs.factor != 1.0 ? fmt::format("{} ×{:g}", r.method, r.freqs.factor) : r.method;
  return r.layer_type.empty() ? name : fmt::format("{} ({})", name, r.layer_type);
}

LineFigure extrapolate_entropy_panel(const analysis::Extrapolation& e) {
  LineFigure p;
  p.title = fmt::format("attention entropy minus ln n (0 = uniform), mean of {} random (q, k), seed {}",
                        e.request.samples, e.request.seed);
  p.x_label = "sequence length n";
  p.y_label = "H(n) − ln n (nats)";
  p.log_x = true;
  for (auto n : e.lengths) p.x.push_back(static_cast<double>(n));
  const auto relative = [&](const std::vector<double>& h) {
    std::vector<double> y;
    for (std::size_t k = 0; k < h.size(); ++k) y.push_back(h[k] - std::log(static_cast<double>(e.lengths[k])));
    return y;
  };
  for (const auto& r : e.rope) {
    p.series.push_back({r.logit_scale != 1.0 ? fmt::format("{} (logits ×{:.4g})", extrapolate_method_name(r), r.logit_scale)
                                             : extrapolate_method_name(r),
                        relative(r.entropy)});
    if (r.logit_scale != 1.0)
      p.series.push_back({fmt::format("{} without factor", extrapolate_method_name(r)), relative(r.entropy_without_factor)});
  }
  return p;
}

/// −(most negative bias) per head within L and at L' for ALiBi, KERPLE and Sandwich together, log y.
LineFigure extrapolate_bias_panel(const analysis::Extrapolation& e) {
  LineFigure p;
  p.title = fmt::format("largest |bias| per head (−bias at its most negative) over offsets up to L − 1 = {} and "
                        "L' − 1 = {}",
                        e.request.train_len - 1, e.request.target_len - 1);
  p.x_label = "head";
  p.integer_x = true;  // 0, 1, 2 ... not 0.5
  p.y_label = "|bias| (log)";
  p.log_y = true;  // ALiBi's thousands beside KERPLE's and Sandwich's tens
  std::size_t heads = e.alibi ? e.alibi->slopes.size() : 0;
  for (const auto& b : e.biases) heads = std::max(heads, b.labels.size());
  for (std::size_t h = 0; h < heads; ++h) p.x.push_back(static_cast<double>(h));
  const auto padded = [&](std::vector<double> v) {  // negated; a scheme with fewer heads leaves a gap
    for (double& x : v) x = -x;
    v.resize(heads, std::nan(""));
    return v;
  };
  if (e.alibi) {
    p.series.push_back({"alibi within L", padded(e.alibi->min_train)});
    p.series.push_back({"alibi at L'", padded(e.alibi->min_target)});
  }
  for (const auto& b : e.biases) {
    p.series.push_back({b.scheme + " within L", padded(b.min_train)});
    p.series.push_back({b.scheme + " at L'", padded(b.min_target)});
  }
  return p;
}

LineFigure extrapolate_t5_panel(const analysis::Extrapolation& e) {
  const auto& t = *e.t5;
  LineFigure p;
  std::vector<std::string> where;
  for (const auto& d : t.directions) where.push_back(fmt::format("{} at {}", d.name, d.saturation));
  p.title = fmt::format("T5 bucket against |offset| ({} buckets, max distance {}); saturation {}; L = {}",
                        t.options.num_buckets, t.options.max_distance, fmt::join(where, ", "), e.request.train_len);
  p.x_label = "|offset| = |key − query|";
  p.y_label = "bucket";
  p.log_x = true;
  // 400 offsets spread evenly on the log axis from 1 to L'−1.
  const double last = static_cast<double>(e.request.target_len - 1);
  for (int k = 0; k <= 400; ++k) {
    const double x = std::round(std::pow(last, k / 400.0));
    if (p.x.empty() || x > p.x.back()) p.x.push_back(x);
  }
  for (const auto& d : t.directions) {
    render::LineSeries s{d.name, {}};
    for (double x : p.x) {
      const auto n = static_cast<std::int64_t>(x);
      s.y.push_back(static_cast<double>(encodings::t5_bucket(d.name == "future" ? n : -n, t.options)));
    }
    p.series.push_back(std::move(s));
  }
  return p;
}

}  // namespace

LineFigure extrapolation_figure(const analysis::Extrapolation& e) {
  std::vector<LineFigure> plots;
  if (!e.rope.empty()) {
    const auto& first = e.rope.front();
    LineFigure p;
    p.title = fmt::format("RoPE angle range per pair: L·θ_i in training, L'·θ'_i per method (d = {}, base {:g})",
                          first.config.rotary_dim, first.config.base);
    p.x_label = "pair i";
    p.y_label = "angle (radians)";
    p.log_y = true;
    for (std::size_t i = 0; i < first.freqs.pairs(); ++i) p.x.push_back(static_cast<double>(i));
    p.series.push_back({fmt::format("trained, L = {}", e.request.train_len), first.angle_train});
    for (const auto& r : e.rope)
      p.series.push_back({fmt::format("{}: {} beyond", extrapolate_method_name(r), r.beyond), r.angle_target});
    p.references.push_back({2 * std::numbers::pi, "2π: one full turn"});
    plots.push_back(std::move(p));
    plots.push_back(extrapolate_entropy_panel(e));
  }
  if (e.alibi || !e.biases.empty()) plots.push_back(extrapolate_bias_panel(e));
  if (e.t5) plots.push_back(extrapolate_t5_panel(e));
  LineFigure f = plots.front();
  f.heading = f.title;
  f.title = fmt::format("Extrapolation from L = {} to L' = {} (×{:g})", e.request.train_len, e.request.target_len,
                        static_cast<double>(e.request.target_len) / static_cast<double>(e.request.train_len));
  std::vector<std::string> notes;
  for (const auto& r : e.rope)
    if (r.resolution > 0) notes.push_back(fmt::format("{} {:.3g}", extrapolate_method_name(r), r.resolution));
  if (!notes.empty()) f.subtitle = fmt::format("resolution (positions): {}", fmt::join(notes, ", "));
  if (e.learned)
    f.subtitle += fmt::format("{}learned: rows {} … {} missing ({} of {})", f.subtitle.empty() ? "" : "; ",
                              e.learned->first_missing, e.learned->last_missing, e.learned->missing,
                              e.request.target_len);
  f.panels.assign(plots.begin() + 1, plots.end());
  f.height = 360 * static_cast<int>(plots.size());
  return f;
}

}  // namespace posenc::render
