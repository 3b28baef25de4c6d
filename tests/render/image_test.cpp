#include "posenc/render/image.hpp"

#include <stb/stb_image.h>  // libstb is compiled: no STB_IMAGE_IMPLEMENTATION

#include <catch2/catch.hpp>
#include <cstring>
#include <memory>
#include <string>

#include "rgb_string.hpp"

using posenc::render::Image;
using posenc::render::Rgb;

namespace {

std::uint32_t png_be32(const std::vector<std::uint8_t>& b, std::size_t at) {
  return std::uint32_t{b[at]} << 24 | std::uint32_t{b[at + 1]} << 16 | std::uint32_t{b[at + 2]} << 8 | b[at + 3];
}

/// Bitwise CRC-32 (PNG spec, annex D), independent of libdeflate.
std::uint32_t crc32(const std::uint8_t* p, std::size_t n) {
  std::uint32_t c = 0xffffffffu;
  for (std::size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
  }
  return c ^ 0xffffffffu;
}

/// Decodes with stb_image and compares every pixel.
void check_round_trip(const Image& img, const std::vector<std::uint8_t>& png) {
  int w = 0, h = 0, n = 0;
  const std::unique_ptr<unsigned char, void (*)(void*)> px(
      stbi_load_from_memory(png.data(), static_cast<int>(png.size()), &w, &h, &n, 3), stbi_image_free);
  REQUIRE(px != nullptr);
  REQUIRE(w == img.width());
  REQUIRE(h == img.height());
  CHECK(n == 3);
  CHECK(std::memcmp(px.get(), img.pixels().data(), img.pixels().size()) == 0);
}

}  // namespace

TEST_CASE("image pixels, bounds and rectangles", "[image]") {
  Image img(4, 3, {1, 2, 3});
  CHECK(img.at(3, 2) == Rgb{1, 2, 3});
  img.set(5, 5, {9, 9, 9});  // ignored
  img.fill_rect(-1, 1, 3, 5, {200, 0, 0});
  CHECK(img.at(0, 0) == Rgb{1, 2, 3});
  CHECK(img.at(1, 2) == Rgb{200, 0, 0});
  CHECK(img.at(2, 1) == Rgb{1, 2, 3});
}

TEST_CASE("png has the signature, IHDR and valid CRCs", "[image][png]") {
  Image img(3, 2);
  img.set(0, 0, {255, 0, 0});
  img.set(2, 1, {0, 0, 255});
  const auto png = posenc::render::encode_png(img, {{"Software", "posenc"}, {"Title", "RoPE θ"}});
  const std::uint8_t sig[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  REQUIRE(png.size() > 33);
  CHECK(std::memcmp(png.data(), sig, 8) == 0);
  CHECK(png_be32(png, 8) == 13);
  CHECK(std::string(png.begin() + 12, png.begin() + 16) == "IHDR");
  CHECK(png_be32(png, 16) == 3);  // width
  CHECK(png_be32(png, 20) == 2);  // height
  CHECK(png[24] == 8);        // bit depth
  CHECK(png[25] == 3);        // indexed: the image has at most 256 colours
  // walk the chunks, checking each CRC and collecting the types
  std::string types;
  for (std::size_t at = 8; at + 12 <= png.size();) {
    const std::uint32_t len = png_be32(png, at);
    types += std::string(png.begin() + static_cast<long>(at) + 4, png.begin() + static_cast<long>(at) + 8) + " ";
    CHECK(png_be32(png, at + 8 + len) == crc32(png.data() + at + 4, len + 4));
    at += 12 + len;
  }
  CHECK(types == "IHDR PLTE tEXt iTXt IDAT IEND ");
  const std::string bytes(png.begin(), png.end());
  CHECK(bytes.find(std::string("tEXtSoftware\0posenc", 19)) != std::string::npos);
  check_round_trip(img, png);
}

TEST_CASE("png round-trips a larger image exactly through stb_image", "[image][png]") {
  Image img(257, 130);
  std::uint32_t seed = 12345;
  for (int y = 0; y < img.height(); ++y) {
    for (int x = 0; x < img.width(); ++x) {
      seed = seed * 1664525u + 1013904223u;  // mix gradients, flat areas and noise for every filter
      const auto noise = static_cast<std::uint8_t>(seed >> 24);
      img.set(x, y, {static_cast<std::uint8_t>(x), static_cast<std::uint8_t>(y < 60 ? 40 : noise),
                     static_cast<std::uint8_t>(x * y)});
    }
  }
  check_round_trip(img, posenc::render::encode_png(img));
  Image flat(1000, 500, {10, 20, 30});
  const auto png = posenc::render::encode_png(flat);
  CHECK(png.size() < 3000);  // 1.5 MB of one colour compresses to almost nothing
  check_round_trip(flat, png);
}

TEST_CASE("an empty image is refused", "[image][png]") {
  CHECK_THROWS_WITH(posenc::render::encode_png(Image(0, 5)), "cannot encode an empty image as png");
}

TEST_CASE("png with more than 256 colours is truecolour RGB", "[image][png]") {
  Image img(20, 20);
  for (int y = 0; y < 20; ++y)
    for (int x = 0; x < 20; ++x) img.set(x, y, {static_cast<std::uint8_t>(x * 12), static_cast<std::uint8_t>(y * 12), 7});
  const auto png = posenc::render::encode_png(img);
  CHECK(png[25] == 2);  // 400 colours: truecolour RGB
  check_round_trip(img, png);
}
