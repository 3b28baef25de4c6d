// Scatter plots of projected positions, coloured by position, with a colorbar: 2-D on
// ordinary axes, 3-D in a fixed oblique view inside a wireframe box with ticks on three edges.
#include "posenc/render/figure.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>

#include "posenc/render/axes.hpp"
#include "posenc/render/colormap.hpp"
#include "layouts.hpp"
#include "scatter_parts.hpp"

namespace posenc::render {
namespace {

constexpr Rgb kPath{205, 205, 205};

}  // namespace

std::pair<double, double> column_range(const Matrix& m, std::size_t c) {
  double lo = INFINITY, hi = -INFINITY;
  for (std::size_t r = 0; r < m.rows(); ++r)
    if (std::isfinite(m(r, c))) lo = std::min(lo, m(r, c)), hi = std::max(hi, m(r, c));
  if (!std::isfinite(lo)) return {-1, 1};
  if (hi <= lo) return {lo - 1, hi + 1};
  return {lo, hi};
}

namespace {

double radius_for(std::size_t n) { return n <= 500 ? 3.0 : n <= 2000 ? 2.2 : 1.5; }

Rgb colour_of(const ScatterFigure& f, std::size_t r) {
  const std::size_t n = f.points.rows();
  return colormap(f.cmap, n > 1 ? static_cast<double>(r) / static_cast<double>(n - 1) : 0.0);
}

}  // namespace

void draw_points(Canvas& c, const ScatterFigure& f, const std::vector<Point>& px, const std::vector<double>& depth,
                 bool bare) {
  // The path in row order, when it can be followed: up to 500 points, a few pixels apart
  // on average (points that jump across the plot would draw a grey web).
  double step = 0;
  std::size_t steps = 0;
  for (std::size_t r = 1; r < px.size(); ++r)
    if (const double d = std::hypot(px[r].x - px[r - 1].x, px[r].y - px[r - 1].y); std::isfinite(d)) step += d, ++steps;
  const bool path = px.size() <= 500 && steps > 0 && step / static_cast<double>(steps) < 25;
  std::vector<Point> run;
  for (std::size_t r = 0; r < px.size() && path; ++r) {
    if (std::isfinite(px[r].x) && std::isfinite(px[r].y)) {
      run.push_back(px[r]);
    } else if (!run.empty()) {
      c.polyline(run, kPath, 1.0);
      run.clear();
    }
  }
  if (run.size() > 1) c.polyline(run, kPath, 1.0);
  std::vector<std::size_t> order(px.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  // Far points first, so near ones cover them (stable: equal depths keep row order).
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return depth[a] < depth[b]; });
  const double radius = bare ? 1.0 : radius_for(px.size());
  for (std::size_t r : order)
    if (std::isfinite(px[r].x) && std::isfinite(px[r].y)) c.disc(px[r], radius, colour_of(f, r));
}

