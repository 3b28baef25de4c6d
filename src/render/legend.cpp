// Colorbar, legend and series colours (declared in axes.hpp).
#include "posenc/render/axes.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "posenc/render/colormap.hpp"
#include "posenc/render/text.hpp"

namespace posenc::render {
namespace {

constexpr double kBarWidth = 16;
constexpr double kBarGap = 16;
constexpr double kSwatch = 22;

double row_height() { return 1.4 * theme().legend; }

}  // namespace

double colorbar_width(const Axis& values) {
  const Theme& th = theme();
  double w = kBarGap + kBarWidth + th.tick_length + th.gap + widest_tick_label(values);
  if (!values.label.empty()) w += 2 * th.gap + 1.25 * th.label;
  return w + th.pad;
}

std::vector<Label> colorbar_tick_labels(const Rect& bar, const Axis& values) {
  const Theme& th = theme();
  Axis a = values;
  a.downward = false;
  std::vector<Label> out;
  for (const auto& t : a.ticks)
    out.push_back({t.label, {bar.right() + th.tick_length + th.gap, y_pixel(a, bar, t.value)},
                   {th.tick, th.text, HAlign::kLeft, VAlign::kMiddle}});
  return out;
}

void draw_colorbar(Canvas& c, const Rect& bar, const std::string& cmap, const Axis& values) {
  const Theme& th = theme();
  // The gradient, one colour per pixel row: the top row is exactly the map's last colour
  // (hi), the bottom row its first (lo), evenly spaced values in between.
  const int rows = std::max(2, static_cast<int>(std::lround(bar.h)));
  const Colormap map(cmap);
  Image strip(1, rows);
  for (int i = 0; i < rows; ++i) {
    double f = 1.0 - static_cast<double>(i) / (rows - 1);
    if (values.blocks > 1) {  // a discrete scale: block k (from the bottom) is value k/(blocks − 1) of the range
      const int k = std::min(values.blocks - 1, static_cast<int>((rows - 1 - i) * values.blocks / rows));
      f = static_cast<double>(k) / (values.blocks - 1);
    }
    strip.set(0, i, map(f));
  }
  c.raster(bar.x, bar.y, bar.w, bar.h, strip);
  draw_frame(c, bar);
  Axis a = values;
  a.downward = false;
  for (const auto& t : a.ticks) c.rect(bar.right(), y_pixel(a, bar, t.value) - 0.5, th.tick_length, 1, th.axis);
  for (const auto& l : colorbar_tick_labels(bar, values)) draw_label(c, l);
  if (!values.label.empty()) draw_label(c, colorbar_label(bar, values));
}

Label colorbar_label(const Rect& bar, const Axis& values) {
  const Theme& th = theme();
  // Reads upwards; its top faces the bar, past the widest tick label.
  const double x = bar.right() + th.tick_length + 2 * th.gap + widest_tick_label(values) + th.label;
  return {fit_text(values.label, th.label, bar.h), {x, bar.y + bar.h / 2},
          {th.label, th.text, HAlign::kCenter, VAlign::kBaseline, true}};
}

double legend_width(const std::vector<LegendEntry>& entries) {
  double w = 0;
  for (const auto& e : entries) w = std::max(w, text_width(e.name, theme().legend));
  return 2 * theme().gap + kSwatch + 6 + w + 2 * theme().gap;
}

double legend_height(const std::vector<LegendEntry>& entries) {
  return static_cast<double>(entries.size()) * row_height() + 2 * theme().gap;
}

Rect legend_box(const Rect& plot, const std::vector<LegendEntry>& entries, const std::vector<Point>& avoid,
                std::size_t* covered) {
  const double w = std::min(legend_width(entries), plot.w - 16), h = legend_height(entries);
  constexpr double kInset = 8;
  // Corners in order of preference; the one covering the fewest data points wins.
  const std::array<Point, 4> corners = {Point{plot.right() - kInset - w, plot.y + kInset},
                                        Point{plot.x + kInset, plot.y + kInset},
                                        Point{plot.right() - kInset - w, plot.bottom() - kInset - h},
                                        Point{plot.x + kInset, plot.bottom() - kInset - h}};
  Point best = corners[0];
  std::size_t fewest = SIZE_MAX;
  for (const Point& p : corners) {
    const auto n = static_cast<std::size_t>(std::count_if(avoid.begin(), avoid.end(), [&](const Point& q) {
      return q.x >= p.x - 4 && q.x <= p.x + w + 4 && q.y >= p.y - 4 && q.y <= p.y + h + 4;
    }));
    if (n < fewest) fewest = n, best = p;
  }
  if (covered) *covered = fewest;
  return {best.x, best.y, w, h};
}

void draw_legend(Canvas& c, const Rect& box, const std::vector<LegendEntry>& entries) {
  if (entries.empty()) return;
  const Theme& th = theme();
  c.rect(box.x - 1, box.y - 1, box.w + 2, box.h + 2, {200, 200, 200});
  c.rect(box.x, box.y, box.w, box.h, th.background);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const double y = box.y + th.gap + (static_cast<double>(i) + 0.5) * row_height();
    const double x = box.x + th.gap;
    c.polyline({{x, y}, {x + kSwatch, y}}, entries[i].colour, 2.5);
    c.text({x + kSwatch + 6, y}, fit_text(entries[i].name, th.legend, box.w - kSwatch - 6 - 2 * th.gap),
           {th.legend, th.text, HAlign::kLeft, VAlign::kMiddle});
  }
}

Rgb line_colour(const std::string& cmap, std::size_t i, std::size_t n) {
  static constexpr std::array<Rgb, 10> kTableau = {
      Rgb{31, 119, 180}, Rgb{255, 127, 14}, Rgb{44, 160, 44},  Rgb{214, 39, 40},  Rgb{148, 103, 189},
      Rgb{140, 86, 75},  Rgb{227, 119, 194}, Rgb{127, 127, 127}, Rgb{188, 189, 34}, Rgb{23, 190, 207}};
  if (cmap.empty() && n <= kTableau.size()) return kTableau[i];
  // Stop short of the light end of sequential maps so the last line stays visible on white.
  const double t = n > 1 ? 0.9 * static_cast<double>(i) / static_cast<double>(n - 1) : 0.0;
  return colormap(cmap.empty() ? "viridis" : cmap, t);
}

}  // namespace posenc::render
