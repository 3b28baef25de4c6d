// `posenc model PATH -o x.png|x.svg`: one plot per mechanism. The plotted values are checked
// against numbers computed here from the models' own formulas (BLOOM build_alibi_tensor slopes
// 2^(-8(h+1)/H) for a power-of-two H; T5 _relative_position_bucket at hand-worked distances;
// Llama4TextConfig NoPE layers (i + 1) % 4 == 0 and its temperature; Qwen2-VL mrope_section
// [16, 24, 24] contiguous; GPT-2 wpe rows), and the SVG is checked for one heading per plot.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "posenc/render/model_figure.hpp"
#include "cli/cli_helpers.hpp"
#include "posenc/models/model_report.hpp"
#include "test_data.hpp"

using posenc::test::data_path;
using Catch::Contains;

namespace {

posenc::render::LineFigure model_fig(const std::string& name) {
  return posenc::render::model_figure(posenc::models::read_model(data_path("configs/models/" + name)));
}

/// Every plot of the figure: the first (the figure itself) and the stacked ones.
std::vector<const posenc::render::LineFigure*> model_plots(const posenc::render::LineFigure& f) {
  std::vector<const posenc::render::LineFigure*> v = {&f};
  for (const auto& p : f.panels) v.push_back(&p);
  return v;
}

}  // namespace

TEST_CASE("model figure: BLOOM ALiBi slopes per head", "[models][figure]") {
  const auto f = model_fig("bloom-3b.json");
  CHECK(f.panels.empty());
  CHECK_THAT(f.heading, Contains("ALiBi slopes per head (bloom, 32 heads)"));
  REQUIRE(f.series.size() == 1);
  REQUIRE(f.series[0].y.size() == 32);
  // 32 heads (a power of two): m_h = 2^(-8(h+1)/32)
  for (int h = 0; h < 32; ++h) CHECK(f.series[0].y[h] == Approx(std::pow(2.0, -0.25 * (h + 1))).epsilon(1e-6));
  CHECK(f.log_y);
}

TEST_CASE("model figure: T5 buckets per stack", "[models][figure]") {
  const auto f = model_fig("t5-base.json");
  const auto plots = model_plots(f);
  REQUIRE(plots.size() == 2);
  CHECK_THAT(f.heading, Contains("encoder (bidirectional)"));
  CHECK_THAT(plots[1]->title, Contains("decoder (causal)"));
  const auto bucket_at = [](const posenc::render::LineFigure& p, double rp) {
    for (std::size_t i = 0; i < p.x.size(); ++i)
      if (p.x[i] == rp) return p.series[0].y[i];
    FAIL("no x " << rp);
    return -1.0;
  };
  // encoder: 16 buckets a side, 8 exact; rp = +1 → 16 + 1; rp = -3 → 3; rp = -8 →
  // 8 + trunc(ln(8/8)/ln(128/8)·8) = 8; rp = -200 (past 128) → 15; rp = +200 → 31.
  CHECK(bucket_at(f, 1) == 17);
  CHECK(bucket_at(f, -3) == 3);
  CHECK(bucket_at(f, -8) == 8);
  CHECK(bucket_at(f, -200) == 15);
  CHECK(bucket_at(f, 200) == 31);
  // decoder: 32 buckets, 16 exact, only rp ≤ 0: rp = -16 → 16; rp = -32 → 16 + trunc(ln 2 / ln 8 · 16) = 21.
  CHECK(bucket_at(*plots[1], -16) == 16);
  CHECK(bucket_at(*plots[1], -32) == 21);
  CHECK(plots[1]->x.back() == 0);
}

