#include "posenc/render/canvas.hpp"

#include <catch2/catch.hpp>

#include "xml_check.hpp"

using namespace posenc::render;

TEST_CASE("the png canvas fills whole pixels of rectangles", "[canvas]") {
  PngCanvas c(20, 10);
  c.rect(2, 3, 4, 1, {255, 0, 0});
  CHECK(c.image().at(2, 3) == Rgb{255, 0, 0});
  CHECK(c.image().at(5, 3) == Rgb{255, 0, 0});
  CHECK(c.image().at(6, 3) == Rgb{255, 255, 255});
  CHECK(c.image().at(2, 4) == Rgb{255, 255, 255});
}

TEST_CASE("png lines and discs are anti-aliased and stay inside the image", "[canvas]") {
  PngCanvas c(40, 40);
  c.polyline({{-10, 5.5}, {50, 5.5}}, {0, 0, 0}, 1.0);  // runs off both edges
  CHECK(c.image().at(20, 5) == Rgb{0, 0, 0});             // pixel centre on the line: full colour
  CHECK(c.image().at(20, 7) == Rgb{255, 255, 255});
  c.polyline({{5, 20}, {35, 30}}, {0, 0, 0}, 2.0);  // a slanted line has partly covered pixels
  bool partial = false;
  for (int y = 18; y < 33; ++y)
    for (int x = 4; x < 37; ++x)
      if (const auto v = c.image().at(x, y).r; v > 20 && v < 235) partial = true;
  CHECK(partial);
  c.disc({20, 35}, 3, {0, 0, 255});
  CHECK(c.image().at(20, 35) == Rgb{0, 0, 255});
}

TEST_CASE("raster scales an image with nearest-neighbour cells", "[canvas]") {
  Image cells(2, 1);
  cells.set(0, 0, {255, 0, 0});
  cells.set(1, 0, {0, 0, 255});
  PngCanvas c(10, 4);
  c.raster(0, 0, 10, 4, cells);
  CHECK(c.image().at(4, 3) == Rgb{255, 0, 0});
  CHECK(c.image().at(5, 0) == Rgb{0, 0, 255});
}

TEST_CASE("svg canvas writes well-formed svg with escaped text", "[canvas][svg]") {
  SvgCanvas c(100, 50);
  c.rect(1, 2, 3.333, 4, {1, 2, 3});
  c.polyline({{0, 0}, {10, 10.005}}, {255, 0, 0}, 1.5);
  c.disc({5, 5}, 2, {0, 255, 0});
  c.text({50, 25}, "a < b & \"c\"", {12, {0, 0, 0}, HAlign::kCenter, VAlign::kMiddle, true});
  Image img(1, 1);
  c.raster(0, 0, 10, 10, img);
  const std::string svg = c.finish("title <1>", {{"base", "10000"}});
  CHECK(posenc::test::xml_problem(svg).empty());
  CHECK(svg.find("a &lt; b &amp; &quot;c&quot;</text>") != std::string::npos);
  CHECK(svg.find("text-anchor=\"middle\"") != std::string::npos);
  CHECK(svg.find("rotate(-90") != std::string::npos);
  CHECK(svg.find("width=\"3.33\"") != std::string::npos);  // two decimals
  CHECK(svg.find("<title>title &lt;1&gt;</title>") != std::string::npos);
  CHECK(svg.find("<desc>base=10000</desc>") != std::string::npos);
  CHECK(svg.find("data:image/png;base64,iVBORw0KGgo") != std::string::npos);  // PNG signature in base64
}

TEST_CASE("the xml check rejects broken documents", "[canvas][svg]") {
  using posenc::test::xml_problem;
  CHECK(xml_problem("<a><b/></a>").empty());
  CHECK(!xml_problem("<a><b></a>").empty());
  CHECK(!xml_problem("<a x=1/>").empty());
  CHECK(!xml_problem("<a>&nbsp;</a>").empty());
  CHECK(!xml_problem("<a/><b/>").empty());
}
