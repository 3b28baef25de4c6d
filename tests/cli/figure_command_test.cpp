// Figures from the command line: svg and ansi formats, --width/--height/--title/--cmap.
#include <catch2/catch.hpp>

#include <cstdlib>

#include <map>
#include <regex>

#include "../render/xml_check.hpp"
#include "cli_helpers.hpp"
#include "posenc/render/canvas.hpp"
#include "posenc/render/text.hpp"

namespace {

// Width and height from a PNG's IHDR chunk (bytes 16..23, big-endian).
std::pair<int, int> png_size(const std::string& png) {
  auto be32 = [&](std::size_t at) {
    return (static_cast<unsigned char>(png[at]) << 24) | (static_cast<unsigned char>(png[at + 1]) << 16) |
           (static_cast<unsigned char>(png[at + 2]) << 8) | static_cast<unsigned char>(png[at + 3]);
  };
  return {be32(16), be32(20)};
}

// Type and data of a PNG tEXt chunk: keyword, NUL, text.
std::string text_chunk(const std::string& key, const std::string& text) {
  std::string out = "tEXt";
  out.append(key);
  out.push_back('\0');
  out.append(text);
  return out;
}

}  // namespace

TEST_CASE("generate draws svg with the labels as text", "[cli][figure]") {
  const auto r = run_cli({"generate", "sinusoidal", "--len", "50", "--dim", "128", "--format", "svg", "--title", "PE <seeds>"});
  REQUIRE(r.code == 0);
  CHECK(posenc::test::xml_problem(r.out).empty());
  CHECK(r.out.find(">PE &lt;seeds&gt;</text>") != std::string::npos);
  CHECK(r.out.find(">dimension</text>") != std::string::npos);
  CHECK(r.out.find(">position</text>") != std::string::npos);
  CHECK(r.out.find("base=10000") != std::string::npos);  // parameters echoed in <desc>
}

TEST_CASE("width and height options set the png size", "[cli][figure]") {
  const auto r = run_cli({"generate", "sinusoidal", "--len", "300", "--dim", "64", "--format", "png", "--width", "640",
                          "--height", "400"});
  // Binary to a non-terminal stream is fine in tests.
  REQUIRE(r.code == 0);
  CHECK(r.out.substr(1, 3) == "PNG");
  CHECK(png_size(r.out) == std::pair{640, 400});
}

TEST_CASE("the same command writes the same bytes", "[cli][figure]") {
  for (const char* format : {"png", "svg", "ansi"}) {
    const std::vector<std::string> args = {"decay", "sinusoidal", "--dim", "64", "--vary", "base=100,10000", "--format", format};
    CHECK(run_cli(args).out == run_cli(args).out);
  }
}

TEST_CASE("ansi previews are as wide as COLUMNS says", "[cli][figure]") {
  setenv("COLUMNS", "60", 1);
  setenv("LINES", "40", 1);  // tall enough: the width decides
  const auto r = run_cli({"generate", "sinusoidal", "--len", "50", "--dim", "128", "--format", "ansi"});
  unsetenv("COLUMNS");
  unsetenv("LINES");
  REQUIRE(r.code == 0);
  // Title, round(60·250/640) = 23 pixel rows in 12 lines, the colour scale.
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1 + 12 + 1);
  CHECK(r.out.find("\x1b[38;2;") != std::string::npos);
  CHECK(r.out.find("\x1b[48;2;") != std::string::npos);
}

TEST_CASE("ansi previews are no taller than LINES says", "[cli][figure]") {
  // 64 positions × 8 bits at 60 columns would take 100 pixel rows (50 lines): with 24 lines,
  // the title, 21 lines of picture (narrower, same aspect) and the colour scale.
  setenv("COLUMNS", "60", 1);
  setenv("LINES", "24", 1);
  const auto r = run_cli({"generate", "binary", "--len", "64", "--dim", "8", "--format", "ansi"});
  setenv("LINES", "1000", 1);
  const auto tall = run_cli({"generate", "binary", "--len", "64", "--dim", "8", "--format", "ansi"});
  unsetenv("COLUMNS");
  unsetenv("LINES");
  REQUIRE(r.code == 0);
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1 + 21 + 1);
  CHECK(std::count(tall.out.begin(), tall.out.end(), '\n') == 1 + 50 + 1);
}

