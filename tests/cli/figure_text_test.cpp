// Issue 15 item 25: glyphs the built-in font lacks were drawn as boxes without a word; binary
// tables got a continuous colorbar and "dimension" ticks while their CSV says bit3 … bit0.
#include <catch2/catch.hpp>

#include <set>

#include "cli_helpers.hpp"
#include "posenc/render/colormap.hpp"
#include "posenc/render/figure.hpp"

TEST_CASE("a png title with characters the font lacks gets one warning naming them", "[cli][figure]") {
  const auto r = run_cli({"generate", "sinusoidal", "--len", "4", "--dim", "4", "--format", "png", "--title",
                          "\u4e2d\u6587 \u03b8 \u2605 \u3042\u4e2d"});
  CHECK(r.code == 0);
  CHECK(r.out.substr(1, 3) == "PNG");
  CHECK(r.err ==
        "posenc: warning: the figure's font (DejaVu Sans, built in) has no glyph for '\u4e2d' (U+4E2D), '\u6587' "
        "(U+6587), '\u3042' (U+3042): drawn as boxes; an SVG (-o NAME.svg) leaves them to the viewer's fonts\n");
  // θ and ★ are in DejaVu Sans: no warning; an SVG leaves text to the viewer: no warning.
  CHECK(run_cli({"generate", "sinusoidal", "--len", "4", "--dim", "4", "--format", "png", "--title", "\u03b8 \u2605"}).err.empty());
  CHECK(run_cli({"generate", "sinusoidal", "--len", "4", "--dim", "4", "--format", "svg", "--title", "\u4e2d"}).err.empty());
}

TEST_CASE("binary tables are labelled by bit and get a colorbar of 0 and 1", "[cli][figure]") {
  const auto r = run_cli({"generate", "binary", "--len", "16", "--dim", "4", "--format", "svg"});
  REQUIRE(r.code == 0);
  for (const char* t : {">bit3</text>", ">bit2</text>", ">bit1</text>", ">bit0</text>", ">bit</text>", ">0</text>", ">1</text>"})
    CHECK(r.out.find(t) != std::string::npos);
  for (const char* t : {">dimension</text>", ">0.2</text>", ">0.5</text>", ">0.8</text>"}) CHECK(r.out.find(t) == std::string::npos);
  // lsb first: the CSV's order.
  const auto lsb = run_cli({"generate", "binary", "--len", "16", "--dim", "4", "--bit-order", "lsb", "--format", "svg"});
  CHECK(lsb.out.find(">bit0</text>") < lsb.out.find(">bit3</text>"));

  // The colorbar's pixels: the colours of 0 and 1 only, 1 above 0.
  posenc::render::HeatmapFigure f;
  f.rows = 4, f.cols = 2, f.lo = 0, f.hi = 1, f.cmap = "viridis", f.levels = {0, 1};
  posenc::render::Image cells(2, 4);
  f.panels = {{"", cells}};
  const auto img = posenc::render::to_image(f);
  const auto bar = posenc::render::figure_layout(f).colorbar;
  std::set<std::tuple<int, int, int>> seen;
  for (int y = static_cast<int>(bar.y) + 1; y < static_cast<int>(bar.bottom()) - 1; ++y)
    for (int x = static_cast<int>(bar.x) + 1; x < static_cast<int>(bar.right()) - 1; ++x) {
      const auto c = img.at(x, y);
      seen.insert({c.r, c.g, c.b});
    }
  const auto lo = posenc::render::colormap("viridis", 0.0), hi = posenc::render::colormap("viridis", 1.0);
  CHECK(seen == std::set<std::tuple<int, int, int>>{{lo.r, lo.g, lo.b}, {hi.r, hi.g, hi.b}});
  CHECK(img.at(static_cast<int>(bar.x + bar.w / 2), static_cast<int>(bar.y) + 2) == hi);
}

TEST_CASE("scale multiplies every text size of a figure", "[cli][figure]") {
  // Default sizes (axes.hpp Theme): title 16, subtitle 12, labels 13, ticks 12; --scale 2 doubles each.
  const auto count = [](const std::string& svg, const std::string& size) {
    std::size_t n = 0;
    for (auto p = svg.find("font-size=\"" + size + "\""); p != std::string::npos; p = svg.find("font-size=\"" + size + "\"", p + 1)) ++n;
    return n;
  };
  const auto one = run_cli({"decay", "sinusoidal", "--dim", "64", "--format", "svg", "--width", "1600", "--height", "1000"});
  const auto two = run_cli({"decay", "sinusoidal", "--dim", "64", "--format", "svg", "--width", "1600", "--height", "1000", "--scale", "2"});
  REQUIRE(one.code == 0);
  REQUIRE(two.code == 0);
  CHECK(count(one.out, "16") == 1);
  CHECK(count(two.out, "32") == 1);
  CHECK(count(two.out, "26") == count(one.out, "13"));
  CHECK(count(two.out, "24") == count(one.out, "12"));
  CHECK(count(two.out, "12") == 0);
  CHECK(run_cli({"generate", "sinusoidal", "--scale", "9"}).err == "posenc: error: --scale must be a number in 0.5..4 (got '9')\n");
}

// Issue 26 item 23: "ALiBi symmetric biases, 1 heads" — a count of one takes the singular.
TEST_CASE("bias figure titles count one head in the singular", "[cli][figure]") {
  const auto first_line = [](const std::vector<std::string>& args) {
    const auto r = run_cli(args);
    return r.out.substr(0, r.out.find('\n'));
  };
  CHECK(first_line({"generate", "alibi", "--heads", "1", "--len", "4", "--format", "ansi", "--color", "never"}) ==
        "ALiBi symmetric biases, 1 head");
  CHECK(first_line({"generate", "alibi", "--heads", "2", "--len", "4", "--format", "ansi", "--color", "never"}) ==
        "ALiBi symmetric biases, 2 heads");
  CHECK(first_line({"generate", "sandwich", "--heads", "1", "--dim", "8", "--len", "4", "--format", "ansi", "--color",
                    "never"}) == "Sandwich symmetric biases, d = 8, 1 head");
}
