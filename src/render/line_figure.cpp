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

/// The subtitle as a line figure of this height draws it: one wrapped line per 160 px of height
/// (1 at 240 px, kSubtitleLines from 480 px), the last cut with "…", so that a small figure
/// keeps room for its plot (issue 26 item 22: at 320 × 240 three subtitle lines left an
/// 80 × 90 px plot). A subtitle that already fits is returned as it is.
std::string line_subtitle(const std::string& subtitle, double width, double height) {
  if (subtitle.empty()) return subtitle;
  const int lines = std::clamp(static_cast<int>(height / 160), 1, kSubtitleLines);
  const double room = width - 2 * theme().pad;
  if (static_cast<int>(wrap_text(subtitle, theme().subtitle, room, kSubtitleLines).size()) <= lines) return subtitle;
  std::string out;
  for (const auto& line : wrap_text(subtitle, theme().subtitle, room, lines)) out += (out.empty() ? "" : " ") + line;
  return out;
}

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
std::vector<std::vector<Point>> series_points(const std::vector<double>& x, const LineSeries& s, const Axis& xa,
                                              const Axis& ya, const Rect& plot) {
  std::vector<std::vector<Point>> runs(1);
  const std::size_t n = std::min(x.size(), s.y.size());
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
    if (!usable(x[i], xa.log) || !usable(s.y[i], ya.log)) {
      flush();
      if (!runs.back().empty()) runs.emplace_back();
      continue;
    }
    const Point p{x_pixel(xa, plot, x[i]), y_pixel(ya, plot, s.y[i])};
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
// the curves' points, on a white ground so that a curve passing behind does not cut it. A line
// too close to the top of the plot for its label above is labelled below it instead, so the
// label never crosses the frame.
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
  const bool below = y - 3 - h < plot.y + 1 && y + 3 + h <= plot.bottom() - 1;
  const double top = below ? y + 3 : y - 3 - h;
  const Rect right{plot.right() - 6 - w, top, w, h}, left{plot.x + 6, top, w, h};
  auto hits = [&](const Rect& b) {
    return std::count_if(curves.begin(), curves.end(), [&](const Point& p) {
      return p.x >= b.x && p.x <= b.right() && p.y >= b.y && p.y <= b.bottom();
    });
  };
  const Rect b = hits(left) < hits(right) ? left : right;
  c.rect(b.x, b.y, b.w, b.h, theme().background);
  c.text({b.x + 2, b.bottom() - 1}, r.label, {px, kReference, HAlign::kLeft, VAlign::kBaseline});
}

// One plot of a line figure: `f` gives the x values, x axis and colours, `p` its curves and
// its y axis (p is f itself for the first plot; the others are f.panels, stacked below).
struct LinePlan {
  const LineFigure* p = nullptr;
  Rect plot, box;
  Axis xa, ya;
  std::string heading;  ///< a stacked plot's title, drawn above it
  std::vector<LegendEntry> legend;
  bool with_legend = false;
  std::vector<std::vector<std::vector<Point>>> runs;  ///< per series, its unbroken runs
  std::vector<Point> curves;                          ///< points along all curves (labels avoid them)
};

// The vertices of a step plot of (x, y): value i from midway after x[i−1] to midway before
// x[i+1], the first from x[0] and the last to x[n−1].
std::pair<std::vector<double>, std::vector<double>> step_vertices(const std::vector<double>& x,
                                                                  const std::vector<double>& y) {
  std::vector<double> sx, sy;
  const std::size_t n = std::min(x.size(), y.size());
  for (std::size_t i = 0; i < n; ++i) {
    sx.push_back(i == 0 ? x[0] : (x[i - 1] + x[i]) / 2), sy.push_back(y[i]);
    sx.push_back(i + 1 == n ? x[i] : (x[i] + x[i + 1]) / 2), sy.push_back(y[i]);
  }
  return {sx, sy};
}

