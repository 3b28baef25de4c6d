#include "posenc/render/analysis_figures.hpp"

#include <fmt/format.h>

#include "posenc/analysis/scheme_traits.hpp"

namespace posenc::render {

ScatterFigure projection_figure(const Table& projected) {
  const TableInfo& info = projected.info();
  ScatterFigure fig;
  fig.title = info.title;
  fig.axis_labels = info.column_names;
  for (const auto& [k, v] : info.results)
    if (k == "explained_variance_ratio" && std::holds_alternative<std::vector<double>>(v)) {
      std::vector<std::string> parts;
      for (double r : std::get<std::vector<double>>(v)) parts.push_back(fmt::format("{:.1f}%", 100 * r));
      fig.subtitle = fmt::format("explained variance: {}", fmt::join(parts, ", "));
    }
  fig.first_position = static_cast<double>(info.first_position);
  fig.points = projected.to_matrix();
  return fig;
}

LineFigure decay_figure(const DecayFigureText& t, const std::vector<std::int64_t>& offsets, const analysis::DecayRun& run) {
  LineFigure fig;
  const std::string metric = t.metric == "dot" ? "dot product" : t.metric == "cosine" ? "cosine similarity" : t.metric;
  const std::string value = analysis::decay_value_name(t.scheme, t.metric);
  fig.y_label = value.empty() ? metric : value;
  if (t.normalised) fig.y_label += " / its value at Δ = 0";
  fig.title = !t.compared ? fmt::format("{} against the offset: {}{}", fig.y_label, t.who, t.vary.empty() ? "" : " (" + t.vary + ")")
                          : fmt::format("{} against the offset", fig.y_label);
  // Several methods (with --compare) are too long for a subtitle: JSON and the metadata keep them.
  fig.subtitle = run.methods.size() == 1 ? fmt::format("{}; query position T = {}", run.method(), t.from)
                                         : fmt::format("query position T = {}", t.from);
  fig.x_label = "offset Δ = key − query";
  fig.x.assign(offsets.begin(), offsets.end());
  for (std::size_t i = 0; i < run.all.size(); ++i) fig.series.push_back({run.legend[i], run.all[i].values});
  return fig;
}

}  // namespace posenc::render
