// The vector backend: SVG 1.1 with text as <text> in DejaVu Sans (falling back to the
// viewer's sans-serif; positions were computed with DejaVu's metrics).
#include "posenc/render/canvas.hpp"

#include <fmt/format.h>

#include <cmath>

namespace posenc::render {
namespace {

// A coordinate with at most two decimals and no trailing zeros ("12", "3.5", "-0.25").
std::string num(double v) {
  if (!std::isfinite(v)) v = 0;
  std::string s = fmt::format("{:.2f}", v);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default:
        // Control characters are not allowed in XML 1.0.
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n') out += c;
    }
  }
  return out;
}

std::string base64(const std::vector<std::uint8_t>& bytes) {
  static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::uint32_t b0 = bytes[i];
    const std::uint32_t b1 = i + 1 < bytes.size() ? bytes[i + 1] : 0u;
    const std::uint32_t b2 = i + 2 < bytes.size() ? bytes[i + 2] : 0u;
    const std::uint32_t v = (b0 << 16) | (b1 << 8) | b2;
    out += kDigits[(v >> 18) & 63];
    out += kDigits[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? kDigits[(v >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kDigits[v & 63] : '=';
  }
  return out;
}

}  // namespace

std::string hex_colour(Rgb c) { return fmt::format("#{:02x}{:02x}{:02x}", c.r, c.g, c.b); }

SvgCanvas::SvgCanvas(int width, int height, Rgb background) : Canvas(width, height) {
  rect(0, 0, width, height, background);
}

std::string SvgCanvas::finish(const std::string& title,
                              const std::vector<std::pair<std::string, std::string>>& metadata) const {
  std::string head = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\" "
      "width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n",
      width(), height(), width(), height());
  head += fmt::format("<title>{}</title>\n", escape(title));
  if (!metadata.empty()) {
    head += "<desc>";
    for (std::size_t i = 0; i < metadata.size(); ++i)
      head += fmt::format("{}{}={}", i ? "\n" : "", escape(metadata[i].first), escape(metadata[i].second));
    head += "</desc>\n";
  }
  return head + body_ + "</svg>\n";
}

void SvgCanvas::rect(double x, double y, double w, double h, Rgb fill) {
  body_ += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>\n", num(x), num(y), num(w),
                       num(h), hex_colour(fill));
}

void SvgCanvas::polyline(const std::vector<Point>& points, Rgb colour, double stroke) {
  if (points.empty()) return;
  std::string pts;
  for (const Point& p : points) pts += fmt::format("{}{},{}", pts.empty() ? "" : " ", num(p.x), num(p.y));
  if (points.size() == 1) pts += fmt::format(" {},{}", num(points[0].x), num(points[0].y));
  body_ += fmt::format(
      "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" stroke-linejoin=\"round\" "
      "stroke-linecap=\"round\"/>\n",
      pts, hex_colour(colour), num(stroke));
}

void SvgCanvas::disc(Point c, double radius, Rgb fill) {
  body_ += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"/>\n", num(c.x), num(c.y), num(radius),
                       hex_colour(fill));
}

void SvgCanvas::raster(double x, double y, double w, double h, const Image& img) {
  // The image scaled to its whole pixels on the page, as the PNG backend draws it, and shown
  // 1:1: crisp cells in any viewer, even one that smooths scaled images (rsvg-convert). Runs of
  // equal pixels cost little in the embedded PNG.
  const long x0 = std::lround(x), y0 = std::lround(y), x1 = std::lround(x + w), y1 = std::lround(y + h);
  if (x1 <= x0 || y1 <= y0 || img.width() == 0 || img.height() == 0) return;
  const Image scaled = scale_nearest(img, static_cast<int>(x1 - x0), static_cast<int>(y1 - y0));
  body_ += fmt::format(
      "<image x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
      "style=\"image-rendering:pixelated;image-rendering:crisp-edges\" "
      "xlink:href=\"data:image/png;base64,{}\"/>\n",
      x0, y0, scaled.width(), scaled.height(), base64(encode_png(scaled)));
}

void SvgCanvas::text_run(Point at, std::string_view s, double size, Rgb colour, HAlign h, bool vertical) {
  const char* anchor = h == HAlign::kLeft ? "start" : h == HAlign::kCenter ? "middle" : "end";
  const std::string rotate =
      vertical ? fmt::format(" transform=\"rotate(-90 {} {})\"", num(at.x), num(at.y)) : std::string();
  body_ += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{}\" text-anchor=\"{}\"{}>{}</text>\n",
                       num(at.x), num(at.y), num(size), hex_colour(colour), anchor, rotate, escape(s));
}

}  // namespace posenc::render
