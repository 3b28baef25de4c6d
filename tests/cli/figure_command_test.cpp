// Figures from the command line: svg and ansi formats, --width/--height/--title/--cmap.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "../render/xml_check.hpp"
#include "cli_helpers.hpp"

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
  // Title, round(60·250/640) = 23 pixel rows in 12 lines, the note (128→60 columns, 50→23 rows), the colour scale.
  CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1 + 12 + 1 + 1);
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

TEST_CASE("the options vmin and vmax put heatmaps on one colour scale", "[cli][figure]") {
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

// Issue 15 item 21: the preview of 128 interleaved columns in 80 characters says it reduced them.
TEST_CASE("a preview of interleaved sinusoids says how it was reduced", "[cli][figure][ansi]") {
  setenv("COLUMNS", "80", 1);
  setenv("LINES", "40", 1);
  const auto r = run_cli({"generate", "sinusoidal", "--len", "50", "--dim", "128", "--format", "ansi"});
  unsetenv("COLUMNS");
  unsetenv("LINES");
  REQUIRE(r.code == 0);
  CHECK(r.out.find("\nreduced 128\u2192" "80 columns (sampled: they alternate), 50\u2192") != std::string::npos);
  // Split layout: neighbouring columns are alike, so they are averaged.
  setenv("COLUMNS", "80", 1);
  setenv("LINES", "40", 1);
  const auto s = run_cli({"generate", "sinusoidal", "--len", "50", "--dim", "128", "--layout", "split", "--format", "ansi"});
  unsetenv("COLUMNS");
  unsetenv("LINES");
  REQUIRE(s.code == 0);
  CHECK(s.out.find("\nreduced 128\u2192" "80 columns (averaged), 50\u2192") != std::string::npos);
}
