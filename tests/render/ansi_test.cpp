// Terminal previews: fitted to the terminal's width and height, colours of the map only.
#include "posenc/render/ansi.hpp"

#include <catch2/catch.hpp>

#include <regex>
#include <set>

#include "posenc/render/colormap.hpp"
#include "posenc/render/figure.hpp"
#include "posenc/render/text.hpp"
#include "render_samples.hpp"

using namespace posenc::render;

namespace {

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  for (std::size_t at = 0, nl; (nl = s.find('\n', at)) != std::string::npos; at = nl + 1) out.push_back(s.substr(at, nl - at));
  return out;
}

// What the terminal shows of a line: its code points without the escape codes.
std::size_t visible(const std::string& line) {
  return decode_utf8(std::regex_replace(line, std::regex("\x1b\\[[0-9;]*m"), "")).size();
}

std::size_t blocks(const std::string& line) {
  std::size_t n = 0;
  for (auto p = line.find("\u2580"); p != std::string::npos; p = line.find("\u2580", p + 1)) ++n;
  return n;
}

// The 24-bit colours set in the text.
std::set<std::tuple<int, int, int>> colours(const std::string& s) {
  std::set<std::tuple<int, int, int>> out;
  const std::regex re("\x1b\\[[34]8;2;([0-9]+);([0-9]+);([0-9]+)m");
  for (auto it = std::sregex_iterator(s.begin(), s.end(), re); it != std::sregex_iterator(); ++it)
    out.insert({std::stoi((*it)[1]), std::stoi((*it)[2]), std::stoi((*it)[3])});
  return out;
}

std::set<std::tuple<int, int, int>> map_colours(const std::string& cmap) {
  std::set<std::tuple<int, int, int>> out;
  for (int k = 0; k < 256; ++k) {
    const Rgb c = colormap(cmap, (k + 0.5) / 256);
    out.insert({c.r, c.g, c.b});
  }
  return out;
}

// A heatmap of `rows` × `cols` cells drawn one pixel each by value(r, c) in [0, 1].
template <class F>
HeatmapFigure cells_figure(int rows, int cols, const std::string& cmap, F value) {
  HeatmapFigure f;
  f.title = "t";
  f.rows = static_cast<std::size_t>(rows), f.cols = static_cast<std::size_t>(cols), f.lo = -1, f.hi = 1, f.cmap = cmap;
  Image cells(cols, rows);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) cells.set(c, r, colormap(cmap, value(r, c)));
  f.panels = {{"", cells}};
  return f;
}

}  // namespace

TEST_CASE("every line of a preview fits the terminal's width", "[figure][ansi]") {
  for (int columns : {8, 12, 20, 33, 80}) {
    INFO(columns << " columns");
    for (const Figure& f : {Figure(posenc::test::sample_heatmap("a title longer than a narrow terminal")),
                            Figure(posenc::test::sample_lines(3)), Figure(posenc::test::sample_scatter(3)),
                            Figure(posenc::test::sample_panels(8))}) {
      for (const auto& line : lines_of(to_ansi(f, columns))) {
        INFO(line);
        CHECK(visible(line) <= static_cast<std::size_t>(columns));
      }
    }
  }
  // The colour scale keeps its ends and label when there is room: "−1 ████ 1  value", the
  // strip 32 cells at most; whole numbers without decimals, others to 1/100 of the range.
  std::string strip;
  for (int i = 0; i < 32; ++i) strip += "\u2588";
  const auto plain = [](const std::string& line) { return std::regex_replace(line, std::regex("\x1b\\[[0-9;]*m"), ""); };
  CHECK(plain(lines_of(to_ansi(posenc::test::sample_heatmap("s"), 80)).back()) == "\u22121 " + strip + " 1  value");
  HeatmapFigure h = posenc::test::sample_heatmap("s");
  h.lo = 0.45, h.hi = 1;
  CHECK(plain(lines_of(to_ansi(h, 80)).back()) == "0.450 " + strip + " 1.000  value");
  CHECK(plain(lines_of(to_ansi(h, 24)).back()) == "0.450 " + strip.substr(0, 12 * 3) + " 1.000");
}

TEST_CASE("a shrunk preview averages values, not colours", "[figure][ansi]") {
  // Bands of four columns at the two ends of RdBu (red −1, blue +1): shrunk 8 times, each
  // block is their mean 0, RdBu's centre, not the purple of mixing red and blue light. (Columns
  // alternating one by one would be sampled: see "samples alternating columns" below.)
  const HeatmapFigure stripes = cells_figure(16, 64, "RdBu", [](int, int c) { return c / 4 % 2 ? 1.0 : 0.0; });
  const std::string a = to_ansi(stripes, 8, 100);
  const auto lines = lines_of(a);
  REQUIRE(lines[lines.size() - 2] == "reduced\u2026");  // "reduced 64→8 columns (averaged)" cut to 8 cells
  bool sampled = true;
  resample_cells(stripes.panels[0].cells, "RdBu", 8, 8, false, 64, &sampled);
  CHECK_FALSE(sampled);
  // The picture: between the title and the note.
  const std::size_t from = lines[0].size() + 1, to = a.size() - lines.back().size() - 1 - lines[lines.size() - 2].size() - 1;
  const std::string picture = a.substr(from, to - from);
  const Rgb centre = colormap("RdBu", 0.5);
  CHECK(colours(picture) == std::set<std::tuple<int, int, int>>{{centre.r, centre.g, centre.b}});
  // A binary table shrunk: every colour is one of viridis'.
  const HeatmapFigure bits = cells_figure(64, 8, "viridis", [](int r, int c) { return (r >> (7 - c)) & 1 ? 1.0 : 0.0; });
  const std::string b = to_ansi(bits, 20, 12);
  const auto viridis = map_colours("viridis");
  for (const auto& c : colours(b)) {
    INFO(std::get<0>(c) << "," << std::get<1>(c) << "," << std::get<2>(c));
    CHECK(viridis.count(c) == 1);
  }
  // resample_cells: a 2×1 image of values 0.25 and 0.75 (their slots' centres) to 1×1 is 0.5.
  Image two(2, 1);
  two.set(0, 0, colormap("magma", 64.5 / 256)), two.set(1, 0, colormap("magma", 192.5 / 256));
  CHECK(resample_cells(two, "magma", 1, 1).at(0, 0) == colormap("magma", 128.5 / 256));
  CHECK(resample_cells(two, "magma", 1, 1, true).at(0, 0) == colormap("magma", 192.5 / 256));
}