TEST_CASE("model figure: Llama 4 rope, NoPE layers and temperature; Gemma 3 per layer type", "[models][figure]") {
  const auto f = model_fig("llama-4-maverick.json");
  const auto plots = model_plots(f);
  REQUIRE(plots.size() == 3);
  CHECK_THAT(f.heading, Contains("RoPE"));
  const auto& nope = *plots[1];
  CHECK_THAT(nope.title, Contains("layers without RoPE: 12 of 48"));
  REQUIRE(nope.series[0].y.size() == 48);
  for (int i = 0; i < 48; ++i) CHECK(nope.series[0].y[i] == ((i + 1) % 4 == 0 ? 0.0 : 1.0));
  const auto& temp = *plots[2];
  CHECK_THAT(temp.title, Contains("query temperature"));
  for (std::size_t i = 0; i < temp.x.size(); i += 97)
    CHECK(temp.series[0].y[i] == Approx(std::log1p(std::floor((temp.x[i] + 1) / 8192)) * 0.1 + 1).epsilon(1e-12));
  // RoPE wavelength per pair: 2π / 500000^(-2i/128) (float32 inv_freq: 1e-6).
  for (std::size_t i = 0; i < 64; i += 9)
    CHECK(f.series[0].y[i] == Approx(2 * M_PI * std::pow(500000.0, 2.0 * static_cast<double>(i) / 128)).epsilon(1e-6));

  const auto g = model_fig("gemma-3-4b.json");
  REQUIRE(g.panels.size() == 1);
  CHECK_THAT(g.heading, Contains("base 1e+06, linear ×8"));
  CHECK_THAT(g.panels[0].title, Contains("sliding_attention"));
  CHECK_THAT(g.panels[0].title, Contains("base 10000, none"));
  REQUIRE(g.references.size() == 1);
  CHECK(g.references[0].y == 131072);  // Gemma3TextConfig max_position_embeddings (linear: original = max)
}

TEST_CASE("model figure: Qwen2-VL M-RoPE axes and GPT-2's learned table", "[models][figure]") {
  const auto q = model_fig("qwen2-vl-2b.json");
  REQUIRE(q.panels.size() == 1);
  const auto& axis = q.panels[0].series[0].y;
  REQUIRE(axis.size() == 64);
  for (int i = 0; i < 64; ++i) CHECK(axis[i] == (i < 16 ? 0 : i < 40 ? 1 : 2));
  const auto g = model_fig("gpt2.json");
  CHECK_THAT(g.heading, Contains("learned table"));
  REQUIRE(g.series[0].y.size() == 1024);  // n_positions
  CHECK(g.series[0].y[1023] == 1023);     // offset 0
}

TEST_CASE("model figure CLI: PNG and SVG with one heading per plot", "[models][figure][cli]") {
  const auto dir = std::filesystem::temp_directory_path() / ("posenc_model_fig_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::vector<std::pair<std::string, int>> cases = {{"gemma-3-4b.json", 2}, {"llama-4-maverick.json", 3},
                                                          {"bloom-3b.json", 1}, {"t5-base.json", 2},
                                                          {"qwen2-vl-2b.json", 2}, {"gpt2.json", 1}};
  for (const auto& [name, plots] : cases) {
    INFO(name);
    const std::string svg = (dir / "m.svg").string(), png = (dir / "m.png").string();
    const auto r = run_cli({"model", data_path("configs/models/" + name), "-o", svg});
    REQUIRE(r.code == 0);
    std::ifstream in(svg);
    std::stringstream text;
    text << in.rdbuf();
    const std::string s = text.str();
    CHECK_THAT(s, Contains("position mechanisms of"));
    // Plot headings are the texts drawn at the left of each plot, starting with a mechanism's name.
    const std::regex heading(R"(>(RoPE,|layers without RoPE|query temperature|ALiBi slopes|T5 buckets|M-RoPE|learned table)[^<]*</text>)");
    CHECK(std::distance(std::sregex_iterator(s.begin(), s.end(), heading), std::sregex_iterator()) == plots);
    REQUIRE(run_cli({"model", data_path("configs/models/" + name), "-o", png}).code == 0);
    std::ifstream p(png, std::ios::binary);
    char magic[8] = {};
    p.read(magic, 8);
    CHECK(std::string(magic + 1, 3) == "PNG");
  }
  std::filesystem::remove_all(dir);
}

// Issue 26 item 8: the top-level configs have no num_hidden_layers; the title said "layers none".
TEST_CASE("model figure: a config without a layer count is titled every layer", "[models][figure]") {
  const auto f = posenc::render::model_figure(posenc::models::read_model(data_path("configs/llama-3.1-8b.json")));
  CHECK_THAT(f.heading, Contains("RoPE, every layer: base 500000, llama3 ×8"));
  CHECK_THAT(f.heading, !Contains("none"));
  const auto r = run_cli({"model", data_path("configs/llama-3.1-8b.json"), "--format", "json"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Contains("\"where\": \"every layer\""));
  CHECK_THAT(r.out, Contains("\"num_layers\": null"));
  const auto t = run_cli({"model", data_path("configs/llama-3.1-8b.json")});
  CHECK_THAT(t.out, Contains("\nrope — every layer\n"));
}
