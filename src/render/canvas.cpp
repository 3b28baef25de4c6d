// Canvas::text (shared alignment) and the rasterising backend.
#include "posenc/render/canvas.hpp"

#include <algorithm>
#include <cmath>

#include "posenc/render/text.hpp"

namespace posenc::render {
namespace {

int snap(double v) { return static_cast<int>(std::lround(v)); }

// Distance from p to the segment ab.
double segment_distance(Point p, Point a, Point b) {
  const double dx = b.x - a.x, dy = b.y - a.y;
  const double len2 = dx * dx + dy * dy;
  double t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0.0;
  t = std::clamp(t, 0.0, 1.0);
  const double ex = a.x + t * dx - p.x, ey = a.y + t * dy - p.y;
  return std::sqrt(ex * ex + ey * ey);
}

}  // namespace

void Canvas::text(Point anchor, std::string_view s, const TextStyle& st) {
  const FontMetrics fm = font_metrics(st.size);
  // How far the baseline lies "below" the anchor, in the text's own frame.
  double down = 0;
  switch (st.v) {
    case VAlign::kBaseline: down = 0; break;
    case VAlign::kTop: down = fm.cap_height; break;
    case VAlign::kMiddle: down = fm.cap_height / 2; break;
    case VAlign::kBottom: down = -fm.descent; break;
  }
  // Below the text is +y on the page, or +x for text that reads upwards.
  const Point at = st.vertical ? Point{anchor.x + down, anchor.y} : Point{anchor.x, anchor.y + down};
  text_run(at, s, st.size, st.colour, st.h, st.vertical);
}

PngCanvas::PngCanvas(int width, int height, Rgb background) : Canvas(width, height), img_(width, height, background) {}

void PngCanvas::rect(double x, double y, double w, double h, Rgb fill) {
  const int x0 = snap(x), y0 = snap(y), x1 = snap(x + w), y1 = snap(y + h);
  img_.fill_rect(x0, y0, x1 - x0, y1 - y0, fill);
}

void PngCanvas::polyline(const std::vector<Point>& pts, Rgb colour, double stroke) {
  if (pts.empty()) return;
  const double reach = stroke / 2 + 1;
  double lx = pts[0].x, hx = lx, ly = pts[0].y, hy = ly;
  for (const Point& p : pts) {
    lx = std::min(lx, p.x), hx = std::max(hx, p.x);
    ly = std::min(ly, p.y), hy = std::max(hy, p.y);
  }
  const int bx0 = std::max(0, static_cast<int>(std::floor(lx - reach)));
  const int by0 = std::max(0, static_cast<int>(std::floor(ly - reach)));
  const int bx1 = std::min(width() - 1, static_cast<int>(std::ceil(hx + reach)));
  const int by1 = std::min(height() - 1, static_cast<int>(std::ceil(hy + reach)));
  if (bx0 > bx1 || by0 > by1) return;
  // Coverage of the whole line, blended once, so joins are not darkened twice.
  const int bw = bx1 - bx0 + 1;
  std::vector<float> cover(static_cast<std::size_t>(bw) * static_cast<std::size_t>(by1 - by0 + 1), 0.f);
  auto stamp = [&](Point a, Point b) {
    const int x0 = std::max(bx0, static_cast<int>(std::floor(std::min(a.x, b.x) - reach)));
    const int x1 = std::min(bx1, static_cast<int>(std::ceil(std::max(a.x, b.x) + reach)));
    const int y0 = std::max(by0, static_cast<int>(std::floor(std::min(a.y, b.y) - reach)));
    const int y1 = std::min(by1, static_cast<int>(std::ceil(std::max(a.y, b.y) + reach)));
    for (int y = y0; y <= y1; ++y)
      for (int x = x0; x <= x1; ++x) {
        const double d = segment_distance({x + 0.5, y + 0.5}, a, b);
        const auto c = static_cast<float>(std::clamp(stroke / 2 + 0.5 - d, 0.0, 1.0));
        float& dst = cover[static_cast<std::size_t>((y - by0) * bw + (x - bx0))];
        dst = std::max(dst, c);
      }
  };
  if (pts.size() == 1) stamp(pts[0], pts[0]);
  for (std::size_t i = 1; i < pts.size(); ++i) stamp(pts[i - 1], pts[i]);
  for (int y = by0; y <= by1; ++y)
    for (int x = bx0; x <= bx1; ++x)
      blend_pixel(img_, x, y, colour, cover[static_cast<std::size_t>((y - by0) * bw + (x - bx0))]);
}

void PngCanvas::disc(Point c, double radius, Rgb fill) {
  const int x0 = static_cast<int>(std::floor(c.x - radius - 1)), x1 = static_cast<int>(std::ceil(c.x + radius + 1));
  const int y0 = static_cast<int>(std::floor(c.y - radius - 1)), y1 = static_cast<int>(std::ceil(c.y + radius + 1));
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x) {
      const double d = std::hypot(x + 0.5 - c.x, y + 0.5 - c.y);
      blend_pixel(img_, x, y, fill, std::clamp(radius + 0.5 - d, 0.0, 1.0));
    }
}

void PngCanvas::raster(double x, double y, double w, double h, const Image& src) {
  const int x0 = snap(x), y0 = snap(y), x1 = snap(x + w), y1 = snap(y + h);
  if (x1 <= x0 || y1 <= y0 || src.width() == 0 || src.height() == 0) return;
  const Image scaled = scale_nearest(src, x1 - x0, y1 - y0);
  for (int j = 0; j < scaled.height(); ++j)
    for (int i = 0; i < scaled.width(); ++i) img_.set(x0 + i, y0 + j, scaled.at(i, j));
}

void PngCanvas::text_run(Point at, std::string_view s, double size, Rgb colour, HAlign h, bool vertical) {
  const double shift = h == HAlign::kLeft ? 0.0 : h == HAlign::kCenter ? 0.5 : 1.0;
  const double w = shift > 0 ? text_width(s, size) * shift : 0.0;
  if (vertical)
    draw_text(img_, at.x, at.y + w, s, size, colour, true);
  else
    draw_text(img_, at.x - w, at.y, s, size, colour, false);
}

}  // namespace posenc::render
