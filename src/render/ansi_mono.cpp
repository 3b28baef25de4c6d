// Terminal previews without colour (NO_COLOR, --color never): the same pictures as the
// colour previews, two pixel rows per character, drawn with glyphs instead of colours.
#include "posenc/render/ansi.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "posenc/render/colormap.hpp"

namespace posenc::render {
namespace {

int distance2(Rgb a, Rgb b) {
  const int dr = a.r - b.r, dg = a.g - b.g, db = a.b - b.b;
  return dr * dr + dg * dg + db * db;
}

// Colours within this squared distance of a palette entry are that entry (anti-aliased edges
// and rounding); farther ones are something else (background, axes, NaN).
constexpr int kNear = 3 * 24 * 24;

// The value in [0, 1] whose colour under the map is nearest `c`, or NaN when none is near.
class ValueOf {
 public:
  explicit ValueOf(const std::string& cmap) {
    const Colormap map(cmap);
    for (int k = 0; k < kSteps; ++k) samples_[k] = map((k + 0.5) / kSteps);
  }
  double operator()(Rgb c) const {
    if (c == Rgb{128, 128, 128}) return NAN;  // the NaN colour (masked cells)
    int best = 0, best_d = std::numeric_limits<int>::max();
    for (int k = 0; k < kSteps; ++k) {
      const int d = distance2(samples_[k], c);
      if (d < best_d) best = k, best_d = d;
    }
    return best_d <= kNear ? (best + 0.5) / kSteps : NAN;
  }

 private:
  static constexpr int kSteps = 256;
  Rgb samples_[kSteps];
};

bool ink(Rgb c) { return c.r + c.g + c.b < 3 * 160; }

}  // namespace

char ramp_glyph(double v) {
  if (std::isnan(v)) return ' ';
  const int n = static_cast<int>(kGlyphRamp.size());
  return kGlyphRamp[static_cast<std::size_t>(std::clamp(static_cast<int>(v * n), 0, n - 1))];
}

std::string glyph_values(const Image& img, const std::string& cmap, bool ink_dots) {
  const ValueOf value_of(cmap);
  std::string out;
  for (int y = 0; y < img.height(); y += 2) {
    for (int x = 0; x < img.width(); ++x) {
      const Rgb top = img.at(x, y);
      const double a = value_of(top);
      const double b = y + 1 < img.height() ? value_of(img.at(x, y + 1)) : NAN;
      const double v = std::isnan(a) ? b : std::isnan(b) ? a : (a + b) / 2;
      char g = ramp_glyph(v);
      if (g == ' ' && ink_dots && (ink(top) || (y + 1 < img.height() && ink(img.at(x, y + 1))))) g = '.';
      out += g;
    }
    out += '\n';
  }
  return out;
}

std::string glyph_series(const Image& img, const std::vector<Rgb>& series) {
  const auto series_of = [&](Rgb c) {
    int best = -1, best_d = kNear + 1;
    for (std::size_t i = 0; i < series.size(); ++i) {
      const int d = distance2(series[i], c);
      if (d < best_d) best = static_cast<int>(i), best_d = d;
    }
    return best;
  };
  std::string out;
  for (int y = 0; y < img.height(); y += 2) {
    for (int x = 0; x < img.width(); ++x) {
      const Rgb top = img.at(x, y);
      const bool two = y + 1 < img.height();
      int s = series_of(top);
      if (s < 0 && two) s = series_of(img.at(x, y + 1));
      if (s >= 0) out += series_glyph(static_cast<std::size_t>(s));
      else out += ink(top) || (two && ink(img.at(x, y + 1))) ? '.' : ' ';
    }
    out += '\n';
  }
  return out;
}

char series_glyph(std::size_t i) { return kSeriesGlyphs[i % kSeriesGlyphs.size()]; }

}  // namespace posenc::render
