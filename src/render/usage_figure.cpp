// The figures of `posenc usage` (render/usage_figure.hpp).
#include "posenc/render/usage_figure.hpp"

#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <vector>

#include "posenc/reports/usage_writers.hpp"

namespace posenc::render {
namespace {

/// A vertical dashed line on the cells image at the left edge of column `col` (of `cols`).
void usage_mark_column(HeatmapFigure& f, std::size_t col, std::size_t cols, Rgb a, Rgb b) {
  for (auto& p : f.panels) {
    const int w = p.cells.width(), h = p.cells.height();
    const int x = static_cast<int>(static_cast<double>(col) * w / static_cast<double>(cols));
    for (int y = 0; y < h; ++y) {
      const Rgb c = (y / 4) % 2 == 0 ? a : b;
      p.cells.set(x, y, c);
      if (x + 1 < w) p.cells.set(x + 1, y, c);
    }
  }
}

std::int64_t usage_first_long_pair(const analysis::UsageReport& r) {
  for (std::int64_t i = 0; i < r.pairs; ++i)
    if (r.model.train_len > 0 && 2 * std::numbers::pi / r.theta[static_cast<std::size_t>(i)] > static_cast<double>(r.model.train_len))
      return i;
  return -1;
}

}  // namespace

Figure usage_figure(const analysis::UsageReport& r, const UsageFigureRequest& q, const TableFigureOptions& o) {
  const std::string what = q.table;
  const std::string kind = q.drawn();
  if (kind == "wavelength") {
    LineFigure f;
    f.title = fmt::format("{} per pair against wavelength (mean over layers and heads)", what);
    f.subtitle = fmt::format("{}; dashed: training length {}", r.model.path, r.model.train_len);
    f.x_label = "wavelength 2π/θ (positions)";
    f.y_label = "mean " + what;
    f.log_x = true;
    for (const double t : r.theta) f.x.push_back(2 * std::numbers::pi / t);
    const auto& s = r.summary;
    const auto pick = [&](const std::string& name) -> std::vector<double> {
      if (name == "q-norm") return s.mean_q_norm;
      if (name == "k-norm") return s.mean_k_norm;
      return s.mean_rho;
    };
    f.series.push_back({"mean " + what, pick(what)});
    return f;
  }
  const std::int64_t layer = q.layer.value_or(0);
  std::unique_ptr<Table> t = kind == "heads" ? reports::usage_head_table(r, what, layer)
                                             : reports::usage_layer_table(r, what);
  HeatmapFigure f = table_heatmap(*t, o);
  f.title = kind == "heads" ? fmt::format("{} per head and RoPE pair, layer {}", what, layer)
                              : fmt::format("{} per layer and RoPE pair (mean over heads)", what);
  f.x_label = "pair i (θ_i = base^(−2i/R), high frequency left)";
  f.y_label = kind == "heads" ? "head" : "layer";
  f.value_label = what;
  const auto cols = static_cast<std::size_t>(r.pairs);
  std::string marks;
  const std::int64_t crit = r.summary.critical_dimension / 2;
  if (r.summary.critical_dimension > 0 && crit < r.pairs) {
    usage_mark_column(f, static_cast<std::size_t>(crit), cols, {255, 255, 255}, {0, 0, 0});
    marks += fmt::format("white/black dashes: critical dimension, pair {}", crit);
  }
  const std::int64_t longp = usage_first_long_pair(r);
  if (longp >= 0) {
    usage_mark_column(f, static_cast<std::size_t>(longp), cols, {255, 0, 0}, {255, 255, 255});
    marks += fmt::format("{}red dashes: first pair with wavelength > {} (pair {})", marks.empty() ? "" : "; ",
                         r.model.train_len, longp);
  }
  f.subtitle = marks.empty() ? f.subtitle : marks;
  return f;
}

Metadata usage_figure_metadata(const std::string& title, const std::string& path, const UsageFigureRequest& q) {
  Metadata metadata = figure_metadata(title, {});
  metadata.emplace_back("command", "posenc usage");
  metadata.emplace_back("path", path);
  metadata.emplace_back("figure", q.drawn());
  metadata.emplace_back("table", q.table);
  return metadata;
}

}  // namespace posenc::render
