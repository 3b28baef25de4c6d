#pragma once
/// Anti-aliased text for figures: DejaVu Sans (embedded in the binary at build time)
/// rasterised by stb_truetype. Sizes are em sizes in pixels, like CSS/SVG font-size.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "posenc/render/image.hpp"

namespace posenc::render {

/// Vertical extent of the font at a size: ascent and descent above / below the baseline
/// (both positive), and the height of capital letters and digits.
struct FontMetrics {
  double ascent = 0;
  double descent = 0;
  double cap_height = 0;
};
FontMetrics font_metrics(double px);

/// Advance width in pixels of UTF-8 `text` at size `px`, kerning included.
double text_width(std::string_view text, double px);

/// Unicode code points of UTF-8 `text`; malformed bytes become U+FFFD.
std::vector<char32_t> decode_utf8(std::string_view text);
/// The code points of `text` the embedded font has no glyph for (drawn as its empty box), each
/// once, in order of appearance.
std::vector<char32_t> missing_glyphs(std::string_view text);
/// UTF-8 bytes of code points.
std::string encode_utf8(const std::vector<char32_t>& code_points);

/// Coverage (0..255) of rendered text. The pen starts at (origin_x + x_fraction, baseline)
/// of the mask, x_fraction being the subpixel shift given to rasterize_text.
struct TextMask {
  int width = 0;
  int height = 0;
  int origin_x = 0;
  int baseline = 0;
  std::vector<std::uint8_t> alpha;  ///< row-major, width × height
};
/// Rasterises `text` at size `px`; `x_fraction` in [0, 1) shifts the pen right for subpixel placement.
TextMask rasterize_text(std::string_view text, double px, double x_fraction = 0.0);

/// Draws `text` in `colour` with the start of its baseline at (x, y), blending coverage
/// over the pixels. `vertical` turns it 90° anticlockwise (it reads upwards, as y-axis labels).
void draw_text(Image& img, double x, double y, std::string_view text, double px, Rgb colour,
               bool vertical = false);

/// Blends `c` over pixel (x, y) with coverage `alpha` in [0, 1], rounded to 1/16; ignores
/// points outside.
void blend_pixel(Image& img, int x, int y, Rgb c, double alpha);

}  // namespace posenc::render
