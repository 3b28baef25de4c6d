#include "posenc/render/model_figure.hpp"

#include <fmt/format.h>

#include <cmath>

#include "posenc/analysis/projection.hpp"
#include "posenc/analysis/similarity.hpp"
#include "posenc/error.hpp"
#include "posenc/models/model_weights.hpp"

namespace posenc::render {
namespace {

HeatmapFigure matrix_heatmap(Matrix m, const std::string& title, std::vector<std::string> axes,
                                     const std::string& value, std::size_t first_row, const TableFigureOptions& o) {
  TableInfo info;
  info.scheme = "input";
  info.shape = {m.rows(), m.cols()};
  info.axis_names = std::move(axes);
  info.value_name = value;
  info.title = title;
  info.first_position = first_row;
  const MatrixTable t(std::move(info), std::move(m));
  return table_heatmap(t, o);
}

Matrix used_rows(const models::TableWeights& t) {
  const auto n = static_cast<std::size_t>(t.last_row - t.first_row + 1), w = static_cast<std::size_t>(t.width);
  std::vector<double> v(t.values.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(t.first_row) * w),
                        t.values.begin() + static_cast<std::ptrdiff_t>((static_cast<std::size_t>(t.first_row) + n) * w));
  return Matrix(n, w, std::move(v));
}

}  // namespace

Figure weights_figure(const models::ModelReport& r, const std::string& kind, const TableFigureOptions& o) {
  for (const auto& m : r.mechanisms) {
    if (!m.weights) continue;
    if (m.weights->bias && kind == "heatmap") {
      const auto& b = *m.weights->bias;
      return matrix_heatmap(Matrix(static_cast<std::size_t>(b.buckets), static_cast<std::size_t>(b.heads),
                                   std::vector<double>(b.bias)),
                            fmt::format("T5 relative_attention_bias, {} ({})", m.where, b.tensor), {"bucket", "head"},
                            "bias", 0, o);
    }
    if (!m.weights->table) continue;
    const auto& t = *m.weights->table;
    const std::string what = fmt::format("{} ({} {})", t.tensor, to_string(m.kind), m.where);
    if (kind == "heatmap")
      return matrix_heatmap(Matrix(static_cast<std::size_t>(t.rows), static_cast<std::size_t>(t.width),
                                   std::vector<double>(t.values)),
                            "stored table " + what, {"stored row", "dimension"}, "value", 0, o);
    if (kind == "similarity") {
      auto f = matrix_heatmap(analysis::similarity(used_rows(t), analysis::Metric::kCosine),
                              "cosine similarity of the used rows of " + what, {"row", "row"}, "cosine",
                              static_cast<std::size_t>(t.first_row), o);
      f.first_col = static_cast<double>(t.first_row);  // both axes are stored rows
      f.subtitle = fmt::format("rows {}-{} ({})", t.first_row, t.last_row, t.rule);
      return f;
    }
    if (kind == "pca") {
      const analysis::Pca p = analysis::pca(used_rows(t), 2);
      ScatterFigure f;
      f.title = "PCA of the used rows of " + what;
      f.subtitle = fmt::format("explained variance: {:.1f}%, {:.1f}%", 100 * p.explained.at(0),
                               100 * (p.explained.size() > 1 ? p.explained[1] : 0.0));
      f.axis_labels = {"PC1", "PC2"};
      f.points = p.coords;
      f.first_position = static_cast<double>(t.first_row);
      f.colour_label = "stored row";
      return f;
    }
    if (kind == "norm") {
      LineFigure f;
      f.title = "L2 norm of every stored row of " + what;
      f.subtitle = fmt::format("positions use rows {}-{}", t.first_row, t.last_row);
      f.x_label = "stored row", f.y_label = "‖row‖";
      for (std::int64_t i = 0; i < t.rows; ++i) f.x.push_back(static_cast<double>(i));
      f.series.push_back({"row norm", t.row_norm});
      return f;
    }
    if (kind == "patch") {
      if (t.grid_rows <= 0) continue;
      const std::int64_t first = t.class_token ? 1 : 0, cy = t.grid_rows / 2, cx = t.grid_cols / 2;
      const auto w = static_cast<std::size_t>(t.width);
      const auto row = [&](std::int64_t i) { return t.values.data() + static_cast<std::size_t>(i) * w; };
      const double* c = row(first + cy * t.grid_cols + cx);
      Matrix sim(static_cast<std::size_t>(t.grid_rows), static_cast<std::size_t>(t.grid_cols));
      for (std::int64_t y = 0; y < t.grid_rows; ++y)
        for (std::int64_t x = 0; x < t.grid_cols; ++x) {
          const double* p = row(first + y * t.grid_cols + x);
          double ab = 0, aa = 0, bb = 0;
          for (std::size_t j = 0; j < w; ++j) ab += p[j] * c[j], aa += p[j] * p[j], bb += c[j] * c[j];
          sim(static_cast<std::size_t>(y), static_cast<std::size_t>(x)) = ab / std::sqrt(aa * bb);
        }
      auto f = matrix_heatmap(std::move(sim), fmt::format("cosine similarity of patch (y {}, x {}) to every patch of {}",
                                                          cy, cx, what),
                              {"patch row y", "patch column x"}, "cosine", 0, o);
      return f;
    }
  }
  throw Error(fmt::format("--weights-figure {}: {} holds no {} read from weights (posenc model {} lists what was read)",
                          kind, r.source, kind == "patch" ? "patch grid" : "position table", r.source));
}

}  // namespace posenc::render