TEST_CASE("the colormap option is checked against the colormaps", "[cli][figure]") {
  CHECK(run_cli({"generate", "binary", "--len", "16", "--dim", "4", "--format", "svg", "--cmap", "magma"}).code == 0);
  const auto bad = run_cli({"generate", "binary", "--len", "16", "--dim", "4", "--format", "svg", "--cmap", "jet"});
  CHECK(bad.code == 2);
  CHECK(one_line(bad.err));
  CHECK(bad.err.find("--cmap") != std::string::npos);
}

TEST_CASE("rope, decay and project draw figures", "[cli][figure]") {
  const auto rope = run_cli({"rope", "--dim", "128", "--base", "500000", "--scaling", "llama3", "--factor", "8",
                             "--original-max-position-embeddings", "8192", "--format", "svg"});
  REQUIRE(rope.code == 0);
  CHECK(posenc::test::xml_problem(rope.out).empty());
  CHECK(rope.out.find(">original context 8192</text>") != std::string::npos);
  const auto decay = run_cli({"decay", "alibi", "--heads", "4", "--format", "svg", "--log-x"});
  REQUIRE(decay.code == 0);
  CHECK(decay.out.find(">head 0 (m=0.25)</text>") != std::string::npos);  // 4 heads: m_0 = 2^(-8/4)
  const auto project = run_cli({"project", "sine", "--dim", "3", "--len", "100", "--format", "svg"});
  REQUIRE(project.code == 0);
  CHECK(posenc::test::xml_problem(project.out).empty());
  CHECK(project.out.find(">position</text>") != std::string::npos);
}

