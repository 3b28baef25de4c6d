// Heatmap figures: cell images framed by axes (dimension across, position down), one panel
// or a grid of panels (one per head) sharing axes and a colorbar, title and subtitle.
#include "posenc/render/figure.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <tuple>
#include <utility>

#include "posenc/render/axes.hpp"
#include "layouts.hpp"
#include "posenc/render/text.hpp"

namespace posenc::render {
namespace {

constexpr int kMinWidth = 480;
constexpr int kMinGridHeight = 200;
constexpr int kMaxAutoWidth = 1200;
constexpr double kMaxTitleWidth = 1000;
constexpr double kGapX = 14;
constexpr double kMinAspect = 0.6;

struct Layout {
  int width = 0, height = 0;
  std::size_t ncols = 1, nrows = 1;
  Rect grid, bar;
  std::vector<Rect> plots;  ///< one per panel
  Axis x, y, values;
  double title_width = 0;  ///< the width the subtitle is wrapped to
};

// Labels the first cell (row or column) when the nice ticks start later (fairseq's rows start
// at position 2, its first tick would be 10); nice ticks closer to it than `apart` pixels (from
// centre to centre) give way.
void label_first(std::vector<Tick>& ticks, double first, double px_per_cell,
                 const std::function<double(const Tick&, const Tick&)>& apart) {
  if (ticks.empty() || ticks.front().value == first) return;
  const Tick head{first, tick_label(first, 1.0)};
  std::erase_if(ticks, [&](const Tick& t) { return (t.value - first) * px_per_cell < apart(head, t); });
  ticks.insert(ticks.begin(), head);
}

// Width / height of a panel for the table's shape as the automatic figure shows it: tables
// are reduced to 512 cells a side (a square matrix stays square), and a tall narrow table is
// drawn at least 0.6 as wide as tall.
double panel_aspect(const HeatmapFigure& f) {
  const double rows = static_cast<double>(std::clamp<std::size_t>(f.rows, 1, 512));
  const double cols = static_cast<double>(std::clamp<std::size_t>(f.cols, 1, 512));
  return std::max(kMinAspect, f.rows == f.cols ? 1.0 : cols / rows);
}

double panel_title_height(std::size_t panels) { return panels > 1 ? 1.3 * theme().tick + 4 : 0.0; }

/// The grid of panels and the three axes' ranges and labels. Cell c spans [c − ½, c + ½) so that
/// a tick at c sits at the cell's centre.
void set_heatmap_grid_and_axes(const HeatmapFigure& f, Layout& l) {
  const std::size_t n = std::max<std::size_t>(f.panels.size(), 1);
  l.ncols = heatmap_grid_columns(n);
  l.nrows = (n + l.ncols - 1) / l.ncols;
  l.x.label = f.x_label, l.y.label = f.y_label, l.values.label = f.value_label;
  const double cols = static_cast<double>(std::max<std::size_t>(f.cols, 1));
  const double rows = static_cast<double>(std::max<std::size_t>(f.rows, 1));
  l.x.lo = f.first_col - 0.5, l.x.hi = f.first_col + cols - 0.5;
  l.y.lo = f.first_row - 0.5, l.y.hi = f.first_row + rows - 0.5, l.y.downward = true;
  l.values.lo = f.lo, l.values.hi = f.hi;
}

/// The room around and between the panels, in pixels.
struct HeatmapMargins {
  double top = 0;     ///< titles and panel titles
  double bottom = 0;  ///< the x axis
  double gap_y = 0;   ///< between rows of panels (their titles)
};

/// The automatic panel size: the cell image enlarged by a whole factor (cells stay equal) until
/// the grid is tall enough for the axis labels and colorbar ticks.
struct HeatmapZoom {
  int cw = 1, ch = 1;  ///< the cell image's size
  int want_h = 0;      ///< the panel height wanted
  int zoom = 1;
};

HeatmapZoom heatmap_zoom(const HeatmapFigure& f, const Layout& l) {
  const auto nc = static_cast<double>(l.ncols), nr = static_cast<double>(l.nrows);
  const Image* first = f.panels.empty() ? nullptr : &f.panels.front().cells;
  HeatmapZoom z;
  z.cw = first ? std::max(first->width(), 1) : 1, z.ch = first ? std::max(first->height(), 1) : 1;
  z.want_h = static_cast<int>(std::ceil(kMinGridHeight / nr));
  z.zoom = std::clamp(z.want_h / z.ch + (z.want_h % z.ch != 0), 1,
                      std::max(1, static_cast<int>(kMaxAutoWidth / nc) / z.cw));
  return z;
}

/// The y ticks for a panel `h` pixels tall, the first row labelled.
void fit_heatmap_y_ticks(const HeatmapFigure& f, Layout& l, double h) {
  const double rows = static_cast<double>(std::max<std::size_t>(f.rows, 1));
  l.y.ticks = fit_ticks(f.first_row, f.first_row + rows - 1, h, false, false, 1.0);
  label_first(l.y.ticks, f.first_row, h / rows, [&](const Tick&, const Tick&) { return 1.6 * theme().tick; });
  thin_ticks(l.y, h, false);
}

/// The size of one panel and of the grid, and the colorbar's width.
struct HeatmapSizes {
  double panel_w = 0, panel_h = 0, grid_w = 0, grid_h = 0, right = 0;
};

/// One panel's width and height: from --width and --height; from one of them and the table's
/// shape; else the zoomed cell image. Sets the y ticks for that height.
std::pair<double, double> heatmap_panel_wh(const HeatmapFigure& f, Layout& l, const HeatmapMargins& m,
                                           const HeatmapZoom& z, double right) {
  const Theme& th = theme();
  const auto nc = static_cast<double>(l.ncols), nr = static_cast<double>(l.nrows);
  double panel_w = 0, panel_h = 0;
  if (f.width > 0 && f.height > 0) {
    panel_h = std::max(8.0, (f.height - m.top - m.bottom - (nr - 1) * m.gap_y) / nr);
    fit_heatmap_y_ticks(f, l, panel_h);
    panel_w = std::max(8.0, (f.width - th.pad - y_axis_width(l.y) - right - (nc - 1) * kGapX) / nc);
  } else if (f.width > 0 || f.height > 0) {
    // One side given: the other keeps the table's shape as the automatic figure shows it
    // (square matrices square), within the same limits.
    const double aspect = panel_aspect(f);
    if (f.height > 0) {
      panel_h = std::max(8.0, (f.height - m.top - m.bottom - (nr - 1) * m.gap_y) / nr);
      panel_w = std::min(std::round(panel_h * aspect), std::floor(kMaxAutoWidth / nc));
      fit_heatmap_y_ticks(f, l, panel_h);
    } else {
      fit_heatmap_y_ticks(f, l, z.want_h);  // for the width of its labels
      panel_w = std::max(8.0, (f.width - th.pad - y_axis_width(l.y) - right - (nc - 1) * kGapX) / nc);
      panel_h = std::round(panel_w / aspect);
      fit_heatmap_y_ticks(f, l, panel_h);
    }
  } else {
    panel_h = z.ch * z.zoom;
    fit_heatmap_y_ticks(f, l, panel_h);
    // A tall, narrow table (8 bits of 64 positions) gets wider cells: panels at least 0.6 as
    // wide as they are tall.
    panel_w = std::max<double>(z.cw * z.zoom, std::round(kMinAspect * panel_h));
  }
  return {panel_w, panel_h};
}

/// The panels' and grid's sizes with the colorbar's ticks. Those labels depend on the grid's
/// height, which (with --width) depends on their width: a second pass settles it.
HeatmapSizes size_heatmap_panels(const HeatmapFigure& f, Layout& l, const HeatmapMargins& m) {
  const auto nc = static_cast<double>(l.ncols), nr = static_cast<double>(l.nrows);
  const HeatmapZoom z = heatmap_zoom(f, l);
  l.values.ticks = fit_ticks(f.lo, f.hi, f.height > 0 ? f.height - m.top - m.bottom : nr * z.want_h, false);
  HeatmapSizes s;
  for (int pass = 0; pass < 2; ++pass) {
    s.right = colorbar_width(l.values);
    std::tie(s.panel_w, s.panel_h) = heatmap_panel_wh(f, l, m, z, s.right);
    s.grid_h = nr * s.panel_h + (nr - 1) * m.gap_y, s.grid_w = nc * s.panel_w + (nc - 1) * kGapX;
    if (pass == 0) {  // pass 1 fits the grid to them
      l.values.ticks = fit_ticks(f.lo, f.hi, s.grid_h, false);
      thin_ticks(l.values, s.grid_h, false);
    }
  }
  return s;
}

/// A discrete scale: one colorbar block per level, its value labelled at the block's centre.
void set_heatmap_level_ticks(const HeatmapFigure& f, Layout& l) {
  const auto n_levels = static_cast<double>(f.levels.size());
  l.values.blocks = static_cast<int>(f.levels.size());
  l.values.ticks.clear();
  for (std::size_t k = 0; k < f.levels.size(); ++k)
    l.values.ticks.push_back({f.lo + (static_cast<double>(k) + 0.5) * (f.hi - f.lo) / n_levels, tick_label(f.levels[k], 1.0)});
}

/// The figure's width and height and the panels' places. An automatic width is wide enough for
/// the title (within reason), the plot centred in any extra room; with both sides automatic the
/// subtitle wraps to the final width.
void place_heatmap_panels(const HeatmapFigure& f, Layout& l, HeatmapMargins m, const HeatmapSizes& s) {
  const Theme& th = theme();
  const std::size_t n = std::max<std::size_t>(f.panels.size(), 1);
  double left = th.pad + y_axis_width(l.y);
  l.width = f.width > 0 ? f.width : static_cast<int>(std::ceil(left + s.grid_w + s.right));
  if (f.width <= 0) {
    const double title_w = std::min(kMaxTitleWidth, text_width(f.title, th.title) + 2 * th.pad);
    const int want = std::max({l.width, kMinWidth, static_cast<int>(std::ceil(title_w))});
    left += (want - l.width) / 2.0;
    l.width = want;
  }
  if (f.width <= 0 && f.height <= 0) {
    l.title_width = l.width;
    m.top = title_height(f.title, f.subtitle, l.title_width) + panel_title_height(n);
  }
  l.height = f.height > 0 ? f.height : static_cast<int>(std::ceil(m.top + s.grid_h + m.bottom));
  l.grid = {std::round(left), std::round(m.top), std::round(s.grid_w), std::round(s.grid_h)};
  for (std::size_t i = 0; i < n; ++i) {
    const double px = l.grid.x + static_cast<double>(i % l.ncols) * (s.panel_w + kGapX);
    const double py = l.grid.y + static_cast<double>(i / l.ncols) * (s.panel_h + m.gap_y);
    l.plots.push_back({std::round(px), std::round(py), std::round(s.panel_w), std::round(s.panel_h)});
  }
  l.bar = {l.grid.right() + 16, l.grid.y, 16, l.grid.h};
}

/// The x ticks for panels `panel_w` pixels wide: the first column labelled, named columns by
/// name, and with panels side by side none running into the next panel.
void fit_heatmap_x_ticks(const HeatmapFigure& f, Layout& l, double panel_w) {
  const Theme& th = theme();
  const double cols = static_cast<double>(std::max<std::size_t>(f.cols, 1));
  l.x.ticks = fit_ticks(f.first_col, f.first_col + cols - 1, std::round(panel_w), true, false, 1.0);
  label_first(l.x.ticks, f.first_col, std::round(panel_w) / cols, [&](const Tick& a, const Tick& b) {
    return (text_width(a.label, th.tick) + text_width(b.label, th.tick)) / 2 + 8;
  });
  if (f.column_labels.size() == f.cols)  // named columns (bit3 … bit0) labelled by name
    for (auto& t : l.x.ticks) {
      const double i = t.value - f.first_col;
      if (i >= 0 && i < cols) t.label = f.column_labels[static_cast<std::size_t>(i)];
    }
  thin_ticks(l.x, std::round(panel_w), true);
  if (l.ncols > 1) {
    // Side by side, a label at a panel's edge would run into the next panel's first label:
    // keep only labels that end within half the gap of their own panel.
    const Rect& p = l.plots.front();
    std::erase_if(l.x.ticks, [&](const Tick& t) {
      const double half = text_width(t.label, th.tick) / 2, at = x_pixel(l.x, p, t.value);
      return at - half < p.x - kGapX / 2 || at + half > p.right() + kGapX / 2;
    });
  }
}

Layout layout(const HeatmapFigure& f) {
  Layout l;
  set_heatmap_grid_and_axes(f, l);
  const std::size_t n = std::max<std::size_t>(f.panels.size(), 1);
  // The subtitle wraps to the figure's width: the given one, else the narrowest automatic one
  // until the width is known (place_heatmap_panels).
  l.title_width = f.width > 0 ? f.width : kMinWidth;
  HeatmapMargins m;
  m.top = title_height(f.title, f.subtitle, l.title_width) + panel_title_height(n);
  m.bottom = x_axis_height(l.x) + theme().pad;
  m.gap_y = n > 1 ? panel_title_height(n) + 8 : 0.0;
  const HeatmapSizes s = size_heatmap_panels(f, l, m);
  if (f.levels.size() >= 2) set_heatmap_level_ticks(f, l);
  place_heatmap_panels(f, l, m, s);
  fit_heatmap_x_ticks(f, l, s.panel_w);
  return l;
}

}  // namespace

std::size_t heatmap_grid_columns(std::size_t n) {
  if (n <= 4) return std::max<std::size_t>(n, 1);
  if (n <= 8) return 4;
  return static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(n))));
}

