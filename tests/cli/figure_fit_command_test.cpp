// Figures from the command line keep their text legible: panel titles within their panels,
// 3-D labels apart and off the box, cells square when one side is given, a size floor.
// Positions come from the SVG, text extents from the font's metrics.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <regex>

#include "../render/layout_checks.hpp"
#include "cli_helpers.hpp"
#include "posenc/render/canvas.hpp"
#include "posenc/render/text.hpp"

using posenc::test::crosses;

namespace {

struct SvgText {
  std::string text;
  posenc::render::Rect box;
};

// Texts of an SVG (not turned ones) with the boxes of their glyphs, from their baseline anchor.
std::vector<SvgText> svg_texts(const std::string& svg) {
  const std::regex re(R"re(<text x="([-0-9.]+)" y="([-0-9.]+)" font-size="([0-9.]+)" fill="[^"]*" text-anchor="(\w+)">([^<]*)</text>)re");
  std::vector<SvgText> out;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it) {
    const double x = std::stod((*it)[1]), y = std::stod((*it)[2]), px = std::stod((*it)[3]);
    const std::string anchor = (*it)[4], text = (*it)[5];
    const double w = posenc::render::text_width(text, px);
    const auto fm = posenc::render::font_metrics(px);
    const double x0 = anchor == "start" ? x : anchor == "middle" ? x - w / 2 : x - w;
    out.push_back({text, {x0, y - fm.cap_height, w, fm.cap_height + fm.descent}});
  }
  return out;
}

// Segments of the SVG's polylines drawn in `colour`.
std::vector<std::pair<posenc::render::Point, posenc::render::Point>> svg_segments(const std::string& svg, const std::string& colour) {
  const std::regex re("<polyline points=\"([^\"]*)\" fill=\"none\" stroke=\"" + colour + "\"");
  const std::regex pt(R"(([-0-9.]+),([-0-9.]+))");
  std::vector<std::pair<posenc::render::Point, posenc::render::Point>> out;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it) {
    const std::string pts = (*it)[1];
    std::vector<posenc::render::Point> ps;
    for (auto p = std::sregex_iterator(pts.begin(), pts.end(), pt); p != std::sregex_iterator(); ++p)
      ps.push_back({std::stod((*p)[1]), std::stod((*p)[2])});
    for (std::size_t i = 1; i < ps.size(); ++i) out.push_back({ps[i - 1], ps[i]});
  }
  return out;
}

}  // namespace

TEST_CASE("panel titles fit their panels and give exact slopes", "[cli][figure]") {
  // 32 heads: 16 panels in a 4×4 grid, too narrow for "head 13 (m = 2^-3.5)": the short form,
  // m_h = 2^(-8(h+1)/32) = 2^(-(h+1)/4) exactly (head 5: 2^-1.5 = 0.35355…, not "0.3536").
  const auto r = run_cli({"generate", "alibi", "--len", "64", "--heads", "32", "--format", "svg"});
  REQUIRE(r.code == 0);
  for (const char* title : {">h0 m=2^-0.25<", ">h5 m=2^-1.5<", ">h13 m=2^-3.5<", ">h15 m=2^-4<"})
    CHECK(r.out.find(title) != std::string::npos);
  // Titles of one row (same baseline) are apart: each centred text's extent from its width.
  const std::regex text(R"re(<text x="([0-9.]+)" y="([0-9.]+)" font-size="12"[^>]*>(h[0-9]+ [^<]*)</text>)re");
  std::map<std::string, std::vector<std::pair<double, double>>> rows;
  for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), text); it != std::sregex_iterator(); ++it) {
    const double x = std::stod((*it)[1]), w = posenc::render::text_width((*it)[3].str(), 12);
    rows[(*it)[2]].push_back({x - w / 2, x + w / 2});
  }
  REQUIRE(rows.size() == 4);
  for (auto& [y, spans] : rows) {
    REQUIRE(spans.size() == 4);
    std::sort(spans.begin(), spans.end());
    for (std::size_t i = 1; i < spans.size(); ++i) CHECK(spans[i].first - spans[i - 1].second >= 12);
  }
  // 1/64 = 2^-6 exactly, not "0.01562".
  const auto six = run_cli({"generate", "alibi", "--len", "8", "--heads", "8", "--format", "svg"});
  CHECK(six.out.find(">head 5 (m = 2^-6)<") != std::string::npos);
}

TEST_CASE("the 3-D views of the gallery keep their labels apart and off the box", "[cli][figure]") {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"project", "sine", "--dim", "3", "--len", "300", "--width", "600", "--height", "480"},
        std::vector<std::string>{"project", "sinusoidal", "--len", "200", "--dim", "64", "--pca", "3", "--width", "600", "--height", "480"}}) {
    auto argv = args;
    argv.insert(argv.end(), {"--format", "svg"});
    const auto r = run_cli(argv);
    REQUIRE(r.code == 0);
    // Labels of the view: left of the colorbar (the 16 px wide image), below the title block.
    const std::smatch bar = [&] {
      std::smatch m;
      std::regex_search(r.out, m, std::regex(R"re(<image x="([0-9.]+)" y="[0-9.]+" width="16")re"));
      return m;
    }();
    REQUIRE(!bar.empty());
    std::vector<SvgText> labels;
    for (const auto& t : svg_texts(r.out))
      if (t.box.right() < std::stod(bar[1]) && t.box.y > 50) labels.push_back(t);
    REQUIRE(labels.size() >= 9);  // three axis names and at least two ticks per axis
    const auto edges = svg_segments(r.out, "#b9b9b9");
    REQUIRE(edges.size() == 12);
    for (const auto& t : labels) {
      INFO(args[1] << ": '" << t.text << "' at " << t.box.x << "," << t.box.y);
      for (const auto& e : edges) CHECK_FALSE(crosses(e, t.box.inflated(2)));
      for (const auto& u : labels)
        if (&u != &t) {
          INFO("and '" << u.text << "'");
          CHECK_FALSE(t.box.inflated(3.5).overlaps(u.box.inflated(3.5)));  // 7 px apart, not "2 −2"
        }
    }
  }
}

TEST_CASE("one of --width and --height keeps square matrices square; both have a floor", "[cli][figure]") {
  // T5's 64×64 buckets with only --height 300: a square plot (it was 2:1 before).
  const auto r = run_cli({"generate", "t5", "--len", "64", "--height", "300", "--format", "svg"});
  REQUIRE(r.code == 0);
  std::smatch m;
  REQUIRE(std::regex_search(r.out, m, std::regex(R"re(<image x="\d+" y="\d+" width="(\d+)" height="(\d+)")re")));
  CHECK(m[1] == m[2]);
  CHECK(r.out.find("height=\"300\" viewBox") != std::string::npos);
  // Below 320 × 240 labels no longer fit: refused.
  for (const std::vector<std::string>& small : {std::vector<std::string>{"--width", "319"}, std::vector<std::string>{"--height", "239"}}) {
    auto argv = std::vector<std::string>{"generate", "t5", "--len", "8", "--format", "svg"};
    argv.insert(argv.end(), small.begin(), small.end());
    const auto bad = run_cli(argv);
    CHECK(bad.code == 2);
    CHECK(one_line(bad.err));
    CHECK(bad.err.find(small[0]) != std::string::npos);
  }
  CHECK(run_cli({"generate", "t5", "--len", "8", "--format", "svg", "--width", "320", "--height", "240"}).code == 0);
}
