#include "posenc/render/figure.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "posenc/render/colormap.hpp"
#include "render_samples.hpp"
#include "xml_check.hpp"

using namespace posenc::render;
using posenc::test::sample_heatmap;
using posenc::test::sample_lines;
using posenc::test::sample_scatter;

namespace {

const Rgb kWhite{255, 255, 255};

// Non-background pixels in [x0, x1) × [y0, y1).
int ink(const Image& img, int x0, int y0, int x1, int y1) {
  int n = 0;
  for (int y = std::max(0, y0); y < std::min(img.height(), y1); ++y)
    for (int x = std::max(0, x0); x < std::min(img.width(), x1); ++x) n += !(img.at(x, y) == kWhite);
  return n;
}

}  // namespace

TEST_CASE("figures have the requested size", "[figure]") {
  LineFigure l = sample_lines();
  l.width = 640, l.height = 400;
  CHECK(to_image(l).width() == 640);
  CHECK(to_image(l).height() == 400);
  HeatmapFigure h = sample_heatmap("t");
  h.width = 900, h.height = 300;
  CHECK(figure_size(h) == std::pair{900, 300});
  ScatterFigure s = sample_scatter(3);
  CHECK(to_image(s).width() == s.width);
}

TEST_CASE("an automatic heatmap is fitted around its cells", "[figure]") {
  // 50 rows of one pixel are enlarged 4 times (to at least 200 px) so the labels fit.
  const HeatmapFigure h = sample_heatmap("sinusoidal");
  const auto [w, hgt] = figure_size(h);
  CHECK(w >= 4 * 128 + 100);  // cells plus axis and colorbar
  CHECK(hgt >= 4 * 50 + 60);
  CHECK(hgt < 4 * 50 + 200);
}

TEST_CASE("a heatmap draws its axis labels, and no title band without a title", "[figure]") {
  // Tick labels, title and colorbar: layout_test.cpp.
  const HeatmapFigure h = sample_heatmap("sinusoidal");
  const Image img = to_image(h);
  CHECK(ink(img, 0, img.height() - 30, img.width(), img.height()) > 50);   // x axis label
  CHECK(ink(img, 0, 0, 30, img.height()) > 30);                            // y axis label
  HeatmapFigure untitled = h;
  untitled.title.clear(), untitled.subtitle.clear();
  const Image bare = to_image(untitled);
  CHECK(ink(bare, 0, 0, bare.width(), 8) == 0);
  CHECK(figure_layout(untitled).title.h == 0);
}

TEST_CASE("line figures stack their panels, each with its own y axis and heading", "[figure]") {
  LineFigure one = sample_lines();
  LineFigure two = sample_lines();
  LineFigure below;
  below.title = "second <plot>";
  below.y_label = "other axis";
  below.log_y = true;
  below.series.push_back({"exp", {}});
  for (double x : two.x) below.series.back().y.push_back(std::exp(x / 10));
  two.panels.push_back(below);
  one.height = two.height = 600;
  CHECK(to_image(two).height() == 600);
  const std::string svg = to_svg(two, {});
  CHECK(posenc::test::xml_problem(svg).empty());
  CHECK(svg.find(">second &lt;plot&gt;</text>") != std::string::npos);
  CHECK(svg.find(">other axis</text>") != std::string::npos);
  CHECK(svg.find(">dot product</text>") != std::string::npos);
  // The x axis label is drawn under each plot.
  std::size_t offsets = 0;
  for (auto at = svg.find(">offset</text>"); at != std::string::npos; at = svg.find(">offset</text>", at + 1)) ++offsets;
  CHECK(offsets == 2);
  const std::string single = to_svg(one, {});
  CHECK(single.find(">other axis</text>") == std::string::npos);
  CHECK(single.find(">offset</text>") == single.rfind(">offset</text>"));  // one x axis
}