TEST_CASE("masked causal biases are grey and the subtitle says so", "[cli][figure]") {
  const auto r = run_cli({"generate", "alibi", "--len", "8", "--heads", "2", "--head", "0", "--form", "causal", "--format",
                          "svg"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("grey: masked (−inf)") != std::string::npos);
}

TEST_CASE("3-D tables are drawn as one panel per head", "[cli][figure]") {
  const auto r = run_cli({"generate", "alibi", "--len", "8", "--heads", "4", "--format", "svg"});
  REQUIRE(r.code == 0);
  // 4 heads: m_h = 2^(-8(h+1)/4), so 2^-2 … 2^-8, printed exactly.
  for (const char* title : {">head 0 (m = 2^-2)<", ">head 3 (m = 2^-8)<"}) CHECK(r.out.find(title) != std::string::npos);
  std::size_t images = 0;
  for (auto p = r.out.find("<image "); p != std::string::npos; p = r.out.find("<image ", p + 1)) ++images;
  CHECK(images == 4 + 1);  // four panels and the colorbar's gradient
}

TEST_CASE("large bias and bucket matrices are reduced by max, other tables by area averaging", "[cli][figure]") {
  const auto t5 = run_cli({"generate", "t5", "--len", "1024", "--format", "svg"});
  REQUIRE(t5.code == 0);
  CHECK(t5.out.find(">reduced 1024×1024 → 512×512 by max</text>") != std::string::npos);
  const auto alibi = run_cli({"generate", "alibi", "--len", "1024", "--heads", "1", "--format", "svg"});
  REQUIRE(alibi.code == 0);
  CHECK(alibi.out.find("by max</text>") != std::string::npos);
  const auto mean = run_cli({"generate", "t5", "--len", "1024", "--reduce", "mean", "--format", "svg"});
  REQUIRE(mean.code == 0);
  CHECK(mean.out.find(">reduced 1024×1024 → 512×512 by area averaging</text>") != std::string::npos);
  const auto sin = run_cli({"generate", "sinusoidal", "--len", "1024", "--dim", "64", "--format", "svg"});
  REQUIRE(sin.code == 0);
  CHECK(sin.out.find("by area averaging</text>") != std::string::npos);
  CHECK(run_cli({"generate", "t5", "--len", "8", "--reduce", "median", "--format", "svg"}).code == 2);
}

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

TEST_CASE("--vmin and --vmax put heatmaps on one colour scale", "[cli][figure]") {
  // Cosine similarities of the sinusoidal table lie in [0.45, 1]: by default viridis over that
  // range; with --vmin -1 --vmax 1 the scale runs from −1 to 1, in RdBu (a signed range).
  const std::vector<std::string> base = {"similarity", "sinusoidal", "--len", "64", "--dim", "128", "--format", "svg"};
  auto with = [&](std::vector<std::string> extra) {
    auto args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cli(args);
  };
  const auto plain = with({});
  REQUIRE(plain.code == 0);
  CHECK(plain.out.find(">−1.0</text>") == std::string::npos);
  const auto ranged = with({"--vmin", "-1", "--vmax", "1"});
  REQUIRE(ranged.code == 0);
  CHECK(ranged.out.find(">−1.0</text>") != std::string::npos);
  CHECK(ranged.out.find(">1.0</text>") != std::string::npos);
  CHECK(ranged.out == with({"--vmin", "-1", "--vmax", "1", "--cmap", "RdBu"}).out);
  CHECK(ranged.out != with({"--vmin", "-1", "--vmax", "1", "--cmap", "viridis"}).out);
  CHECK(ranged.out.find("values outside") == std::string::npos);
  // A narrower range than the data's: the subtitle says values are clipped.
  const auto narrow = with({"--vmin", "0.6", "--vmax", "0.9"});
  REQUIRE(narrow.code == 0);
  CHECK(narrow.out.find("values outside [0.6, 0.9] in the end colours") != std::string::npos);
  // One end given, a diverging map: still centred on 0 (learned cosines reach below 0).
  const auto learned = run_cli({"similarity", "learned", "--len", "64", "--dim", "128", "--vmax", "2", "--format", "svg"});
  REQUIRE(learned.code == 0);
  CHECK(learned.out.find(">−2.0</text>") != std::string::npos);
  for (const std::vector<std::string>& bad : {std::vector<std::string>{"--vmin", "1", "--vmax", "-1"},
                                               std::vector<std::string>{"--vmin", "2"},
                                               std::vector<std::string>{"--vmin", "nan"},
                                               std::vector<std::string>{"--vmax", "inf"}}) {
    const auto r = with(bad);
    INFO(bad[0] << " " << bad[1]);
    CHECK(r.code == 2);
    CHECK(one_line(r.err));
    CHECK(r.err.find(bad[0]) != std::string::npos);
    CHECK(r.out.empty());
  }
}

TEST_CASE("tables without a title of their own get 'scheme, N=.., D=..', in the figure and its metadata", "[cli][figure]") {
  const auto svg = run_cli({"generate", "integer", "--len", "50", "--dim", "16", "--format", "svg"});
  REQUIRE(svg.code == 0);
  CHECK(svg.out.find("<title>integer, N=50, D=16</title>") != std::string::npos);
  CHECK(svg.out.find(">integer, N=50, D=16</text>") != std::string::npos);
  CHECK(svg.out.find("Title=integer, N=50, D=16\n") != std::string::npos);
  // The PNG's tEXt chunk "Title" NUL "integer, N=50, D=16" (PNG spec 11.3.4.3).
  const auto png = run_cli({"generate", "normalized", "--len", "50", "--dim", "16", "--format", "png"});
  REQUIRE(png.code == 0);
  CHECK(png.out.find(text_chunk("Title", "normalized, N=50, D=16")) != std::string::npos);
  // --title replaces it everywhere.
  const auto titled = run_cli({"generate", "integer", "--len", "5", "--format", "png", "--title", "mine"});
  CHECK(titled.out.find(text_chunk("Title", "mine")) != std::string::npos);
  CHECK(titled.out.find("integer, N=") == std::string::npos);
}

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

// True when segment s passes through r (Liang–Barsky clipping).
bool crosses(const std::pair<posenc::render::Point, posenc::render::Point>& s, const posenc::render::Rect& r) {
  const double dx = s.second.x - s.first.x, dy = s.second.y - s.first.y;
  double t0 = 0, t1 = 1;
  for (const auto& [p, q] : {std::pair{-dx, s.first.x - r.x}, std::pair{dx, r.right() - s.first.x},
                             std::pair{-dy, s.first.y - r.y}, std::pair{dy, r.bottom() - s.first.y}}) {
    if (p == 0) {
      if (q < 0) return false;
      continue;
    }
    (p < 0 ? t0 : t1) = p < 0 ? std::max(t0, q / p) : std::min(t1, q / p);
  }
  return t0 < t1;
}

}  // namespace

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
