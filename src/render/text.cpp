#include "posenc/render/text.hpp"

#include <stb_truetype.h>

#include <algorithm>
#include <climits>
#include <cmath>

#include "font_data.hpp"
#include "posenc/error.hpp"

namespace posenc::render {
namespace {

const stbtt_fontinfo& font() {
  static const stbtt_fontinfo info = [] {
    stbtt_fontinfo f{};
    if (!stbtt_InitFont(&f, kFontData, stbtt_GetFontOffsetForIndex(kFontData, 0)))
      throw Error("the embedded font cannot be read");  // a build problem, not the user's
    return f;
  }();
  return info;
}

float scale_for(double px) {
  return stbtt_ScaleForMappingEmToPixels(&font(), static_cast<float>(px));
}

// One glyph placed on the pen line: its code point and pen position (pixels).
struct Placed {
  int codepoint;
  double pen_x;
};

std::vector<Placed> layout(std::string_view text, double px, double start, double* end = nullptr) {
  const float scale = scale_for(px);
  std::vector<Placed> out;
  double pen = start;
  int prev = 0;
  for (char32_t c : decode_utf8(text)) {
    const int cp = static_cast<int>(c);
    if (prev) pen += static_cast<double>(scale) * stbtt_GetCodepointKernAdvance(&font(), prev, cp);
    out.push_back({cp, pen});
    int advance = 0, lsb = 0;
    stbtt_GetCodepointHMetrics(&font(), cp, &advance, &lsb);
    pen += static_cast<double>(scale) * advance;
    prev = cp;
  }
  if (end) *end = pen;
  return out;
}

}  // namespace

std::vector<char32_t> missing_glyphs(std::string_view text) {
  std::vector<char32_t> out;
  for (const char32_t c : decode_utf8(text)) {
    if (c < 0x20 || std::find(out.begin(), out.end(), c) != out.end()) continue;
    if (stbtt_FindGlyphIndex(&font(), static_cast<int>(c)) == 0) out.push_back(c);
  }
  return out;
}

std::vector<char32_t> decode_utf8(std::string_view text) {
  std::vector<char32_t> out;
  for (std::size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    const int len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
    char32_t cp = len == 1 ? b : len == 2 ? (b & 0x1F) : len == 3 ? (b & 0x0F) : (b & 0x07);
    bool ok = len > 0 && i + static_cast<std::size_t>(len) <= text.size();
    for (int k = 1; ok && k < len; ++k) {
      const auto cont = static_cast<unsigned char>(text[i + static_cast<std::size_t>(k)]);
      ok = (cont >> 6) == 2;
      cp = (cp << 6) | (cont & 0x3F);
    }
    out.push_back(ok ? cp : U'\uFFFD');
    i += ok ? static_cast<std::size_t>(len) : 1;
  }
  return out;
}

std::string encode_utf8(const std::vector<char32_t>& code_points) {
  std::string out;
  for (char32_t cp : code_points) {
    auto put = [&](char32_t bits) { out += static_cast<char>(bits); };
    if (cp < 0x80) {
      put(cp);
    } else if (cp < 0x800) {
      put(0xC0 | (cp >> 6)), put(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      put(0xE0 | (cp >> 12)), put(0x80 | ((cp >> 6) & 0x3F)), put(0x80 | (cp & 0x3F));
    } else {
      put(0xF0 | (cp >> 18)), put(0x80 | ((cp >> 12) & 0x3F)), put(0x80 | ((cp >> 6) & 0x3F)), put(0x80 | (cp & 0x3F));
    }
  }
  return out;
}

FontMetrics font_metrics(double px) {
  int ascent = 0, descent = 0, gap = 0;
  stbtt_GetFontVMetrics(&font(), &ascent, &descent, &gap);
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  stbtt_GetCodepointBox(&font(), 'H', &x0, &y0, &x1, &y1);
  const double s = scale_for(px);
  return {s * ascent, -s * descent, s * y1};
}

double text_width(std::string_view text, double px) {
  double end = 0;
  layout(text, px, 0.0, &end);
  return end;
}

TextMask rasterize_text(std::string_view text, double px, double x_fraction) {
  const float scale = scale_for(px);
  const auto glyphs = layout(text, px, x_fraction);
  // Union of the glyph boxes, relative to the pen origin (y up is negative).
  int left = INT_MAX, top = INT_MAX, right = INT_MIN, bottom = INT_MIN;
  struct Box {
    int x0, y0, x1, y1, ix;
    float frac;
  };
  std::vector<Box> boxes;
  for (const auto& g : glyphs) {
    const int ix = static_cast<int>(std::floor(g.pen_x));
    const auto frac = static_cast<float>(g.pen_x - ix);
    Box b{0, 0, 0, 0, ix, frac};
    stbtt_GetCodepointBitmapBoxSubpixel(&font(), g.codepoint, scale, scale, frac, 0.f, &b.x0, &b.y0, &b.x1, &b.y1);
    boxes.push_back(b);
    if (b.x1 <= b.x0 || b.y1 <= b.y0) continue;  // spaces
    left = std::min(left, ix + b.x0);
    right = std::max(right, ix + b.x1);
    top = std::min(top, b.y0);
    bottom = std::max(bottom, b.y1);
  }
  TextMask m;
  if (left >= right) return m;
  m.width = right - left;
  m.height = bottom - top;
  m.origin_x = -left;
  m.baseline = -top;
  m.alpha.assign(static_cast<std::size_t>(m.width) * static_cast<std::size_t>(m.height), 0);
  std::vector<unsigned char> tmp;
  for (std::size_t i = 0; i < glyphs.size(); ++i) {
    const Box& b = boxes[i];
    const int w = b.x1 - b.x0, h = b.y1 - b.y0;
    if (w <= 0 || h <= 0) continue;
    tmp.assign(static_cast<std::size_t>(w) * static_cast<std::size_t>(h), 0);
    stbtt_MakeCodepointBitmapSubpixel(&font(), tmp.data(), w, h, w, scale, scale, b.frac, 0.f, glyphs[i].codepoint);
    // Neighbouring glyphs can overlap by a pixel: add coverage rather than overwrite.
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        auto& dst = m.alpha[static_cast<std::size_t>((y + b.y0 - top) * m.width + (x + b.ix + b.x0 - left))];
        dst = static_cast<std::uint8_t>(std::min(255, dst + tmp[static_cast<std::size_t>(y * w + x)]));
      }
  }
  return m;
}

void blend_pixel(Image& img, int x, int y, Rgb c, double alpha) {
  if (x < 0 || y < 0 || x >= img.width() || y >= img.height()) return;
  // 16 levels of coverage look the same as 256 on edges, and make the PNGs a third smaller.
  alpha = std::round(alpha * 16) / 16;
  if (!(alpha > 0)) return;
  if (alpha >= 1) return img.set(x, y, c);
  const Rgb d = img.at(x, y);
  auto mix = [alpha](std::uint8_t bg, std::uint8_t fg) {
    return static_cast<std::uint8_t>(std::lround(bg + (fg - bg) * alpha));
  };
  img.set(x, y, {mix(d.r, c.r), mix(d.g, c.g), mix(d.b, c.b)});
}

void draw_text(Image& img, double x, double y, std::string_view text, double px, Rgb colour, bool vertical) {
  // The pen moves along x in the mask; for vertical text it moves up the image, so the
  // subpixel fraction applies to y. Glyph tops point left when vertical.
  const double along = vertical ? -y : x;
  const double start = std::floor(along);
  const TextMask m = rasterize_text(text, px, along - start);
  const int base = static_cast<int>(std::lround(vertical ? x : y));
  const int pen = static_cast<int>(start) - m.origin_x;
  for (int my = 0; my < m.height; ++my)
    for (int mx = 0; mx < m.width; ++mx) {
      const std::uint8_t a = m.alpha[static_cast<std::size_t>(my * m.width + mx)];
      if (!a) continue;
      const int dx = pen + mx, dy = my - m.baseline;  // text frame: along the pen, down from the baseline
      if (vertical)
        blend_pixel(img, base + dy, -dx, colour, a / 255.0);
      else
        blend_pixel(img, dx, base + dy, colour, a / 255.0);
    }
}

}  // namespace posenc::render
