#pragma once
/// A drawing surface with two backends: PngCanvas rasterises (anti-aliased) into an
/// Image, SvgCanvas writes vector SVG with text as <text>. Figures draw once onto a
/// Canvas, so the PNG and the SVG of a figure come from the same description.
/// Coordinates are pixels from the top-left corner; pixel (i, j) covers [i, i+1)×[j, j+1).
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "posenc/render/image.hpp"

namespace posenc::render {

struct Point {
  double x = 0;
  double y = 0;
};

/// An axis-aligned rectangle in pixels.
struct Rect {
  double x = 0, y = 0, w = 0, h = 0;
  double right() const { return x + w; }
  double bottom() const { return y + h; }
  /// True when the two rectangles share interior points (touching edges do not count).
  bool overlaps(const Rect& o) const { return x < o.right() && o.x < right() && y < o.bottom() && o.y < bottom(); }
  /// The rectangle grown by `d` on every side.
  Rect inflated(double d) const { return {x - d, y - d, w + 2 * d, h + 2 * d}; }
};

/// Where the anchor point sits along the text (start, centre or end of the run).
enum class HAlign { kLeft, kCenter, kRight };
/// Where the anchor point sits across the text: its baseline, the top or middle of the
/// capitals, or the bottom of the descenders.
enum class VAlign { kBaseline, kTop, kMiddle, kBottom };

struct TextStyle {
  double size = 13;  ///< em size in pixels
  Rgb colour{0, 0, 0};
  HAlign h = HAlign::kLeft;
  VAlign v = VAlign::kBaseline;
  bool vertical = false;  ///< turned 90° anticlockwise: reads upwards, "left" is the bottom
};

class Canvas {
 public:
  Canvas(int width, int height) : width_(width), height_(height) {}
  virtual ~Canvas() = default;
  Canvas(const Canvas&) = delete;
  Canvas& operator=(const Canvas&) = delete;

  int width() const { return width_; }
  int height() const { return height_; }

  /// A filled axis-aligned rectangle; the PNG backend snaps its edges to whole pixels.
  virtual void rect(double x, double y, double w, double h, Rgb fill) = 0;
  /// An open polyline of stroke width `stroke` (round joins).
  virtual void polyline(const std::vector<Point>& points, Rgb colour, double stroke) = 0;
  /// A filled disc.
  virtual void disc(Point centre, double radius, Rgb fill) = 0;
  /// `img` stretched over the rectangle with nearest-neighbour sampling (crisp cells).
  virtual void raster(double x, double y, double w, double h, const Image& img) = 0;
  /// Text placed by its anchor point and alignment (the font is DejaVu Sans).
  void text(Point anchor, std::string_view text, const TextStyle& style);

 protected:
  /// One run of text whose baseline passes through `at`, which is the start, centre or
  /// end of the run as `h` says.
  virtual void text_run(Point at, std::string_view text, double size, Rgb colour, HAlign h, bool vertical) = 0;

 private:
  int width_;
  int height_;
};

/// Rasterising backend: anti-aliased shapes and text over a white (or given) background.
class PngCanvas final : public Canvas {
 public:
  PngCanvas(int width, int height, Rgb background = {255, 255, 255});
  const Image& image() const { return img_; }

  void rect(double x, double y, double w, double h, Rgb fill) override;
  void polyline(const std::vector<Point>& points, Rgb colour, double stroke) override;
  void disc(Point centre, double radius, Rgb fill) override;
  void raster(double x, double y, double w, double h, const Image& img) override;

 protected:
  void text_run(Point at, std::string_view text, double size, Rgb colour, HAlign h, bool vertical) override;

 private:
  Image img_;
};

/// Vector backend: SVG 1.1, one element per call, numbers rounded to 1/100 pixel.
/// Rasters are embedded as PNG data URIs, scaled beforehand to their whole pixels on the page
/// (as PngCanvas draws them) and shown 1:1.
class SvgCanvas final : public Canvas {
 public:
  SvgCanvas(int width, int height, Rgb background = {255, 255, 255});
  /// The document; `title` becomes <title> and `metadata` (parameters echoed) <desc>.
  std::string finish(const std::string& title,
                     const std::vector<std::pair<std::string, std::string>>& metadata = {}) const;

  void rect(double x, double y, double w, double h, Rgb fill) override;
  void polyline(const std::vector<Point>& points, Rgb colour, double stroke) override;
  void disc(Point centre, double radius, Rgb fill) override;
  void raster(double x, double y, double w, double h, const Image& img) override;

 protected:
  void text_run(Point at, std::string_view text, double size, Rgb colour, HAlign h, bool vertical) override;

 private:
  std::string body_;
};

/// "#rrggbb".
std::string hex_colour(Rgb c);

}  // namespace posenc::render