std::pair<int, int> heatmap_size(const HeatmapFigure& f) {
  const TextScale scale(f.text_scale);
  const Layout l = layout(f);
  return {l.width, l.height};
}

std::pair<double, double> heatmap_panel_size(const HeatmapFigure& f) {
  const TextScale scale(f.text_scale);
  const Layout l = layout(f);
  return {l.plots.front().w, l.plots.front().h};
}

namespace {

// Tick labels of panel i: x under the bottom panel of each column, y left of the first column.
std::vector<Label> panel_tick_labels(const Layout& l, std::size_t i, char part) {
  Axis x = l.x, y = l.y;
  x.label.clear(), y.label.clear();
  const Rect& p = l.plots[i];
  if (part == 'x') return i + l.ncols >= l.plots.size() ? x_tick_labels(p, x) : std::vector<Label>{};
  return i % l.ncols == 0 ? y_tick_labels(p, y) : std::vector<Label>{};
}

// The panels' titles, when there are several.
std::vector<Label> panel_titles(const HeatmapFigure& f, const Layout& l) {
  const Theme& th = theme();
  std::vector<Label> out;
  if (l.plots.size() < 2) return out;
  // One form for all panels: the titles when each fits over its panel, else the short ones.
  const double room = l.plots.front().w - 2;
  const std::size_t n = std::min(l.plots.size(), f.panels.size());
  bool fits = true;
  for (std::size_t i = 0; i < n; ++i) fits = fits && text_width(f.panels[i].title, th.tick) <= room;
  for (std::size_t i = 0; i < n; ++i) {
    const Rect& p = l.plots[i];
    const HeatmapPanel& panel = f.panels[i];
    const std::string& text = fits || panel.short_title.empty() ? panel.title : panel.short_title;
    out.push_back({fit_text(text, th.tick, room), {p.x + p.w / 2, p.y - 5}, {th.tick, th.text, HAlign::kCenter, VAlign::kBaseline}});
  }
  return out;
}

}  // namespace