namespace {

struct Plot2d {
  Rect plot;
  Axis xa, ya;
};

/// Equal aspect: one data unit gets as many pixels on x as on y (two sinusoidal dims draw the
/// unit circle as a circle), by widening the range of the axis with more pixels per unit about
/// its centre.
void equal_aspect(Axis& xa, Axis& ya, const Rect& plot) {
  const double sx = plot.w / (xa.hi - xa.lo), sy = plot.h / (ya.hi - ya.lo);
  if (!(sx > 0) || !(sy > 0) || !std::isfinite(sx) || !std::isfinite(sy) || sx == sy) return;
  Axis& a = sx > sy ? xa : ya;
  const double span = (sx > sy ? plot.w : plot.h) / std::min(sx, sy);
  const double mid = (a.lo + a.hi) / 2;
  a.lo = mid - span / 2, a.hi = mid + span / 2;
}

/// Axes and plot of the 2-D scatter in `area`.
Plot2d plan_2d(const ScatterFigure& f, const Rect& area, bool bare) {
  Plot2d p;
  Axis &xa = p.xa, &ya = p.ya;
  xa.label = f.axis_labels.size() > 0 ? f.axis_labels[0] : "";
  ya.label = f.axis_labels.size() > 1 ? f.axis_labels[1] : "";
  std::tie(xa.lo, xa.hi) = column_range(f.points, 0);
  std::tie(ya.lo, ya.hi) = f.points.cols() > 1 ? column_range(f.points, 1) : std::pair{-1.0, 1.0};
  for (Axis* a : {&xa, &ya}) {
    const double pad = 0.05 * (a->hi - a->lo);
    a->lo -= pad, a->hi += pad;
  }
  const bool two = f.points.cols() > 1;  // one column has no y data to match
  Rect& plot = p.plot;
  plot = area;
  if (bare) {
    if (two) equal_aspect(xa, ya, plot);
    return p;
  }
  const auto fit = [&](bool move_plot) {
    if (move_plot) plot.h = std::max(20.0, area.h - x_axis_height(xa));
    ya.ticks = fit_ticks(ya.lo, ya.hi, plot.h, false);
    thin_ticks(ya, plot.h, false);
    if (move_plot) {
      plot.x = area.x + y_axis_width(ya);
      plot.w = std::max(20.0, area.right() - plot.x);
    }
    xa.ticks = fit_ticks(xa.lo, xa.hi, plot.w, true);
    thin_ticks(xa, plot.w, true);
    if (move_plot) plot = {std::round(plot.x), std::round(plot.y), std::round(plot.w), std::round(plot.h)};
  };
  fit(true);
  if (two) {
    // The y tick labels of the widened range may change the plot's width: fit again, then match
    // the scales on the final plot (its ticks refitted, the plot kept).
    equal_aspect(xa, ya, plot);
    fit(true);
    equal_aspect(xa, ya, plot);
    fit(false);
  }
  return p;
}

void draw_2d(Canvas& c, const ScatterFigure& f, const Plot2d& p, bool bare) {
  if (!bare) draw_grid(c, p.plot, p.xa, p.ya);
  std::vector<Point> px(f.points.rows());
  for (std::size_t r = 0; r < px.size(); ++r)
    px[r] = {x_pixel(p.xa, p.plot, f.points(r, 0)),
             f.points.cols() > 1 ? y_pixel(p.ya, p.plot, f.points(r, 1)) : y_pixel(p.ya, p.plot, 0)};
  draw_points(c, f, px, std::vector<double>(px.size(), 0.0), bare);
  if (bare) return;
  draw_frame(c, p.plot);
  draw_x_axis(c, p.plot, p.xa);
  draw_y_axis(c, p.plot, p.ya);
}

// Where the parts of a scatter figure go on a width × height canvas.
struct ScatterPlan {
  Rect area, bar;
  Axis colours;
  Plot2d two_d;  ///< 2-D only
};

ScatterPlan plan(const ScatterFigure& f, double width, double height) {
  const Theme& th = theme();
  ScatterPlan p;
  const double top = title_height(f.title, f.subtitle, width);
  Axis& colours = p.colours;
  colours.label = f.colour_label;
  colours.lo = f.first_position;
  colours.hi = f.first_position + static_cast<double>(std::max<std::size_t>(f.points.rows(), 1) - 1);
  const double bar_h = std::max(20.0, height - top - 3 * th.pad - 30);
  colours.ticks = fit_ticks(colours.lo, colours.hi, bar_h, false, false, 1.0);
  thin_ticks(colours, bar_h, false);
  const double bar_w = colorbar_width(colours);
  Rect& area = p.area;
  area = {th.pad, top, std::max(20.0, width - th.pad - bar_w), std::max(20.0, height - top - th.pad)};
  if (f.points.cols() >= 3) {
    // The box is fitted to the height: centre it and the colorbar together.
    const double used = std::min(area.w, scatter_3d_width(area));
    area.x += (area.w - used) / 2;
    area.w = used;
  }
  p.bar = {std::round(area.right() + 16), std::round(top + 15), 16, std::round(bar_h)};
  if (f.points.cols() < 3) {
    p.two_d = plan_2d(f, area, false);
    p.bar.y = p.two_d.plot.y, p.bar.h = p.two_d.plot.h;  // the colorbar spans the plot's height
  }
  return p;
}

}  // namespace

FigureLayout scatter_layout(const ScatterFigure& f) {
  const ScatterPlan p = plan(f, f.width, f.height);
  FigureLayout out;
  const bool titled = !f.title.empty() || !f.subtitle.empty();
  out.title = {0, 0, static_cast<double>(f.width), titled ? title_height(f.title, f.subtitle, f.width) : 0.0};
  out.colorbar = p.bar;
  out.cmap = f.cmap;
  add_texts(out, 'c', colorbar_tick_labels(p.bar, p.colours));
  add_texts(out, 'a', {colorbar_label(p.bar, p.colours)});
  if (f.points.cols() >= 3) {
    scatter_3d_layout(f, p.area, out);
  } else {
    out.plots = {p.two_d.plot};
    add_texts(out, 'x', x_tick_labels(p.two_d.plot, p.two_d.xa));
    add_texts(out, 'y', y_tick_labels(p.two_d.plot, p.two_d.ya));
    add_texts(out, 'a', {x_axis_label(p.two_d.plot, p.two_d.xa), y_axis_label(p.two_d.plot, p.two_d.ya)});
  }
  return out;
}

void draw_scatter(Canvas& c, const ScatterFigure& f, bool bare) {
  if (bare) {
    const Rect all{0, 0, static_cast<double>(c.width()), static_cast<double>(c.height())};
    if (f.points.cols() >= 3)
      draw_scatter_3d(c, f, all, true);
    else
      draw_2d(c, f, plan_2d(f, all, true), true);
    return;
  }
  const ScatterPlan p = plan(f, c.width(), c.height());
  if (f.points.cols() >= 3)
    draw_scatter_3d(c, f, p.area, false);
  else
    draw_2d(c, f, p.two_d, false);
  draw_colorbar(c, p.bar, f.cmap, p.colours);
  draw_title(c, f.title, f.subtitle);
}

}  // namespace posenc::render
