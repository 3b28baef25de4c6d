#pragma once
/// Finished figures: heatmaps, line plots and scatter plots with titles, axes, ticks,
/// colorbars and legends. A figure is a plain description; draw() puts it on any Canvas,
/// and the output functions turn it into PNG bytes, an SVG document or a terminal preview.
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "posenc/matrix.hpp"
#include "posenc/render/axes.hpp"
#include "posenc/render/canvas.hpp"

namespace posenc::render {

/// One matrix of a heatmap figure (one head of a 3-D table).
struct HeatmapPanel {
  std::string title;  ///< above the panel when there are several ("head 0 (m = 2^-1)")
  Image cells;        ///< the colour image of the cells (already reduced or enlarged)
  /// Used for every panel when some title is wider than its panel ("h0 m=2^-1"), and cut
  /// with "…" when even that is too wide.
  std::string short_title = {};
};

/// Matrices shown as coloured cells, rows top to bottom, columns left to right: one panel,
/// or a grid of panels (e.g. one per head) sharing axes and one colorbar.
struct HeatmapFigure {
  std::string title, subtitle;
  std::string x_label = "dimension", y_label = "position", value_label = "value";
  std::vector<HeatmapPanel> panels;
  std::size_t rows = 0;    ///< size of each matrix, before any reduction
  std::size_t cols = 0;
  double first_row = 0;    ///< tick value of row 0 (and of column 0)
  double first_col = 0;
  double lo = 0, hi = 1;   ///< values at the ends of the colorbar
  std::string cmap = "viridis";
  int width = 0, height = 0;  ///< 0: fitted around the cell images
  double text_scale = 1.0;    ///< text sizes and spacings × this (--scale)
  bool reduce_by_max = false; ///< terminal previews shrink cells by max (bias, bucket tables), not the mean
  /// Names of the columns (binary's bit3 … bit0) used as x tick labels instead of indices; empty: indices.
  std::vector<std::string> column_labels;
  /// The only values the table holds (binary: 0, 1), between lo and hi: the colorbar shows one
  /// block per value, labelled at its centre, instead of a continuous scale. Empty: continuous.
  std::vector<double> levels;
};

struct LineSeries {
  std::string name;
  std::vector<double> y;  ///< one value per x; NaN/Inf (or ≤ 0 on a log axis) break the line
};

/// A labelled horizontal line across a plot (e.g. the original context length).
struct ReferenceLine {
  double y = 0;
  std::string label;
};

/// Curves over a shared x axis, with a legend when there are several.
struct LineFigure {
  std::string title, subtitle, x_label, y_label;
  std::vector<double> x;
  std::vector<LineSeries> series;
  std::vector<ReferenceLine> references;  ///< drawn grey and dashed under the curves, inside the y range
  bool log_x = false, log_y = false;
  bool integer_x = false;  ///< x values are indices (heads, layers): x ticks on integers only
  std::string cmap;  ///< "" = the Tableau 10 palette
  int width = 800, height = 500;
  double text_scale = 1.0;  ///< text sizes and spacings × this (--scale)
  /// More plots stacked below this one (e.g. wavelength above, frequency below). Each uses its
  /// own `series`, `references`, `y_label`, `log_y` and has its `title` as a heading; the x
  /// values, x axis, colours and size are this figure's unless the panel has its own `x` (then
  /// its `x_label` and `log_x` too: plots of different quantities, as `posenc model` draws).
  /// The height is shared equally and the plots' left edges are aligned.
  std::vector<LineFigure> panels;
  /// A heading above the first plot (the stacked ones have their `title`); "" = none.
  std::string heading = {};
  /// Names of the y values 0, 1, … (M-RoPE's t, h, w): a categorical y axis from −0.5 to
  /// size − 0.5, one tick per name; empty: a numeric axis.
  std::vector<std::string> y_categories = {};
  /// Draws each series as steps, for a value per index (the axis each pair follows): value i holds
  /// from midway after x[i−1] to midway before x[i+1] (the ends from x[0] and to x[n−1]).
  bool steps = false;
};

/// Points (2 or 3 columns) coloured by their row (position), joined in order by a faint line.
/// Three columns are drawn in a fixed oblique view (azimuth −60°, elevation 30°, as
/// matplotlib's default 3-D axes), each axis scaled to the box.
struct ScatterFigure {
  std::string title, subtitle;
  std::vector<std::string> axis_labels;  ///< one per column
  Matrix points;
  double first_position = 0;             ///< colour value of row 0; row i is first_position + i
  std::string colour_label = "position";
  std::string cmap = "viridis";
  int width = 720, height = 560;
  double text_scale = 1.0;  ///< text sizes and spacings × this (--scale)
};

using Figure = std::variant<HeatmapFigure, LineFigure, ScatterFigure>;

/// Where draw() puts a figure's parts, in pixels: for tests that look for each part's
/// pixels, and for callers that annotate a figure.
struct FigureLayout {
  /// A text's role ('x', 'y', 'z': tick labels of those axes, 'c': of the colorbar, 'p': a
  /// panel title, 'a': an axis or colorbar label), the text, and the box its glyphs occupy
  /// (text_box).
  struct Text {
    char part = 0;
    std::string text;
    Rect box;
  };
  Rect title;               ///< the band of the title and subtitle (h = 0 without them)
  std::vector<Rect> plots;  ///< data areas: heatmap panels, the line or 2-D scatter plot, the 3-D box's bounds
  Rect colorbar;            ///< the gradient, `cmap`'s top colour at the top (w = 0: none)
  std::string cmap;
  Rect legend;              ///< the legend's box (w = 0: none)
  std::vector<LegendEntry> legend_entries;
  std::vector<Text> texts;
  std::vector<std::pair<Point, Point>> edges;  ///< the 3-D box's twelve edges
};
FigureLayout figure_layout(const Figure& f);

/// Pixel size of the figure.
std::pair<int, int> figure_size(const Figure& f);
std::pair<int, int> heatmap_size(const HeatmapFigure& f);
/// Pixel size of each panel of a heatmap figure when its width and height are given
/// (renderers size the cells to it); otherwise of the cells as they will be drawn.
std::pair<double, double> heatmap_panel_size(const HeatmapFigure& f);
/// Columns of the grid of n panels: n up to 4, then 4 up to 8, then ⌈√n⌉.
std::size_t heatmap_grid_columns(std::size_t n);

/// Draws the whole figure (the canvas should have figure_size). `bare` draws the data alone
/// over the whole canvas, without text, axes or legend (terminal previews).
void draw(Canvas& c, const Figure& f);
void draw_heatmap(Canvas& c, const HeatmapFigure& f);
void draw_line_plot(Canvas& c, const LineFigure& f, bool bare = false);
void draw_scatter(Canvas& c, const ScatterFigure& f, bool bare = false);

using Metadata = std::vector<std::pair<std::string, std::string>>;

/// The rendered image.
Image to_image(const Figure& f);
/// PNG bytes; `metadata` (software, title, parameters) goes into tEXt chunks, its "Title"
/// replaced by (or, when missing, given) the figure's title.
std::vector<std::uint8_t> to_png(const Figure& f, const Metadata& metadata);
/// An SVG document with text as <text>; the title in <title>, `metadata` (with "Title" as
/// to_png) in <desc>.
std::string to_svg(const Figure& f, const Metadata& metadata);
/// A terminal preview at most `columns` characters wide and `lines` lines tall (the title,
/// the picture in 24-bit colour half blocks, a line naming the colours, or the legend, and a
/// line left for the prompt). Heatmap panels keep the figure's aspect: as wide as the
/// terminal unless that would be too tall, then narrower; their cells are shrunk by value
/// (resample_cells). Line and scatter plots are drawn at that size without text.
/// Without `colour` the same pictures are drawn in glyphs (glyph_values, glyph_series), with
/// no escape sequences at all: the ramp as the scale, each series' glyph in the legend.
std::string to_ansi(const Figure& f, int columns, int lines = 24, bool colour = true);

}  // namespace posenc::render
