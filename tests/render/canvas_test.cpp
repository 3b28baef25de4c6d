#include "posenc/render/canvas.hpp"

#include <catch2/catch.hpp>

#include "xml_check.hpp"
#include "rgb_string.hpp"

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

namespace {

// Bytes of standard base64 text.
std::vector<std::uint8_t> from_base64(const std::string& s) {
  static const std::string digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::vector<std::uint8_t> out;
  std::uint32_t acc = 0;
  int bits = 0;
  for (char c : s) {
    if (c == '=') break;
    acc = (acc << 6) | static_cast<std::uint32_t>(digits.find(c));
    bits += 6;
    if (bits >= 8) out.push_back(static_cast<std::uint8_t>(acc >> (bits -= 8)));
  }
  return out;
}

std::uint32_t be32(const std::vector<std::uint8_t>& b, std::size_t at) {
  return (std::uint32_t{b[at]} << 24) | (std::uint32_t{b[at + 1]} << 16) | (std::uint32_t{b[at + 2]} << 8) | b[at + 3];
}

}  // namespace

TEST_CASE("svg rasters are embedded at their size on the page, scaled by nearest neighbour", "[canvas][svg]") {
  // 3×2 cells over 100×50 pixels (33⅓ × 25 each): the embedded PNG is 100×50 and shown 1:1,
  // so no viewer needs to scale (and smooth) it.
  Image cells(3, 2);
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 3; ++x) cells.set(x, y, {static_cast<std::uint8_t>(80 * x), static_cast<std::uint8_t>(100 * y), 7});
  SvgCanvas svg(200, 100);
  svg.raster(10.4, 20.2, 100, 50, cells);
  const std::string doc = svg.finish("t");
  const auto tag = doc.find("<image ");
  REQUIRE(tag != std::string::npos);
  const std::string image = doc.substr(tag, doc.find("/>", tag) - tag);
  CHECK(image.find("x=\"10\" y=\"20\" width=\"100\" height=\"50\"") != std::string::npos);
  CHECK(image.find("preserveAspectRatio") == std::string::npos);
  const auto data = image.find("base64,") + 7;
  const auto png = from_base64(image.substr(data, image.find('"', data) - data));
  REQUIRE(png.size() > 24);
  CHECK(be32(png, 16) == 100);  // IHDR width and height
  CHECK(be32(png, 20) == 50);
  // The same pixels as the PNG backend's: cell x covers columns ⌈100x/3⌉ … of the raster.
  const Image scaled = scale_nearest(cells, 100, 50);
  CHECK(scaled.at(33, 24) == cells.at(0, 0));
  CHECK(scaled.at(34, 25) == cells.at(1, 1));
  CHECK(scaled.at(99, 49) == cells.at(2, 1));
  PngCanvas raster(200, 100);
  raster.raster(10.4, 20.2, 100, 50, cells);
  for (int y = 0; y < 50; ++y)
    for (int x = 0; x < 100; ++x) REQUIRE(raster.image().at(10 + x, 20 + y) == scaled.at(x, y));
}
