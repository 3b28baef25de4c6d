#pragma once
// Checks of a figure against its layout (figure_layout): the pixels of each part are where
// the layout says. Shared by the layout tests.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "posenc/render/colormap.hpp"
#include "posenc/render/figure.hpp"
#include "rgb_string.hpp"

namespace posenc::test {

using render::Figure;
using render::FigureLayout;
using render::Image;
using render::Point;
using render::Rect;
using render::Rgb;
using render::colormap;
using render::figure_layout;
using render::to_image;

// Pixels of text in the box: text is drawn grey (#222222 blended over white, r = g = b), so
// colour (points, cells) and the light grey of grid lines and the 3-D box do not count.
inline int text_ink(const Image& img, const Rect& box) {
  int n = 0;
  for (int y = std::max(0, static_cast<int>(std::floor(box.y))); y < std::min(img.height(), static_cast<int>(std::ceil(box.bottom()))); ++y)
    for (int x = std::max(0, static_cast<int>(std::floor(box.x))); x < std::min(img.width(), static_cast<int>(std::ceil(box.right()))); ++x) {
      const Rgb c = img.at(x, y);
      n += c.r == c.g && c.g == c.b && c.r < 160;
    }
  return n;
}

inline bool has_colour(const Image& img, const Rect& box, Rgb want) {
  for (int y = std::max(0, static_cast<int>(box.y)); y < std::min(img.height(), static_cast<int>(box.bottom())); ++y)
    for (int x = std::max(0, static_cast<int>(box.x)); x < std::min(img.width(), static_cast<int>(box.right())); ++x)
      if (img.at(x, y) == want) return true;
  return false;
}

// Index of `c` in the colormap's 256 colours (matplotlib's table), -1 if it is not one of them.
inline int lut_index(const std::string& cmap, Rgb c) {
  for (int k = 0; k < 256; ++k)
    if (colormap(cmap, (k + 0.5) / 256) == c) return k;
  return -1;
}

inline std::size_t count_part(const FigureLayout& l, char part) {
  return static_cast<std::size_t>(std::count_if(l.texts.begin(), l.texts.end(), [&](const auto& t) { return t.part == part; }));
}

// What every figure owes: a title band with ink, ink in every tick label (at least two per
// axis in `parts`), labels apart from each other.
inline void check_texts(const Figure& f, const std::string& parts) {
  const Image img = to_image(f);
  const FigureLayout l = figure_layout(f);
  CHECK(l.title.h > 0);
  CHECK(text_ink(img, l.title) > 100);
  for (char part : parts) {
    INFO("axis " << part);
    CHECK(count_part(l, part) >= 2);
  }
  for (const auto& t : l.texts) {
    INFO("'" << t.text << "' (" << t.part << ") at " << t.box.x << "," << t.box.y << " " << t.box.w << "×" << t.box.h);
    CHECK(t.box.x >= 0);
    CHECK(t.box.y >= 0);
    CHECK(t.box.right() <= img.width());
    CHECK(t.box.bottom() <= img.height());
    CHECK(text_ink(img, t.box) >= 5);
  }
  for (std::size_t i = 0; i < l.texts.size(); ++i)
    for (std::size_t j = i + 1; j < l.texts.size(); ++j) {
      INFO("'" << l.texts[i].text << "' and '" << l.texts[j].text << "'");
      CHECK_FALSE(l.texts[i].box.overlaps(l.texts[j].box));
    }
}

// The colorbar: right of every plot, its top row the colormap's last colour and its bottom row
// the first, each row one colour of the map, the index never rising downwards.
inline void check_colorbar(const Figure& f) {
  const Image img = to_image(f);
  const FigureLayout l = figure_layout(f);
  REQUIRE(l.colorbar.w > 0);
  REQUIRE(l.colorbar.h > 50);
  for (const Rect& p : l.plots) {
    CHECK_FALSE(l.colorbar.overlaps(p));
    CHECK(l.colorbar.x >= p.right());
  }
  for (const auto& t : l.texts)
    if (t.part == 'c') CHECK(t.box.x >= l.colorbar.right());
  const int x0 = static_cast<int>(l.colorbar.x), x1 = static_cast<int>(l.colorbar.right());
  const int y0 = static_cast<int>(l.colorbar.y), y1 = static_cast<int>(l.colorbar.bottom());
  CHECK(img.at(x0, y0) == colormap(l.cmap, 1.0));
  CHECK(img.at(x1 - 1, y1 - 1) == colormap(l.cmap, 0.0));
  int previous = 256, bad_rows = 0;
  for (int y = y0; y < y1; ++y) {
    const int k = lut_index(l.cmap, img.at(x0, y));
    bool row_ok = k >= 0 && k <= previous;
    for (int x = x0; x < x1; ++x) row_ok = row_ok && img.at(x, y) == img.at(x0, y);
    bad_rows += row_ok ? 0 : 1;
    previous = k;
  }
  CHECK(bad_rows == 0);
}

// True when segment pq passes through the rectangle (Liang–Barsky clipping).
inline bool crosses(const std::pair<Point, Point>& s, const Rect& r) {
  const double dx = s.second.x - s.first.x, dy = s.second.y - s.first.y;
  double t0 = 0, t1 = 1;
  for (const auto& [p, q] : {std::pair{-dx, s.first.x - r.x}, std::pair{dx, r.right() - s.first.x},
                             std::pair{-dy, s.first.y - r.y}, std::pair{dy, r.bottom() - s.first.y}}) {
    if (p == 0) {
      if (q < 0) return false;
      continue;
    }
    const double t = q / p;
    if (p < 0) t0 = std::max(t0, t);
    else t1 = std::min(t1, t);
  }
  return t0 < t1;
}

}  // namespace posenc::test
