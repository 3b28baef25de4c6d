// Line plots: curves against a shared x axis, light grid, ticks, optional log axes, legend.
#include "posenc/render/figure.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "posenc/render/axes.hpp"
#include "layouts.hpp"
#include "posenc/render/text.hpp"

namespace posenc::render {
namespace {

bool usable(double v, bool log) { return std::isfinite(v) && (!log || v > 0); }

// [lo, hi] of the usable values; a flat or empty range is widened so the axis has length.
std::pair<double, double> data_range(const std::vector<double>& values, bool log, bool pad) {
  double lo = INFINITY, hi = -INFINITY;
  for (double v : values)
    if (usable(v, log)) lo = std::min(lo, v), hi = std::max(hi, v);
  if (!std::isfinite(lo)) return log ? std::pair{1.0, 10.0} : std::pair{0.0, 1.0};
  if (log) {
    if (hi <= lo) return {lo / 2, hi * 2};
    const double f = pad ? std::pow(hi / lo, 0.04) : 1.0;
    return {lo / f, hi * f};
  }
  if (hi <= lo) return {lo - 1, hi + 1};
  const double p = pad ? 0.04 * (hi - lo) : 0.0;
  return {lo - p, hi + p};
}

// Pixel points of one series, split where values are unusable. Long series keep the first,
// lowest, highest and last point of each pixel column, which draws the same picture.
std::vector<std::vector<Point>> series_points(const LineFigure& f, const LineSeries& s, const Axis& xa,
                                              const Axis& ya, const Rect& plot) {
  std::vector<std::vector<Point>> runs(1);
  const std::size_t n = std::min(f.x.size(), s.y.size());
  const bool thin = static_cast<double>(n) > 4 * plot.w;
  std::vector<Point> column;
  auto flush = [&] {
    if (column.empty()) return;
    auto [lo, hi] = std::minmax_element(column.begin(), column.end(), [](Point a, Point b) { return a.y < b.y; });
    std::vector<Point> keep = {column.front()};
    if (lo < hi) keep.insert(keep.end(), {*lo, *hi});
    else keep.insert(keep.end(), {*hi, *lo});
    keep.push_back(column.back());
    for (const Point& p : keep)
      if (runs.back().empty() || runs.back().back().x != p.x || runs.back().back().y != p.y) runs.back().push_back(p);
    column.clear();
  };
  for (std::size_t i = 0; i < n; ++i) {
    if (!usable(f.x[i], xa.log) || !usable(s.y[i], ya.log)) {
      flush();
      if (!runs.back().empty()) runs.emplace_back();
      continue;
    }
    const Point p{x_pixel(xa, plot, f.x[i]), y_pixel(ya, plot, s.y[i])};
    if (!thin) {
      runs.back().push_back(p);
      continue;
    }
    if (!column.empty() && std::floor(column.back().x) != std::floor(p.x)) flush();
    column.push_back(p);
  }
  flush();
  if (runs.back().empty()) runs.pop_back();
  return runs;
}

// Points every few pixels along a polyline (segments between far-apart vertices count too).
void add_samples(const std::vector<Point>& run, std::vector<Point>& out) {
  for (std::size_t i = 0; i < run.size(); ++i) {
    out.push_back(run[i]);
    if (i == 0) continue;
    const double len = std::hypot(run[i].x - run[i - 1].x, run[i].y - run[i - 1].y);
    for (double t = 4; t < len; t += 4)
      out.push_back({run[i - 1].x + (run[i].x - run[i - 1].x) * t / len, run[i - 1].y + (run[i].y - run[i - 1].y) * t / len});
  }
}

constexpr Rgb kReference{120, 120, 120};

// A dashed line at r.y, labelled above its right or left end, whichever covers fewer of
// the curves' points, on a white ground so that a curve passing behind does not cut it.
// `label` false draws the line (under the curves), true the label (over them).
void draw_reference(Canvas& c, const Rect& plot, const Axis& ya, const ReferenceLine& r, bool label,
                    const std::vector<Point>& curves) {
  if (!usable(r.y, ya.log)) return;
  const double y = std::round(y_pixel(ya, plot, r.y));
  constexpr double kDash = 6, kSpace = 4;
  if (!label) {
    for (double x = plot.x; x < plot.right(); x += kDash + kSpace)
      c.rect(x, y - 0.5, std::min(kDash, plot.right() - x), 1, kReference);
    return;
  }
  if (r.label.empty()) return;
  const double px = theme().tick, w = text_width(r.label, px) + 4, h = px + 2;
  const Rect right{plot.right() - 6 - w, y - 3 - h, w, h}, left{plot.x + 6, y - 3 - h, w, h};
  auto hits = [&](const Rect& b) {
    return std::count_if(curves.begin(), curves.end(), [&](const Point& p) {
      return p.x >= b.x && p.x <= b.right() && p.y >= b.y && p.y <= b.bottom();
    });
  };
  const Rect b = hits(left) < hits(right) ? left : right;
  c.rect(b.x, b.y, b.w, b.h, theme().background);
  c.text({b.x + 2, y - 4}, r.label, {px, kReference, HAlign::kLeft, VAlign::kBaseline});
}

// Where everything of a line plot goes on a width × height canvas.
struct Plan {
  Rect plot, box;
  Axis xa, ya;
  std::vector<LegendEntry> legend;
  bool with_legend = false;
  std::vector<std::vector<std::vector<Point>>> runs;  ///< per series, its unbroken runs
  std::vector<Point> curves;                          ///< points along all curves (labels avoid them)
};

Plan plan(const LineFigure& f, double width, double height, bool bare) {
  const Theme& th = theme();
  Plan p;
  Axis& xa = p.xa;
  Axis& ya = p.ya;
  xa.label = f.x_label, ya.label = f.y_label;
  xa.log = f.log_x, ya.log = f.log_y;
  std::tie(xa.lo, xa.hi) = data_range(f.x, xa.log, false);
  std::vector<double> all;
  for (const auto& s : f.series) all.insert(all.end(), s.y.begin(), s.y.end());
  for (const auto& r : f.references) all.push_back(r.y);
  std::tie(ya.lo, ya.hi) = data_range(all, ya.log, true);

  Rect& plot = p.plot;
  plot = {0, 0, width, height};
  if (!bare) {
    const double top = title_height(f.title, f.subtitle);
    plot.y = top;
    plot.h = std::max(20.0, height - top - x_axis_height(xa) - 1);
    ya.ticks = fit_ticks(ya.lo, ya.hi, plot.h, false, ya.log);
    thin_ticks(ya, plot.h, false);
    plot.x = th.pad + y_axis_width(ya);
    plot.w = std::max(20.0, width - plot.x - 2.5 * th.pad);  // room for the last x label's overhang
    // Whole pixels keep grid lines and the frame crisp.
    plot = {std::round(plot.x), std::round(plot.y), std::round(plot.w), std::round(plot.h)};
  }
  for (std::size_t i = 0; i < f.series.size(); ++i) p.legend.push_back({f.series[i].name, line_colour(f.cmap, i, f.series.size())});
  p.with_legend = !bare && f.series.size() > 1;

  // The curves in pixels, and the places a legend inside the plot must not cover.
  std::vector<Point> avoid;
  auto place = [&] {
    p.runs.clear(), avoid.clear(), p.curves.clear();
    for (const auto& s : f.series) {
      p.runs.push_back(series_points(f, s, xa, ya, plot));
      for (const auto& run : p.runs.back()) add_samples(run, p.curves);
    }
    avoid = p.curves;
    for (const auto& r : f.references)
      if (usable(r.y, ya.log))
        for (double x = plot.x; x <= plot.right(); x += 4) avoid.push_back({x, y_pixel(ya, plot, r.y) - 8});
  };
  place();
  if (p.with_legend) {
    std::size_t covered = 0;
    p.box = legend_box(plot, p.legend, avoid, &covered);
    if (covered > 0) {
      // No free corner: the legend goes beside the plot, which narrows.
      plot.w = std::max(20.0, std::round(plot.w - legend_width(p.legend) - 12));
      p.box = {plot.right() + 12, plot.y, legend_width(p.legend), legend_height(p.legend)};
      place();
    }
  }
  if (!bare) {
    xa.ticks = fit_ticks(xa.lo, xa.hi, plot.w, true, xa.log);
    thin_ticks(xa, plot.w, true);
  }
  return p;
}

}  // namespace

FigureLayout line_plot_layout(const LineFigure& f) {
  const Plan p = plan(f, f.width, f.height, false);
  FigureLayout out;
  const bool titled = !f.title.empty() || !f.subtitle.empty();
  out.title = {0, 0, static_cast<double>(f.width), titled ? title_height(f.title, f.subtitle) : 0.0};
  out.plots = {p.plot};
  if (p.with_legend) out.legend = p.box, out.legend_entries = p.legend;
  add_texts(out, 'x', x_tick_labels(p.plot, p.xa));
  add_texts(out, 'y', y_tick_labels(p.plot, p.ya));
  add_texts(out, 'a', {x_axis_label(p.plot, p.xa), y_axis_label(p.plot, p.ya)});
  return out;
}

void draw_line_plot(Canvas& c, const LineFigure& f, bool bare) {
  const Plan p = plan(f, c.width(), c.height(), bare);
  const Rect& plot = p.plot;
  const Axis &xa = p.xa, &ya = p.ya;
  draw_grid(c, plot, xa, ya);
  if (!ya.log && ya.lo < 0 && ya.hi > 0) c.rect(plot.x, y_pixel(ya, plot, 0) - 0.5, plot.w, 1, {170, 170, 170});
  for (const auto& r : f.references) draw_reference(c, plot, ya, r, false, p.curves);
  for (std::size_t i = 0; i < p.runs.size(); ++i)
    for (const auto& run : p.runs[i]) {
      if (run.size() == 1) c.disc(run[0], bare ? 1.0 : 2.0, p.legend[i].colour);  // an isolated point stays visible
      else c.polyline(run, p.legend[i].colour, bare ? 1.0 : 2.0);
    }
  if (bare) return;
  for (const auto& r : f.references) draw_reference(c, plot, ya, r, true, p.curves);
  draw_frame(c, plot);
  draw_x_axis(c, plot, xa);
  draw_y_axis(c, plot, ya);
  if (p.with_legend) draw_legend(c, p.box, p.legend);
  draw_title(c, f.title, f.subtitle);
}

}  // namespace posenc::render
