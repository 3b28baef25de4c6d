#pragma once
/// The parts every figure is built from: title block, axes with ticks and labels, grid,
/// colorbar and legend. Each part says how much room it needs, so a figure can lay
/// itself out before drawing, and draws itself onto any Canvas.
#include <string>
#include <vector>

#include "posenc/render/canvas.hpp"
#include "posenc/render/ticks.hpp"

namespace posenc::render {

/// Text sizes (pixels) and colours shared by every figure.
struct Theme {
  double title = 16, subtitle = 12, label = 13, tick = 12, legend = 12;
  double tick_length = 5, gap = 4, pad = 10;
  Rgb text{34, 34, 34}, muted{100, 100, 100}, axis{60, 60, 60}, grid{228, 228, 228}, background{255, 255, 255};
};
/// The theme at the current text scale (TextScale): sizes and spacings multiplied by it.
const Theme& theme();
/// While alive, theme() is scaled by `scale` (figures with a text_scale set it around their
/// layout and drawing). Not shared between threads.
class TextScale {
 public:
  explicit TextScale(double scale);
  ~TextScale();
  TextScale(const TextScale&) = delete;
  TextScale& operator=(const TextScale&) = delete;

 private:
  double previous_;
};

/// One axis: label, the data values at its two ends, scale and ticks.
struct Axis {
  std::string label;
  double lo = 0, hi = 1;  ///< values at the start (left, or bottom; top when `downward`) and the end
  bool log = false;
  bool downward = false;  ///< a y axis whose values grow down the page (heatmap rows)
  std::vector<Tick> ticks;
  bool draw_ticks = true;  ///< false: only the label, placed as if the ticks were there (panel grids)
  /// Colorbars: the number of equal blocks of a discrete scale (0: continuous). Block i, from
  /// the bottom, has the colour of value lo + i·(hi − lo)/(blocks − 1).
  int blocks = 0;
  /// Where v lies between lo (0) and hi (1), on a log scale for log axes.
  double fraction(double v) const;
};

/// A piece of text to draw: what, where (the anchor of Canvas::text) and how.
struct Label {
  std::string text;
  Point at;
  TextStyle style;
};
/// The box the label's glyphs occupy: from the top of the capitals to the bottom of the
/// descenders, across its advance width (turned for text reading upwards).
Rect text_box(const Label& l);
/// Draws the label.
void draw_label(Canvas& c, const Label& l);

/// Pixel column of value v on x axis `a` spanning `plot`.
double x_pixel(const Axis& a, const Rect& plot, double v);
/// Pixel row of value v on y axis `a` spanning `plot` (lo at the bottom unless `downward`).
double y_pixel(const Axis& a, const Rect& plot, double v);

/// Ticks for [lo, hi] on an axis `length` pixels long, as many as fit without labels
/// touching: x axes (`horizontal`) by label width, y axes by label height.
/// `min_step` = 1 keeps cell indices on integers.
std::vector<Tick> fit_ticks(double lo, double hi, double length, bool horizontal, bool log = false,
                            double min_step = 0.0);

/// Drops ticks of `a` whose labels would come within `gap` pixels of the label before (along
/// an axis `length` pixels long, across for x axes, up for y axes), the first tick kept: tick
/// labels never overlap, however short the axis.
void thin_ticks(Axis& a, double length, bool horizontal, double gap = 6);

/// Widest tick label of `a` in pixels.
double widest_tick_label(const Axis& a);
/// Height below the plot needed by an x axis (ticks, labels, axis label).
double x_axis_height(const Axis& a);
/// Width left of the plot needed by a y axis.
double y_axis_width(const Axis& a);

/// The tick labels draw_x_axis puts under `plot` (none when !a.draw_ticks).
std::vector<Label> x_tick_labels(const Rect& plot, const Axis& a);
/// The tick labels draw_y_axis puts left of `plot`.
std::vector<Label> y_tick_labels(const Rect& plot, const Axis& a);
/// The axis label draw_x_axis puts under the tick labels (cut to the plot's width).
Label x_axis_label(const Rect& plot, const Axis& a);
/// The axis label draw_y_axis puts left of the tick labels, reading upwards.
Label y_axis_label(const Rect& plot, const Axis& a);
/// Tick marks outside the bottom edge of `plot`, their labels, and the axis label.
void draw_x_axis(Canvas& c, const Rect& plot, const Axis& a);
/// Tick marks outside the left edge of `plot`, labels, and the axis label reading upwards.
void draw_y_axis(Canvas& c, const Rect& plot, const Axis& a);
/// Light lines across the plot at the ticks (under the data).
void draw_grid(Canvas& c, const Rect& plot, const Axis& x, const Axis& y);
/// A one-pixel frame just outside `plot`.
void draw_frame(Canvas& c, const Rect& plot);

/// Width of a colorbar beside a plot: gap, bar, ticks, labels and the value label.
double colorbar_width(const Axis& values);
/// The tick labels draw_colorbar puts right of `bar`.
std::vector<Label> colorbar_tick_labels(const Rect& bar, const Axis& values);
/// The value label draw_colorbar puts right of the tick labels, reading upwards.
Label colorbar_label(const Rect& bar, const Axis& values);
/// A vertical colorbar: `values.lo` at the bottom, `values.hi` at the top, ticks and
/// labels on its right, the value label reading upwards beyond them.
void draw_colorbar(Canvas& c, const Rect& bar, const std::string& cmap, const Axis& values);

/// A subtitle wider than its figure is wrapped onto at most this many lines.
constexpr int kSubtitleLines = 3;
/// Height of the title block (title and, when not empty, the subtitle wrapped to `width`, the
/// figure's width: its lines as wrap_text makes them).
double title_height(const std::string& title, const std::string& subtitle, double width);
/// Title and subtitle centred at the top of a figure `width` pixels wide (<= 0: the canvas's):
/// the title shrunk, then cut with "…", to fit; the subtitle wrapped at spaces onto at most
/// kSubtitleLines lines, the last cut with "…" only if even those are too few.
void draw_title(Canvas& c, const std::string& title, const std::string& subtitle, double width = 0);
/// `text` broken at spaces into lines at most `max_width` pixels wide at size `px`, at most
/// `max_lines` of them (the last, and a word wider than a line, cut with "…").
std::vector<std::string> wrap_text(const std::string& text, double px, double max_width, int max_lines);
/// `text` cut with "…" so that it is at most `max_width` pixels wide at size `px`.
std::string fit_text(const std::string& text, double px, double max_width);

struct LegendEntry {
  std::string name;
  Rgb colour;
};
/// Size of the legend box.
double legend_width(const std::vector<LegendEntry>& entries);
double legend_height(const std::vector<LegendEntry>& entries);
/// The legend's box in the corner of `plot` that covers the fewest of `avoid` (the data's
/// pixel positions); `covered` receives how many it covers.
Rect legend_box(const Rect& plot, const std::vector<LegendEntry>& entries, const std::vector<Point>& avoid,
                std::size_t* covered);
/// A framed legend filling `box`.
void draw_legend(Canvas& c, const Rect& box, const std::vector<LegendEntry>& entries);

/// Colour i of n for line series: a qualitative palette (Tableau 10) when `cmap` is
/// empty and n ≤ 10, else evenly spaced samples of the colormap (viridis when empty).
Rgb line_colour(const std::string& cmap, std::size_t i, std::size_t n);

}  // namespace posenc::render