// The plot's rectangle within `area` and its y axis.
LinePlan frame_panel(const LineFigure& f, const LineFigure& p, const Rect& area, bool bare, bool stacked) {
  const Theme& th = theme();
  LinePlan l;
  l.p = &p;
  const bool own_x = !p.x.empty() && &p != &f;  // a stacked plot of another quantity
  l.xa.label = own_x ? p.x_label : f.x_label, l.ya.label = p.y_label;
  l.xa.log = own_x ? p.log_x : f.log_x, l.ya.log = p.log_y;
  std::tie(l.xa.lo, l.xa.hi) = data_range(own_x ? p.x : f.x, l.xa.log, false);
  std::vector<double> all;
  for (const auto& s : p.series) all.insert(all.end(), s.y.begin(), s.y.end());
  for (const auto& r : p.references) all.push_back(r.y);
  std::tie(l.ya.lo, l.ya.hi) = data_range(all, l.ya.log, true);
  if (!p.y_categories.empty()) l.ya.lo = -0.5, l.ya.hi = static_cast<double>(p.y_categories.size()) - 0.5;
  for (std::size_t i = 0; i < p.series.size(); ++i) l.legend.push_back({p.series[i].name, line_colour(f.cmap, i, p.series.size())});
  l.with_legend = !bare && p.series.size() > 1;
  l.plot = area;
  if (bare) return l;
  l.heading = stacked ? p.title : f.heading;
  const double top = l.heading.empty() ? 0.0 : th.gap + 1.25 * th.label + th.gap;
  l.plot.y = area.y + top;
  l.plot.h = std::max(20.0, area.h - top - x_axis_height(l.xa) - 1);
  if (p.y_categories.empty()) {
    l.ya.ticks = fit_ticks(l.ya.lo, l.ya.hi, l.plot.h, false, l.ya.log);
    thin_ticks(l.ya, l.plot.h, false);
  } else {
    for (std::size_t k = 0; k < p.y_categories.size(); ++k)
      l.ya.ticks.push_back({static_cast<double>(k), p.y_categories[k]});
  }
  l.plot.x = area.x + th.pad + y_axis_width(l.ya);
  l.plot.w = std::max(20.0, area.right() - l.plot.x - 2.5 * th.pad);  // room for the last x label's overhang
  // Whole pixels keep grid lines and the frame crisp.
  l.plot = {std::round(l.plot.x), std::round(l.plot.y), std::round(l.plot.w), std::round(l.plot.h)};
  return l;
}

// The curves in pixels, the legend (in a free corner, else beside the plot, which narrows)
// and the x ticks, once the plot's rectangle is final.
void fill_panel(const LineFigure& f, LinePlan& l, bool bare) {
  const LineFigure& p = *l.p;
  Rect& plot = l.plot;
  std::vector<Point> avoid;  // places a legend inside the plot must not cover
  auto place = [&] {
    l.runs.clear(), avoid.clear(), l.curves.clear();
    const std::vector<double>& xs = !p.x.empty() && &p != &f ? p.x : f.x;
    for (const auto& s : p.series) {
      if (p.steps) {  // each value held over its x, joined by vertical rises
        const auto [sx, sy] = step_vertices(xs, s.y);
        l.runs.push_back(series_points(sx, {s.name, sy}, l.xa, l.ya, plot));
        for (const auto& run : l.runs.back()) add_samples(run, l.curves);
        continue;
      }
      l.runs.push_back(series_points(xs, s, l.xa, l.ya, plot));
      for (const auto& run : l.runs.back()) add_samples(run, l.curves);
    }
    avoid = l.curves;
    for (const auto& r : p.references)
      if (usable(r.y, l.ya.log))
        for (double x = plot.x; x <= plot.right(); x += 4) avoid.push_back({x, y_pixel(l.ya, plot, r.y) - 8});
  };
  place();
  if (l.with_legend) {
    std::size_t covered = 0;
    l.box = legend_box(plot, l.legend, avoid, &covered);
    if (covered > 0) {
      plot.w = std::max(20.0, std::round(plot.w - legend_width(l.legend) - 12));
      l.box = {plot.right() + 12, plot.y, legend_width(l.legend), legend_height(l.legend)};
      place();
    }
  }
  if (!bare) {
    const bool own_x = !p.x.empty() && &p != &f;  // as frame_panel reads the x axis
    l.xa.ticks = fit_ticks(l.xa.lo, l.xa.hi, plot.w, true, l.xa.log, (own_x ? p.integer_x : f.integer_x) ? 1.0 : 0.0);
    thin_ticks(l.xa, plot.w, true);
  }
}

