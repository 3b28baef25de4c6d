// Terminal previews without colour (NO_COLOR, --color never): glyphs, no escape sequences.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "posenc/render/ansi.hpp"
#include "posenc/render/colormap.hpp"
#include "posenc/render/figure.hpp"
#include "render_samples.hpp"

using namespace posenc::render;

namespace {

std::vector<std::string> mono_lines_of(const std::string& s) {
  std::vector<std::string> out;
  for (std::size_t at = 0, nl; (nl = s.find('\n', at)) != std::string::npos; at = nl + 1) out.push_back(s.substr(at, nl - at));
  return out;
}

// 4 rows of 9 cells, cell c of each row at value (c + ½)/9: the ramp's level c.
HeatmapFigure mono_gradient(const std::string& cmap) {
  HeatmapFigure f;
  f.title = "gradient";
  f.rows = 4, f.cols = 9, f.lo = 0, f.hi = 1, f.cmap = cmap, f.value_label = "v";
  Image cells(9, 4);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 9; ++c) cells.set(c, r, colormap(cmap, (c + 0.5) / 9));
  f.panels = {{"", cells}};
  return f;
}

}  // namespace

TEST_CASE("the glyph ramp: level floor(v·9), blank for NaN", "[figure][ansi][mono]") {
  CHECK(kGlyphRamp.size() == 9);
  CHECK(ramp_glyph(0.0) == '.');
  CHECK(ramp_glyph(1.0) == '@');  // clamped to the last level
  CHECK(ramp_glyph(0.5) == '+');  // floor(4.5) = 4
  CHECK(ramp_glyph(0.111) == '.');
  CHECK(ramp_glyph(0.112) == ':');  // 1/9 = 0.1111…
  CHECK(ramp_glyph(-3.0) == '.');
  CHECK(ramp_glyph(NAN) == ' ');
  CHECK(series_glyph(0) == '*');
  CHECK(series_glyph(1) == 'o');
  CHECK(series_glyph(10) == '*');
}

TEST_CASE("a heatmap without colour: each cell's value as its glyph, the ramp as the scale", "[figure][ansi][mono]") {
  for (const std::string cmap : {"viridis", "magma", "cividis", "RdBu"}) {  // not gray: its mid grey is the NaN colour
    INFO(cmap);
    const std::string text = to_ansi(mono_gradient(cmap), 9, 24, false);
    CHECK(text.find('\x1b') == std::string::npos);
    const auto lines = mono_lines_of(text);
    REQUIRE(lines.size() >= 3);
    CHECK(lines.front() == "gradient");
    // The picture: every line between the title and the scale is the ramp, cell by cell.
    for (std::size_t i = 1; i + 1 < lines.size(); ++i) CHECK(lines[i] == ".:-=+*#%@");
    CHECK(lines.back().find('@') != std::string::npos);
    CHECK(lines.back().rfind("0 ", 0) == 0);
  }
}

TEST_CASE("masked cells stay blank without colour", "[figure][ansi][mono]") {
  HeatmapFigure f = mono_gradient("viridis");
  f.panels[0].cells.set(4, 0, Rgb{128, 128, 128});
  f.panels[0].cells.set(4, 1, Rgb{128, 128, 128});  // a whole character: both half rows NaN
  const auto lines = mono_lines_of(to_ansi(f, 9, 24, false));
  REQUIRE(lines.size() >= 3);
  CHECK(lines[1] == ".:-= *#%@");
}

TEST_CASE("a line plot without colour: one glyph per series, named in the legend", "[figure][ansi][mono]") {
  const LineFigure f = posenc::test::sample_lines(3);
  const std::string text = to_ansi(f, 60, 24, false);
  CHECK(text.find('\x1b') == std::string::npos);
  const auto lines = mono_lines_of(text);
  REQUIRE(lines.size() > 4);
  CHECK(lines[lines.size() - 3] == "** k=0.1");
  CHECK(lines[lines.size() - 2] == "oo k=0.2");
  CHECK(lines[lines.size() - 1] == "++ k=0.3");
  std::string picture;
  for (std::size_t i = 1; i + 3 < lines.size(); ++i) picture += lines[i];
  for (const char g : {'*', 'o', '+'}) CHECK(picture.find(g) != std::string::npos);
}

TEST_CASE("a scatter plot without colour: points by position on the ramp", "[figure][ansi][mono]") {
  const std::string text = to_ansi(posenc::test::sample_scatter(2), 60, 24, false);
  CHECK(text.find('\x1b') == std::string::npos);
  const auto lines = mono_lines_of(text);
  REQUIRE(lines.size() > 3);
  std::string picture;
  for (std::size_t i = 1; i + 1 < lines.size(); ++i) picture += lines[i];
  CHECK(picture.find('@') != std::string::npos);  // the last positions
  CHECK(picture.find_first_of(".:") != std::string::npos);  // the first ones (and the frame)
}

TEST_CASE("the colour preview is unchanged by the glyph mode's existence", "[figure][ansi][mono]") {
  const std::string text = to_ansi(mono_gradient("viridis"), 9, 24);
  CHECK(text.find("\x1b[38;2;") != std::string::npos);
  CHECK(text.find('@') == std::string::npos);
}