TEST_CASE("svg figures are well-formed and hold their labels as text", "[figure][svg]") {
  for (const Figure& f : {Figure(sample_heatmap("heat <map>")), Figure(sample_lines()), Figure(sample_scatter(2)),
                          Figure(sample_scatter(3))}) {
    const std::string svg = to_svg(f, {{"Software", "posenc"}});
    INFO(svg.substr(0, 400));
    CHECK(posenc::test::xml_problem(svg).empty());
    CHECK(svg.find("<text") != std::string::npos);
  }
  const std::string svg = to_svg(sample_heatmap("heat <map>"), {});
  CHECK(svg.find(">dimension</text>") != std::string::npos);
  CHECK(svg.find(">position</text>") != std::string::npos);
  CHECK(svg.find(">heat &lt;map&gt;</text>") != std::string::npos);
  CHECK(svg.find("by area averaging</text>") != std::string::npos);
}

TEST_CASE("the same figure gives the same bytes", "[figure]") {
  for (const Figure& f : {Figure(sample_heatmap("h")), Figure(sample_lines()), Figure(sample_scatter(3))}) {
    CHECK(to_png(f, {{"k", "v"}}) == to_png(f, {{"k", "v"}}));
    CHECK(to_svg(f, {}) == to_svg(f, {}));
    CHECK(to_ansi(f, 60) == to_ansi(f, 60));
  }
}

TEST_CASE("the terminal preview is as wide as asked, in half blocks", "[figure][ansi]") {
  const std::string a = to_ansi(sample_heatmap("sinusoidal"), 80);
  // Title, round(80·50/128) = 31 pixel rows in 16 lines, the note (128→80 columns, 50→31 rows), the colour scale.
  CHECK(std::count(a.begin(), a.end(), '\n') == 1 + 16 + 1 + 1);
  CHECK(a.rfind("\x1b[1msinusoidal\x1b[0m\n", 0) == 0);
  CHECK(a.find("\x1b[38;2;") != std::string::npos);
  CHECK(a.find("\x1b[48;2;") != std::string::npos);
  // Each picture line holds 80 "▀" (3 bytes each in UTF-8) and ends with a reset.
  const auto first = a.find('\n') + 1, second = a.find('\n', first);
  const std::string line = a.substr(first, second - first);
  std::size_t blocks = 0;
  for (auto p = line.find("\u2580"); p != std::string::npos; p = line.find("\u2580", p + 1)) ++blocks;
  CHECK(blocks == 80);
  CHECK(line.substr(line.size() - 4) == "\x1b[0m");
  const std::string l = to_ansi(sample_lines(), 40);
  // title, 20 px in 10 lines, the scale line (a terminal plot has no axes), two legend lines
  CHECK(std::count(l.begin(), l.end(), '\n') == 1 + 10 + 1 + 2);
}

TEST_CASE("integer_x puts the x ticks of an index axis on integers only", "[figure]") {
  // x = 0 … 7 on a wide axis: the plain ticks step by 0.5 (0, 0.5, 1, …), integer_x by 1.
  LineFigure f;
  f.x_label = "head";
  for (int h = 0; h < 8; ++h) f.x.push_back(h);
  f.series.push_back({"slope", {1, 2, 3, 4, 5, 6, 7, 8}});
  f.width = 1200;
  const auto x_ticks = [](const LineFigure& fig) {
    std::vector<std::string> out;
    for (const auto& t : figure_layout(fig).texts)
      if (t.part == 'x') out.push_back(t.text);
    return out;
  };
  const auto plain = x_ticks(f);
  CHECK(std::find(plain.begin(), plain.end(), "0.5") != plain.end());
  f.integer_x = true;
  CHECK(x_ticks(f) == std::vector<std::string>{"0", "1", "2", "3", "4", "5", "6", "7"});
  // A stacked panel with x values of its own reads its own flag.
  LineFigure top = f;
  top.integer_x = false;
  top.panels.push_back(f);
  const auto both = x_ticks(top);
  CHECK(std::count(both.begin(), both.end(), "0.5") == 1);
}
