#include "posenc/render/line_plot.hpp"

#include <algorithm>
#include <cmath>

#include "posenc/render/colormap.hpp"

namespace posenc::render {
namespace {

constexpr Rgb kFrame{160, 160, 160};
constexpr Rgb kZero{210, 210, 210};

void frame_box(Image& img, const PlotFrame& f) {
  img.fill_rect(f.left - 1, f.top - 1, f.width + 2, 1, kFrame);
  img.fill_rect(f.left - 1, f.top + f.height, f.width + 2, 1, kFrame);
  img.fill_rect(f.left - 1, f.top - 1, 1, f.height + 2, kFrame);
  img.fill_rect(f.left + f.width, f.top - 1, 1, f.height + 2, kFrame);
}

}  // namespace

double PlotFrame::px(double x) const {
  return left + (x - x_min) / (x_max - x_min) * (width - 1);
}

double PlotFrame::py(double y) const {
  return top + (y_max - y) / (y_max - y_min) * (height - 1);
}

PlotFrame make_frame(const PlotOptions& opt, double x_min, double x_max, double y_min, double y_max) {
  PlotFrame f;
  f.left = opt.margin;
  f.top = opt.margin;
  f.width = std::max(1, opt.width - 2 * opt.margin);
  f.height = std::max(1, opt.height - 2 * opt.margin);
  if (!(x_max > x_min)) {
    x_min -= 1;
    x_max += 1;
  }
  if (!(y_max > y_min)) {
    y_min -= 1;
    y_max += 1;
  }
  const double pad = 0.05 * (y_max - y_min);
  f.x_min = x_min;
  f.x_max = x_max;
  f.y_min = y_min - pad;
  f.y_max = y_max + pad;
  return f;
}

Rgb series_colour(const std::string& cmap, std::size_t i, std::size_t n) {
  const double t = n > 1 ? 0.85 * static_cast<double>(i) / static_cast<double>(n - 1) : 0.0;
  return colormap(cmap, t);
}

void draw_disc(Image& img, double cx, double cy, double radius, Rgb c) {
  const int x0 = static_cast<int>(std::floor(cx - radius)), x1 = static_cast<int>(std::ceil(cx + radius));
  const int y0 = static_cast<int>(std::floor(cy - radius)), y1 = static_cast<int>(std::ceil(cy + radius));
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x)
      if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= radius * radius) img.set(x, y, c);
}

void draw_line(Image& img, double x0, double y0, double x1, double y1, Rgb c, int width) {
  // Step along the longer axis one pixel at a time, stamping a square of the line width.
  const double steps = std::ceil(std::max(std::abs(x1 - x0), std::abs(y1 - y0)));
  const int n = steps > 0 ? static_cast<int>(std::min(steps, 1e6)) : 0;
  const int half = (width - 1) / 2;
  for (int i = 0; i <= n; ++i) {
    const double t = n > 0 ? static_cast<double>(i) / n : 0.0;
    const int x = static_cast<int>(std::lround(x0 + t * (x1 - x0)));
    const int y = static_cast<int>(std::lround(y0 + t * (y1 - y0)));
    img.fill_rect(x - half, y - half, width, width, c);
  }
}

Image line_plot(const std::vector<double>& x, const std::vector<std::vector<double>>& series, const PlotOptions& opt) {
  double x_min = x.empty() ? 0 : x.front(), x_max = x.empty() ? 1 : x.back();
  double y_min = INFINITY, y_max = -INFINITY;
  for (const auto& s : series)
    for (double v : s)
      if (std::isfinite(v)) {
        y_min = std::min(y_min, v);
        y_max = std::max(y_max, v);
      }
  if (!std::isfinite(y_min)) y_min = y_max = 0.0;
  const PlotFrame f = make_frame(opt, x_min, x_max, y_min, y_max);
  Image img(opt.width, opt.height);
  if (f.y_min < 0 && f.y_max > 0) img.fill_rect(f.left, static_cast<int>(std::lround(f.py(0))), f.width, 1, kZero);
  frame_box(img, f);
  for (std::size_t s = 0; s < series.size(); ++s) {
    const Rgb c = series_colour(opt.cmap, s, series.size());
    const auto& v = series[s];
    for (std::size_t i = 0; i < v.size() && i < x.size(); ++i) {
      if (!std::isfinite(v[i])) continue;
      const bool joined = i > 0 && std::isfinite(v[i - 1]);
      if (joined) {
        draw_line(img, f.px(x[i - 1]), f.py(v[i - 1]), f.px(x[i]), f.py(v[i]), c, opt.line_width);
      } else if (i + 1 >= v.size() || !std::isfinite(v[i + 1])) {
        draw_disc(img, f.px(x[i]), f.py(v[i]), opt.line_width, c);  // an isolated point stays visible
      }
    }
  }
  return img;
}

}  // namespace posenc::render
