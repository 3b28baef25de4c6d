#include "posenc/render/text.hpp"

#include <catch2/catch.hpp>

#include "rgb_string.hpp"

using namespace posenc::render;

namespace {

// Bounding box of the pixels that differ from white.
struct Box {
  int x0 = 1 << 30, y0 = 1 << 30, x1 = -1, y1 = -1;
  bool empty() const { return x1 < 0; }
};
Box ink(const Image& img) {
  Box b;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x)
      if (!(img.at(x, y) == Rgb{255, 255, 255})) {
        b.x0 = std::min(b.x0, x), b.x1 = std::max(b.x1, x);
        b.y0 = std::min(b.y0, y), b.y1 = std::max(b.y1, y);
      }
  return b;
}

}  // namespace

TEST_CASE("utf-8 decodes to code points and back", "[text]") {
  const std::string s = "Δθ ×10⁻³ → x";
  const auto cps = decode_utf8(s);
  CHECK(cps.front() == U'\u0394');  // GREEK CAPITAL LETTER DELTA
  CHECK(cps[6] == U'\u207B');       // SUPERSCRIPT MINUS
  CHECK(encode_utf8(cps) == s);
  CHECK(decode_utf8("a\xff").back() == U'\uFFFD');  // a malformed byte is replaced, not skipped silently
}

TEST_CASE("text width grows with length and size", "[text]") {
  CHECK(text_width("", 12) == 0);
  CHECK(text_width("position", 12) > text_width("pos", 12));
  CHECK(text_width("position", 24) == Approx(2 * text_width("position", 12)).epsilon(1e-6));
  const FontMetrics m = font_metrics(20);
  // DejaVu Sans: ascent 0.928 em, descent 0.236 em, cap height 0.729 em (from its hhea and 'H' box).
  CHECK(m.ascent == Approx(0.928 * 20).epsilon(0).margin(0.2));
  CHECK(m.descent == Approx(0.236 * 20).epsilon(0).margin(0.2));
  CHECK(m.cap_height == Approx(0.729 * 20).epsilon(0).margin(0.2));
}

TEST_CASE("text is drawn anti-aliased where it was placed", "[text]") {
  Image img(200, 60);
  draw_text(img, 10, 40, "position 10", 16, {0, 0, 0});
  const Box b = ink(img);
  REQUIRE(!b.empty());
  CHECK(b.x0 >= 10);
  CHECK(b.x0 <= 12);
  CHECK(b.x1 == Approx(10 + text_width("position 10", 16)).epsilon(0).margin(2));
  CHECK(b.y1 <= 40 + 4);   // the 'p' descends a little below the baseline
  CHECK(b.y0 >= 40 - 13);  // cap height of 16 px DejaVu is ~11.7 px
  // Anti-aliasing: some pixels are neither black nor white.
  bool grey = false;
  for (int y = b.y0; y <= b.y1; ++y)
    for (int x = b.x0; x <= b.x1; ++x)
      if (const Rgb c = img.at(x, y); c.r > 30 && c.r < 225) grey = true;
  CHECK(grey);
}

TEST_CASE("vertical text reads upwards from its start", "[text]") {
  Image img(60, 200);
  draw_text(img, 40, 180, "query i", 14, {0, 0, 0}, true);
  const Box b = ink(img);
  REQUIRE(!b.empty());
  CHECK(b.y1 <= 181);  // starts at y = 180 and goes up
  CHECK(b.y1 - b.y0 + 1 == Approx(text_width("query i", 14)).epsilon(0).margin(2));
  CHECK(b.x1 - b.x0 < 20);  // one line of 14 px text across
  CHECK(b.x0 < 40);         // letters' tops face left of the baseline
}
