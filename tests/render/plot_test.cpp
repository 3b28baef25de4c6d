#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "posenc/render/colormap.hpp"
#include "posenc/render/line_plot.hpp"
#include "posenc/render/scatter.hpp"

using namespace posenc::render;

namespace {

bool has_colour(const Image& img, Rgb c, int x0, int y0, int x1, int y1) {
  for (int y = std::max(0, y0); y <= std::min(img.height() - 1, y1); ++y)
    for (int x = std::max(0, x0); x <= std::min(img.width() - 1, x1); ++x)
      if (img.at(x, y) == c) return true;
  return false;
}

}  // namespace

TEST_CASE("frame maps the data range onto the plot area, y upwards", "[plot]") {
  PlotOptions o;
  o.width = 200;
  o.height = 100;
  o.margin = 10;
  const auto f = make_frame(o, 0, 10, 0, 1);
  CHECK(f.px(0) == 10);
  CHECK(f.px(10) == Approx(10 + 179));
  CHECK(f.py(f.y_max) == 10);
  CHECK(f.py(f.y_min) == Approx(10 + 79));
  CHECK(f.y_min == Approx(-0.05));
  const auto flat = make_frame(o, 0, 10, 3, 3);  // a flat series gets ±1
  CHECK(flat.y_min < 3);
  CHECK(flat.y_max > 3);
}

TEST_CASE("line plot draws each series in its colour and breaks at masked values", "[plot]") {
  PlotOptions o;
  o.width = 300;
  o.height = 200;
  const std::vector<double> x = {0, 1, 2, 3, 4};
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<std::vector<double>> ys = {{0, 0, 0, 0, 0}, {1, 1, -inf, 1, 1}};
  const Image img = line_plot(x, ys, o);
  CHECK(img.width() == 300);
  CHECK(img.height() == 200);
  const auto f = make_frame(o, 0, 4, 0, 1);
  const Rgb c0 = series_colour(o.cmap, 0, 2), c1 = series_colour(o.cmap, 1, 2);
  const int y0 = static_cast<int>(std::lround(f.py(0))), y1 = static_cast<int>(std::lround(f.py(1)));
  const int mid = static_cast<int>(std::lround(f.px(0.5)));
  CHECK(has_colour(img, c0, mid, y0 - 1, mid, y0 + 1));
  CHECK(has_colour(img, c1, mid, y1 - 1, mid, y1 + 1));
  // Between x = 1 and x = 3 the second series is masked: no line at y = 1.
  const int gap = static_cast<int>(std::lround(f.px(2)));
  CHECK_FALSE(has_colour(img, c1, gap - 2, y1 - 2, gap + 2, y1 + 2));
  CHECK(img.at(2, 2) == Rgb{255, 255, 255});
}

TEST_CASE("scatter colours the first position dark and the last light", "[plot]") {
  posenc::Matrix m(3, 2);
  m(0, 0) = 0; m(0, 1) = 0;
  m(1, 0) = 0.5; m(1, 1) = 1;
  m(2, 0) = 1; m(2, 1) = 0;
  PlotOptions o;
  const Image img = scatter_plot(m, o);
  const Rgb first = colormap(o.cmap, 0.0), last = colormap(o.cmap, 1.0);
  CHECK(has_colour(img, first, 0, o.height / 2, o.width / 4, o.height));
  CHECK(has_colour(img, last, 3 * o.width / 4, o.height / 2, o.width, o.height));
  posenc::Matrix cube(8, 3);  // 3-D input draws without trouble
  for (std::size_t r = 0; r < 8; ++r)
    for (std::size_t c = 0; c < 3; ++c) cube(r, c) = ((r >> c) & 1) ? 1.0 : 0.0;
  CHECK(scatter_plot(cube).width() == o.width);
}
