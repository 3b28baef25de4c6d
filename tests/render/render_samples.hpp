#pragma once
// Small figures of each kind for the render tests.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "posenc/render/colormap.hpp"
#include "posenc/render/figure.hpp"
#include "rgb_string.hpp"

namespace posenc::test {

/// A 50×128 heatmap (values −1..1 as viridis cells), with a reduction note as its subtitle.
inline render::HeatmapFigure sample_heatmap(const std::string& title) {
  render::HeatmapFigure f;
  f.title = title;
  f.subtitle = "reduced 100×200 → 50×128 by area averaging";
  f.rows = 50, f.cols = 128, f.lo = -1, f.hi = 1, f.cmap = "viridis";
  render::Image cells(128, 50);
  for (int y = 0; y < 50; ++y)
    for (int x = 0; x < 128; ++x) cells.set(x, y, render::colormap("viridis", 0.5 + 0.5 * std::sin(x * 0.1 + y * 0.3)));
  f.panels = {{"", cells}};
  return f;
}

/// `n` panels of 16×16 cells (one per head), magma.
inline render::HeatmapFigure sample_panels(std::size_t n) {
  render::HeatmapFigure f;
  f.title = "biases";
  f.x_label = "key position j", f.y_label = "query position i", f.value_label = "bias";
  f.rows = 16, f.cols = 16, f.lo = -15, f.hi = 0, f.cmap = "magma";
  for (std::size_t h = 0; h < n; ++h) {
    render::Image cells(16, 16);
    for (int y = 0; y < 16; ++y)
      for (int x = 0; x < 16; ++x) cells.set(x, y, render::colormap("magma", 1.0 - std::abs(x - y) / 15.0));
    f.panels.push_back({"head " + std::to_string(h), cells});
  }
  return f;
}

/// `n` damped cosines over 0..100.
inline render::LineFigure sample_lines(std::size_t n = 2) {
  render::LineFigure f;
  f.title = "decay";
  f.x_label = "offset";
  f.y_label = "dot product";
  for (int i = 0; i <= 100; ++i) f.x.push_back(i);
  for (std::size_t i = 0; i < n; ++i) {
    const double k = 0.1 * static_cast<double>(i + 1);
    render::LineSeries s{"k=" + std::to_string(k).substr(0, 3), {}};
    for (double x : f.x) s.y.push_back(std::cos(k * x) * std::exp(-x / 50));
    f.series.push_back(s);
  }
  return f;
}

/// 60 points of sin(t/(d+1)) in `dims` columns.
inline render::ScatterFigure sample_scatter(std::size_t dims) {
  render::ScatterFigure f;
  f.title = "loop";
  f.axis_labels = {"dim 0", "dim 1", "dim 2"};
  f.points = Matrix(60, dims);
  for (std::size_t t = 0; t < 60; ++t)
    for (std::size_t d = 0; d < dims; ++d) f.points(t, d) = std::sin(static_cast<double>(t) / static_cast<double>(d + 1));
  return f;
}

}  // namespace posenc::test