// Every plot of the figure on a width × height canvas: the title on top, the plots sharing
// the rest of the height equally, their left edges aligned so that the pairs line up.
std::vector<LinePlan> plan(const LineFigure& f, double width, double height, bool bare) {
  std::vector<const LineFigure*> plots = {&f};
  for (const auto& p : f.panels) plots.push_back(&p);
  const double top = bare ? 0.0 : title_height(f.title, line_subtitle(f.subtitle, width, height), width);
  const double each = (height - top) / static_cast<double>(plots.size());
  std::vector<LinePlan> panels;
  for (std::size_t k = 0; k < plots.size(); ++k) {
    const Rect area{0, std::round(top + static_cast<double>(k) * each), width, std::floor(each)};
    panels.push_back(frame_panel(f, *plots[k], area, bare, k > 0));
  }
  if (!bare && panels.size() > 1) {
    double left = 0;
    for (const auto& l : panels) left = std::max(left, l.plot.x);
    for (auto& l : panels) l.plot.w = std::max(20.0, l.plot.w - (left - l.plot.x)), l.plot.x = left;
  }
  for (auto& l : panels) fill_panel(f, l, bare);
  return panels;
}

// The order the curves are drawn in: the longest on the page first, so that a dense,
// oscillating curve (decay's q=k=ones over a million offsets fills a band) goes under a
// smooth one (RoFormer's bound inside that band) instead of hiding it. Ties keep the legend's
// order.
std::vector<std::size_t> drawing_order(const std::vector<std::vector<std::vector<Point>>>& runs) {
  std::vector<double> length(runs.size(), 0.0);
  for (std::size_t i = 0; i < runs.size(); ++i)
    for (const auto& run : runs[i])
      for (std::size_t k = 1; k < run.size(); ++k) length[i] += std::hypot(run[k].x - run[k - 1].x, run[k].y - run[k - 1].y);
  std::vector<std::size_t> order(runs.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return length[a] > length[b]; });
  return order;
}

Label heading_label(const LinePlan& l) {
  const Theme& th = theme();
  return {fit_text(l.heading, th.label, l.plot.w), {l.plot.x, l.plot.y - th.gap},
          {th.label, th.text, HAlign::kLeft, VAlign::kBottom}};
}

}  // namespace

FigureLayout line_plot_layout(const LineFigure& f) {
  const auto panels = plan(f, f.width, f.height, false);
  FigureLayout out;
  const bool titled = !f.title.empty() || !f.subtitle.empty();
  const std::string subtitle = line_subtitle(f.subtitle, f.width, f.height);
  out.title = {0, 0, static_cast<double>(f.width), titled ? title_height(f.title, subtitle, f.width) : 0.0};
  for (const auto& l : panels) {
    out.plots.push_back(l.plot);
    if (l.with_legend && out.legend.w == 0) out.legend = l.box, out.legend_entries = l.legend;
    add_texts(out, 'x', x_tick_labels(l.plot, l.xa));
    add_texts(out, 'y', y_tick_labels(l.plot, l.ya));
    add_texts(out, 'a', {x_axis_label(l.plot, l.xa), y_axis_label(l.plot, l.ya)});
    if (!l.heading.empty()) add_texts(out, 'p', {heading_label(l)});
  }
  return out;
}

void draw_line_plot(Canvas& c, const LineFigure& f, bool bare) {
  for (const auto& l : plan(f, c.width(), c.height(), bare)) {
    const Rect& plot = l.plot;
    const LineFigure& p = *l.p;
    draw_grid(c, plot, l.xa, l.ya);
    if (!l.ya.log && p.y_categories.empty() && l.ya.lo < 0 && l.ya.hi > 0) c.rect(plot.x, y_pixel(l.ya, plot, 0) - 0.5, plot.w, 1, {170, 170, 170});
    for (const auto& r : p.references) draw_reference(c, plot, l.ya, r, false, l.curves);
    for (const std::size_t i : drawing_order(l.runs))
      for (const auto& run : l.runs[i]) {
        if (run.size() == 1) c.disc(run[0], bare ? 1.0 : 2.0, l.legend[i].colour);  // an isolated point stays visible
        else c.polyline(run, l.legend[i].colour, bare ? 1.0 : 2.0);
      }
    if (bare) continue;
    for (const auto& r : p.references) draw_reference(c, plot, l.ya, r, true, l.curves);
    draw_frame(c, plot);
    draw_x_axis(c, plot, l.xa);
    draw_y_axis(c, plot, l.ya);
    if (l.with_legend) draw_legend(c, l.box, l.legend);
    if (!l.heading.empty()) draw_label(c, heading_label(l));
  }
  if (!bare) draw_title(c, f.title, line_subtitle(f.subtitle, c.width(), c.height()));
}

}  // namespace posenc::render