FigureLayout heatmap_layout(const HeatmapFigure& f) {
  const Layout l = layout(f);
  FigureLayout out;
  const bool titled = !f.title.empty() || !f.subtitle.empty();
  out.title = {0, 0, static_cast<double>(l.width), titled ? title_height(f.title, f.subtitle, l.title_width) : 0.0};
  out.plots = l.plots;
  out.colorbar = l.bar;
  out.cmap = f.cmap;
  for (std::size_t i = 0; i < l.plots.size(); ++i) {
    add_texts(out, 'x', panel_tick_labels(l, i, 'x'));
    add_texts(out, 'y', panel_tick_labels(l, i, 'y'));
  }
  add_texts(out, 'c', colorbar_tick_labels(l.bar, l.values));
  add_texts(out, 'p', panel_titles(f, l));
  add_texts(out, 'a', {x_axis_label(l.grid, l.x), y_axis_label(l.grid, l.y), colorbar_label(l.bar, l.values)});
  return out;
}

void draw_heatmap(Canvas& c, const HeatmapFigure& f) {
  const Layout l = layout(f);
  Axis x = l.x, y = l.y;
  x.label.clear(), y.label.clear();
  for (std::size_t i = 0; i < l.plots.size(); ++i) {
    const Rect& p = l.plots[i];
    if (i < f.panels.size()) c.raster(p.x, p.y, p.w, p.h, f.panels[i].cells);
    draw_frame(c, p);
    if (i + l.ncols >= l.plots.size()) draw_x_axis(c, p, x);  // bottom panel of its column
    if (i % l.ncols == 0) draw_y_axis(c, p, y);
  }
  for (const Label& t : panel_titles(f, l)) draw_label(c, t);
  // The axis labels once, centred on the whole grid, clear of the first panel's tick labels.
  Axis xl = l.x, yl = l.y;
  xl.draw_ticks = yl.draw_ticks = false;
  draw_x_axis(c, l.grid, xl);
  draw_y_axis(c, l.grid, yl);
  draw_colorbar(c, l.bar, f.cmap, l.values);
  draw_title(c, f.title, f.subtitle, l.title_width);
}

}  // namespace posenc::render
