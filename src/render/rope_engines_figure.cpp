#include "posenc/render/rope_engines_figure.hpp"

#include <fmt/format.h>

namespace posenc::render {

LineFigure rope_engines_figure(const rope::RopeEnginesReport& r) {
  LineFigure f;
  const std::string model = r.config.config_file.empty() ? std::string("flags") : r.config.config_file;
  f.title = fmt::format("RoPE of {} in each engine against transformers", model);
  f.subtitle = fmt::format("{}, a sequence of {} tokens; --tol {:g}; pairs without a difference leave a gap",
                           to_string(r.config.scaling), r.len, r.tol);
  f.x_label = "pair i";
  f.y_label = "|Δθ| / θ";
  f.log_y = true;
  f.height = 760;
  for (std::size_t i = 0; i < r.hf.pairs(); ++i) f.x.push_back(static_cast<double>(i));
  LineFigure table;
  table.title = fmt::format("largest |Δcos|, |Δsin| over positions 0 … {}", r.len - 1);
  table.y_label = "absolute difference";
  table.log_y = true;
  for (const auto& row : r.rows) {
    if (!row.ok) continue;
    const std::string name(to_string(row.convention));
    f.series.push_back({name, row.diff.inv_freq_rel});
    table.series.push_back({name, row.diff.table_max_abs});
  }
  f.references.push_back({r.tol, fmt::format("--tol {:g}", r.tol)});
  table.references.push_back({r.tol, fmt::format("--tol {:g}", r.tol)});
  f.panels.push_back(std::move(table));
  return f;
}

LineFigure rope_engines_figure(const rope::ModelEnginesReport& m) {
  if (m.ropes.size() == 1 && m.ropes.front().layer_type.empty()) return rope_engines_figure(m.ropes.front().report);
  LineFigure f;
  for (std::size_t k = 0; k < m.ropes.size(); ++k) {
    const auto& t = m.ropes[k];
    LineFigure one = rope_engines_figure(t.report);
    // A convention that refuses one rope keeps its place (and colour) in every panel, as a gap.
    for (std::size_t r = 0; r < t.report.rows.size(); ++r) {
      if (t.report.rows[r].ok) continue;
      const std::string name = fmt::format("{} (refuses)", to_string(t.report.rows[r].convention));
      const std::vector<double> gap(t.report.hf.pairs(), 0.0);
      one.series.insert(one.series.begin() + static_cast<std::ptrdiff_t>(r), {name, gap});
      for (auto& p : one.panels) p.series.insert(p.series.begin() + static_cast<std::ptrdiff_t>(r), {name, gap});
    }
    if (k == 0) {
      f = one;
      f.panels.clear();
      f.title += " (every rope)";
      f.subtitle = fmt::format("a sequence of {} tokens; --tol {:g}; pairs without a difference leave a gap", t.report.len,
                               t.report.tol);
      f.heading = fmt::format("{} layers ({}): |Δθ| / θ", t.layer_type, to_string(t.report.config.scaling));
    } else {
      LineFigure main = one;
      main.panels.clear();
      main.title = fmt::format("{} layers ({}): |Δθ| / θ", t.layer_type, to_string(t.report.config.scaling));
      f.panels.push_back(std::move(main));
    }
    for (auto& p : one.panels) {
      p.title = fmt::format("{} layers: {}", t.layer_type, p.title);
      p.x = one.x;
      p.x_label = one.x_label;
      f.panels.push_back(std::move(p));
    }
  }
  f.height = 380 * static_cast<int>(m.ropes.size());
  return f;
}

}  // namespace posenc::render
