// Heatmap figures: the cell image framed by axes (dimension across, position down), a
// colorbar with the value range, title and subtitle.
#include "posenc/render/figure.hpp"

#include <algorithm>
#include <cmath>

#include "posenc/render/axes.hpp"
#include "posenc/render/text.hpp"

namespace posenc::render {
namespace {

constexpr int kMinWidth = 480;
constexpr int kMinPlotHeight = 200;
constexpr int kMaxAutoWidth = 1200;
constexpr double kMaxTitleWidth = 1000;

struct Layout {
  int width = 0, height = 0;
  Rect plot, bar;
  Axis x, y, values;
};

Layout layout(const HeatmapFigure& f) {
  const Theme& th = theme();
  Layout l;
  l.x.label = f.x_label, l.y.label = f.y_label, l.values.label = f.value_label;
  // Cell c spans [c − ½, c + ½) so that a tick at c sits at the cell's centre.
  const double cols = static_cast<double>(std::max<std::size_t>(f.cols, 1));
  const double rows = static_cast<double>(std::max<std::size_t>(f.rows, 1));
  l.x.lo = f.first_col - 0.5, l.x.hi = f.first_col + cols - 0.5;
  l.y.lo = f.first_row - 0.5, l.y.hi = f.first_row + rows - 0.5, l.y.downward = true;
  l.values.lo = f.lo, l.values.hi = f.hi;

  const double top = title_height(f.title, f.subtitle);
  const double bottom = x_axis_height(l.x) + th.pad;
  // Small cell images are enlarged by a whole factor, so cells stay equal, until the plot is
  // tall enough for the axis labels and colorbar ticks.
  const int cw = std::max(f.cells.width(), 1), ch = std::max(f.cells.height(), 1);
  const int zoom = std::clamp(kMinPlotHeight / ch + (kMinPlotHeight % ch != 0), 1, std::max(1, kMaxAutoWidth / cw));
  const double plot_h = f.height > 0 ? std::max(20.0, f.height - top - bottom) : ch * zoom;
  l.y.ticks = fit_ticks(f.first_row, f.first_row + rows - 1, plot_h, false, false, 1.0);
  l.values.ticks = fit_ticks(f.lo, f.hi, plot_h, false);
  double left = th.pad + y_axis_width(l.y);
  const double right = colorbar_width(l.values);
  double plot_w = f.width > 0 ? std::max(20.0, f.width - left - right) : cw * zoom;
  l.width = f.width > 0 ? f.width : static_cast<int>(std::ceil(left + plot_w + right));
  if (f.width <= 0) {
    // Wide enough for the title (within reason); the plot is centred in any extra room.
    const double title_w = std::min(kMaxTitleWidth, text_width(f.title, th.title) + 2 * th.pad);
    const int want = std::max({l.width, kMinWidth, static_cast<int>(std::ceil(title_w))});
    left += (want - l.width) / 2.0;
    l.width = want;
  }
  l.height = f.height > 0 ? f.height : static_cast<int>(std::ceil(top + plot_h + bottom));
  l.plot = {std::round(left), std::round(top), std::round(plot_w), std::round(plot_h)};
  l.x.ticks = fit_ticks(f.first_col, f.first_col + cols - 1, l.plot.w, true, false, 1.0);
  l.bar = {l.plot.right() + 16, l.plot.y, 16, l.plot.h};
  return l;
}

}  // namespace

std::pair<int, int> heatmap_size(const HeatmapFigure& f) {
  const Layout l = layout(f);
  return {l.width, l.height};
}

void draw_heatmap(Canvas& c, const HeatmapFigure& f) {
  const Layout l = layout(f);
  c.raster(l.plot.x, l.plot.y, l.plot.w, l.plot.h, f.cells);
  draw_frame(c, l.plot);
  draw_x_axis(c, l.plot, l.x);
  draw_y_axis(c, l.plot, l.y);
  draw_colorbar(c, l.bar, f.cmap, l.values);
  draw_title(c, f.title, f.subtitle);
}

}  // namespace posenc::render