TEST_CASE("a preview fits the terminal's height and keeps the figure's aspect", "[figure][ansi]") {
  // 64 positions × 8 bits: the figure's panel is 0.6 as wide as tall (a tall narrow table).
  const HeatmapFigure bits = cells_figure(64, 8, "viridis", [](int r, int c) { return (r >> (7 - c)) & 1 ? 1.0 : 0.0; });
  const auto [pw, ph] = heatmap_panel_size(bits);
  for (int lines : {12, 24, 40}) {
    INFO(lines << " lines");
    const auto out = lines_of(to_ansi(bits, 60, lines));
    // Title, picture, the note when the table was reduced, colour scale; a line is left for the prompt.
    CHECK(out.size() <= static_cast<std::size_t>(lines - 1));
    const std::size_t note = out[out.size() - 2].rfind("reduced ", 0) == 0 ? 1 : 0;
    CHECK(note == (lines < 36 ? 1u : 0u));  // 64 rows need 32 lines of picture
    const std::size_t rows = 2 * (out.size() - 2 - note), width = blocks(out[1]);
    CHECK(rows == 2 * static_cast<std::size_t>(lines - 3 - static_cast<int>(note)));  // as tall as it may be: 60 columns would need 100 rows
    CHECK(static_cast<double>(width) == Approx(static_cast<double>(rows) * pw / ph).epsilon(0).margin(1));
  }
  // Without a height limit it is as wide as the terminal.
  const auto tall = lines_of(to_ansi(bits, 60, 1000));
  CHECK(blocks(tall[1]) == 60);
  CHECK(static_cast<double>(2 * (tall.size() - 2)) == Approx(60 * ph / pw).epsilon(0).margin(2));
}

namespace {

// The foreground colour of each half block of one preview line (the upper pixel row).
std::vector<std::tuple<int, int, int>> upper_pixels(const std::string& line) {
  std::vector<std::tuple<int, int, int>> out;
  std::tuple<int, int, int> fg{-1, -1, -1};
  const std::regex re("\x1b\\[38;2;([0-9]+);([0-9]+);([0-9]+)m|\u2580");
  for (auto it = std::sregex_iterator(line.begin(), line.end(), re); it != std::sregex_iterator(); ++it) {
    if ((*it)[1].matched) fg = {std::stoi((*it)[1]), std::stoi((*it)[2]), std::stoi((*it)[3])};
    else out.push_back(fg);
  }
  return out;
}

std::tuple<int, int, int> rgb(Rgb c) { return {c.r, c.g, c.b}; }

}  // namespace

// Issue 15 item 21: 128 interleaved sin/cos columns in 80 characters were averaged, 1.6
// columns a character, which drew stripes (beats of period 5 characters) that are not in the
// data. Alternating columns are now sampled, keeping the alternation, and a line says so.
TEST_CASE("a preview samples alternating columns instead of averaging them", "[figure][ansi]") {
  // Even columns low, odd columns high, each a little different: a table of interleaved pairs.
  const auto value = [](int, int c) { return c % 2 == 0 ? 0.1 + 0.3 * c / 128.0 : 0.6 + 0.3 * c / 128.0; };
  const HeatmapFigure f = cells_figure(2, 128, "viridis", value);
  const auto out = lines_of(to_ansi(f, 80, 40));
  REQUIRE(out.size() >= 3);
  const auto picture = upper_pixels(out[1]);
  REQUIRE(picture.size() == 80);
  for (int x = 0; x < 80; ++x) {
    const int c = alternating_sample(x, 128, 80);
    INFO("character " << x << ", column " << c);
    CHECK(c % 2 == x % 2);                                    // sin and cos still alternate
    CHECK(std::abs(c - ((x + 0.5) * 1.6 - 0.5)) <= 1.0);       // at most a column from its place
    CHECK(picture[static_cast<std::size_t>(x)] == rgb(f.panels[0].cells.at(c, 0)));  // a real cell's colour
  }
  CHECK(out[out.size() - 2] == "reduced 128\u2192" "80 columns (sampled: they alternate), 2\u2192" "1 rows (averaged)");

  // The rule: lag-1 squared differences above 1.1 × lag-2 ones.
  CHECK(columns_alternate({0, 1, 0, 1, 0}, 1, 5));
  CHECK_FALSE(columns_alternate({0, 1, 2, 3, 4}, 1, 5));    // a ramp: lag 2 differs 4× as much
  CHECK_FALSE(columns_alternate({0, 1, 1, 0, 0, 1}, 1, 6)); // lag 1: 3, lag 2: 4
  // A smooth table (split layout, a ramp) is still averaged: colours between its cells'.
  bool sampled = true;
  const HeatmapFigure ramp = cells_figure(1, 128, "viridis", [](int, int c) { return c / 127.0; });
  const Image r = resample_cells(ramp.panels[0].cells, "viridis", 80, 1, false, 128, &sampled);
  CHECK_FALSE(sampled);
  CHECK(r.width() == 80);
}

