// `posenc rope`, `rope diff`, `rope permutation` and `generate rope`, through cli::run.
#include <algorithm>
#include <catch2/catch.hpp>

#include "test_data.hpp"
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_helpers.hpp"

namespace {

using Catch::Contains;
using Catch::StartsWith;
using nlohmann::json;

std::string config(const std::string& name) { return posenc::test::data_path("configs/" + name); }

/// Writes `text` to a fresh file in the temp folder and returns its path.
std::string temp_file(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / "posenc_rope_command_test";
  std::filesystem::create_directories(dir);
  const auto path = (dir / name).string();
  std::ofstream(path) << text;
  return path;
}

std::size_t lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

}  // namespace

TEST_CASE("rope report of Llama-3.1-8B shows the 29 / 6 / 29 llama3 split", "[cli][rope]") {
  const auto r = run_cli({"rope", "--hf-config", config("llama-3.1-8b.json")});
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK_THAT(r.out, StartsWith("pair"));
  CHECK_THAT(r.out, Contains("llama3 bands       29 unchanged / 6 smoothed / 29 divided (wavelengths 2048 .. 8192)"));
  CHECK_THAT(r.out, Contains("regimes            29 unchanged, 29 interpolated, 6 blended"));
  CHECK_THAT(r.out, Contains("config.json rope_theta"));  // resolved values with their source
  // Pair 0 has θ = 1 and wavelength 2π; pair 35 is the first one divided by the factor.
  CHECK_THAT(r.out, Contains("   0      0,64  1.000000e+00  1.000000e+00      6.28319"));
  CHECK_THAT(r.out, Contains("  35     35,99 "));
}

TEST_CASE("rope JSON has the stable keys", "[cli][rope]") {
  const auto r = run_cli({"rope", "--hf-config", config("llama-3.1-8b.json"), "--format", "json"});
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  CHECK(j.at("rope_type") == "llama3");
  CHECK(j.at("rotary_dim") == 128);
  CHECK(j.at("inv_freq").size() == 64);  // rotary_dim / 2
  CHECK(j.at("inv_freq_original").size() == 64);
  CHECK(j.at("pairs").size() == 64);
  CHECK(j.at("attention_factor") == 1.0);  // llama3 does not scale cos/sin
  CHECK(j.at("llama3").at("unchanged") == 29);
  CHECK(j.at("llama3").at("smoothed") == 6);
  CHECK(j.at("llama3").at("divided") == 29);
  // Pair 63 is divided by the factor 8: θ'/θ = 1/8 (float32 division by 8 is exact).
  CHECK(j.at("inv_freq")[63].get<double>() == j.at("inv_freq_original")[63].get<double>() / 8);
}

TEST_CASE("rope from flags: d = 8, base 10000 gives θ_i = 10^-i", "[cli][rope]") {
  const auto r = run_cli({"rope", "--dim", "8", "--format", "json"});
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  CHECK(j.at("rope_type") == "none");
  CHECK(j.at("rotary_dim") == 8);
  const std::vector<double> expected = {1.0, 0.1, 0.01, 0.001};  // 10000^(-2i/8)
  REQUIRE(j.at("inv_freq").size() == 4);
  for (std::size_t i = 0; i < 4; ++i) CHECK(j.at("inv_freq")[i].get<double>() == Approx(expected[i]).epsilon(1e-6));
  CHECK(j.at("pairs")[1].at("dims") == json::array({1, 5}));  // half layout: (i, i + d/2)
  const auto inter = json::parse(run_cli({"rope", "--dim", "8", "--layout", "interleaved", "--format", "json"}).out);
  CHECK(inter.at("pairs")[1].at("dims") == json::array({2, 3}));
}

TEST_CASE("rope of a partial-rotary config reports rotary_dim/2 pairs", "[cli][rope]") {
  const auto r = run_cli({"rope", "--hf-config", config("phi-2.json"), "--format", "json"});
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  CHECK(j.at("head_dim") == 80);
  CHECK(j.at("rotary_dim") == 32);  // int(80 × 0.4)
  CHECK(j.at("inv_freq").size() == 16);
}

TEST_CASE("rope CSV has a header and one row per pair", "[cli][rope]") {
  const auto r = run_cli({"rope", "--hf-config", config("llama-3.1-8b.json"), "--format", "csv"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, StartsWith("pair,dim_a,dim_b,inv_freq_original,inv_freq,wavelength_original,wavelength,"
                               "turns_original,turns_target,regime,blend\n0,0,64,1,1,"));
  CHECK(lines(r.out) == 65);
}

TEST_CASE("rope prints implementation warnings on stderr", "[cli][rope]") {
  const auto r = run_cli({"rope", "--hf-config", config("qwen2.5-7b-yarn.json"), "--format", "json"});
  CHECK(r.code == 0);
  CHECK_THAT(r.err, StartsWith("posenc: warning: yarn: factor 4 differs from max_position_embeddings"));
  const json j = json::parse(r.out);
  CHECK(j.at("rope_type") == "yarn");
  CHECK(j.at("attention_factor").get<double>() == Approx(0.1 * std::log(4.0) + 1).epsilon(1e-12));  // YaRN paper
}

TEST_CASE("rope -o writes the file in the format of its extension", "[cli][rope]") {
  const auto path = (std::filesystem::temp_directory_path() / "posenc_rope_command_test_report.json").string();
  std::filesystem::remove(path);
  const auto r = run_cli({"rope", "--dim", "16", "-o", path});
  CHECK(r.code == 0);
  CHECK(r.out.empty());
  std::ifstream in(path);
  CHECK(json::parse(in).at("rotary_dim") == 16);
  std::filesystem::remove(path);
}

TEST_CASE("rope rejects bad usage with one line naming the option", "[cli][rope]") {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"rope", "--format", "npy"}, {"rope", "--scaling", "yran"}, {"rope", "--dim", "63"}, {"rope", "--base", "0"}}) {
    const auto r = run_cli(args);
    INFO(args[1] << ": " << r.err);
    CHECK(r.code == 2);
    CHECK(one_line(r.err));
    CHECK_THAT(r.err, Contains(args[1]));
    CHECK(r.out.empty());
  }
}

TEST_CASE("a missing or wrongly typed config field exits 2 naming the field", "[cli][rope]") {
  const auto typed = temp_file("bad_theta.json", R"({"hidden_size": 4096, "num_attention_heads": 32, "rope_theta": "big"})");
  auto r = run_cli({"rope", "--hf-config", typed});
  CHECK(r.code == 2);
  CHECK(one_line(r.err));
  CHECK_THAT(r.err, Contains("posenc: error: " + typed + ": \"rope_theta\" must be a number (got string)"));

  const auto missing = temp_file("no_low.json", R"({"head_dim": 128, "rope_scaling": {"rope_type": "llama3", "factor": 8}})");
  r = run_cli({"rope", "--hf-config", missing});
  CHECK(r.code == 2);
  CHECK(one_line(r.err));
  CHECK_THAT(r.err, Contains("missing \"rope_scaling.low_freq_factor\""));

  r = run_cli({"rope", "--hf-config", "/nonexistent/config.json"});
  CHECK(r.code == 2);
  CHECK(one_line(r.err));
  CHECK_THAT(r.err, Contains("--hf-config"));
}

TEST_CASE("a llama3 config without original_max_position_embeddings is refused, naming field and file",
          "[cli][rope]") {
  // Before: silently fell back to max_position_embeddings (131072), giving 42 / 7 / 15 bands.
  const auto path = temp_file("llama3_no_original.json",
                              R"({"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 131072,
                                  "rope_theta": 500000.0, "rope_scaling": {"rope_type": "llama3", "factor": 8.0,
                                  "low_freq_factor": 1.0, "high_freq_factor": 4.0}})");
  auto r = run_cli({"rope", "--hf-config", path});
  CHECK(r.code == 2);
  CHECK(one_line(r.err));
  CHECK(r.out.empty());
  CHECK_THAT(r.err, StartsWith("posenc: error: " + path +
                               ": \"rope_scaling.original_max_position_embeddings\" (or "
                               "--original-max-position-embeddings) is required for rope_type llama3"));
  // Given on the command line, the file is complete: Llama-3.1's 29 / 6 / 29 split again.
  r = run_cli({"rope", "--hf-config", path, "--original-max-position-embeddings", "8192"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Contains("29 unchanged / 6 smoothed / 29 divided"));
  // From flags alone the flag is named.
  r = run_cli({"rope", "--dim", "128", "--scaling", "llama3", "--factor", "8", "--max-position-embeddings", "131072"});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, StartsWith("posenc: error: --original-max-position-embeddings is required for --scaling llama3"));
}

TEST_CASE("rope warns where frequencies underflow instead of printing inf silently", "[cli][rope]") {
  auto r = run_cli({"rope", "--dim", "128", "--base", "1e300"});
  CHECK(r.code == 0);
  const std::string warning = "inv_freq of 63 pairs (1 … 63) underflow to 0 in float32 with --base 1e+300";
  CHECK_THAT(r.err, StartsWith("posenc: warning: " + warning));
  CHECK_THAT(r.err, Contains("--precision f64 computes them"));
  CHECK_THAT(r.out, Contains("  warning: " + warning));  // and in the report, beside the inf wavelengths
  r = run_cli({"rope", "--dim", "128", "--scaling", "linear", "--factor", "1e-308"});
  CHECK(r.code == 2);
  CHECK(one_line(r.err));
  CHECK_THAT(r.err, StartsWith("posenc: error: --factor 1e-308 makes inv_freq inf at pair 0 in float32"));
  r = run_cli({"rope", "--dim", "128", "--scaling", "llama3", "--factor", "8", "--original-max-position-embeddings",
               "8192", "--low-freq-factor", "0"});
  CHECK(r.code == 2);
  CHECK(r.err == "posenc: error: --low-freq-factor must be a finite number > 0 (got 0)\n");
}

TEST_CASE("settings the method does not read are warned about, alternatives refused", "[cli][rope]") {
  auto r = run_cli({"rope", "--dim", "64", "--scaling", "linear", "--factor", "2", "--attention-factor", "2",
                    "--format", "json"});
  CHECK(r.code == 0);
  CHECK(r.err == "posenc: warning: --attention-factor 2 is ignored: --scaling linear does not read it (yarn and "
                 "longrope do)\n");
  json j = json::parse(r.out);
  CHECK(j.at("attention_factor") == 1.0);  // linear has none
  bool marked = false;
  for (const auto& s : j.at("settings"))
    if (s.at("name") == "attention-factor") marked = s.at("source") == "flag --attention-factor (ignored by linear)";
  CHECK(marked);

  r = run_cli({"rope", "--dim", "64", "--scaling", "llama3", "--factor", "8", "--original-max-position-embeddings",
               "8192", "--truncate", "false", "--beta-fast", "16", "--mscale", "0.7", "--mscale-all-dim", "0.7",
               "--short-factor", "1,2"});
  CHECK(r.code == 0);
  for (const char* flag : {"--truncate false", "--beta-fast 16", "--mscale 0.7", "--mscale-all-dim 0.7", "--short-factor"})
    CHECK_THAT(r.err, Contains(std::string("posenc: warning: ") + flag));
  CHECK_THAT(r.err, Contains("is ignored: --scaling llama3 does not read it (yarn does)"));
  CHECK_THAT(r.err, Contains("is ignored: --scaling llama3 does not read it (longrope does)"));

  const auto path = temp_file("linear_beta.json", R"({"head_dim": 64, "rope_scaling": {"rope_type": "linear",
                                                     "factor": 2.0, "beta_fast": 32}})");
  r = run_cli({"rope", "--hf-config", path});
  CHECK(r.code == 0);
  CHECK(r.err == "posenc: warning: " + path + ": \"rope_scaling.beta_fast\" 32 is ignored: rope_type linear does not "
                 "read it (yarn does)\n");

  r = run_cli({"rope", "--dim", "64", "--factor", "4"});
  CHECK_THAT(r.err, StartsWith("posenc: warning: --factor 4 is ignored: --scaling none does not read it"));

  r = run_cli({"rope", "--dim", "64", "--rotary-dim", "16", "--partial-rotary-factor", "0.5"});
  CHECK(r.code == 2);
  CHECK(r.err == "posenc: error: --rotary-dim 16 and --partial-rotary-factor 0.5 are alternatives (rotary width = "
                 "int(dim × factor)): give one\n");
}

TEST_CASE("a yarn config without factor uses the length ratio and the report says so", "[cli][rope]") {
  const auto path = temp_file("yarn_no_factor.json", R"({"head_dim": 128, "max_position_embeddings": 131072,
      "rope_theta": 1000000.0, "rope_scaling": {"rope_type": "yarn", "original_max_position_embeddings": 32768}})");
  const auto r = run_cli({"rope", "--hf-config", path});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Contains("factor 4\n"));  // in the summary's scaling line
  CHECK_THAT(r.out, Contains("derived: max_position_embeddings / original_max_position_embeddings = 131072 / 32768 "
                             "(transformers, factor absent)"));
}

TEST_CASE("rope report: provenance of derived values, defaults and lengths, aligned", "[cli][rope]") {
  // Flags only: no length is known.
  auto r = run_cli({"rope", "--dim", "16"});
  CHECK_THAT(r.out, Contains("  lengths            original not set, target not set\n"));
  json j = json::parse(run_cli({"rope", "--dim", "16", "--format", "json"}).out);
  CHECK(j.at("original_length").is_null());
  CHECK(j.at("target_length").is_null());

  // Llama-2: defaults the file leaves implicit, the original length taken from max_position_embeddings.
  r = run_cli({"rope", "--hf-config", config("llama-2-7b-chat.json")});
  const auto settings = r.out.substr(r.out.find("\nsettings\n") + 10);
  CHECK_THAT(settings, Contains("scaling                           none"));
  CHECK_THAT(settings, Contains("default (no rope_scaling or rope_parameters in the file)"));
  CHECK_THAT(settings, Contains("default (no partial_rotary_factor in the file)"));
  CHECK_THAT(settings, Contains("derived: max_position_embeddings; no original_max_position_embeddings"));
  CHECK_THAT(r.out, Contains("original 4096 (max_position_embeddings; no original_max_position_embeddings)"));
  // Every source starts in the same column, after the longest value (the config's path).
  const std::string path_row = "hf-config                         " + config("llama-2-7b-chat.json") + "  flag --hf-config\n";
  CHECK_THAT(settings, Contains(path_row));
  const auto column = settings.find("derived: hidden_size");  // in the first row
  CHECK(column == path_row.find("flag --hf-config") + 2);          // both rows start with two spaces

  // Phi-3.5-mini: longrope's factor from the length ratio and the rule of its attention factor.
  r = run_cli({"rope", "--hf-config", config("phi-3.5-mini.json")});
  CHECK_THAT(r.out, Contains("derived: max_position_embeddings / original = 131072 / 4096 (transformers, factor absent)"));
  CHECK_THAT(r.out, Contains("derived: √(1 + ln s / ln L) with s = 32, L = 4096 (LongRoPE)"));
  // Qwen2.5 YaRN: the attention factor's rule.
  r = run_cli({"rope", "--hf-config", config("qwen2.5-7b-yarn.json")});
  CHECK_THAT(r.out, Contains("derived: 0.1·ln(s) + 1 with s = 4 (YaRN; no attention_factor, no mscale pair)"));
}

TEST_CASE("rope report of p-RoPE shows the frequencies it removed", "[cli][rope]") {
  const auto r = run_cli({"rope", "--dim", "16", "--scaling", "proportional", "--partial-rotary-factor", "0.25",
                          "--precision", "f64", "--format", "json"});
  REQUIRE(r.code == 0);
  CHECK(r.err.empty());  // zero tail frequencies are p-RoPE's design, not an underflow
  const json j = json::parse(r.out);
  REQUIRE(j.at("inv_freq_original").size() == 8);
  for (std::size_t i = 0; i < 8; ++i)  // before: 10^(−i/2) for every pair; after: only pairs 0, 1 rotate
    CHECK(j.at("inv_freq_original")[i].get<double>() == Approx(std::pow(10.0, -static_cast<double>(i) / 2)).epsilon(1e-14));
  CHECK(j.at("inv_freq")[1].get<double>() == Approx(std::pow(10.0, -0.5)).epsilon(1e-14));
  CHECK(j.at("inv_freq")[2] == 0.0);
  CHECK(j.at("pairs")[2].at("regime") == "zero");
  CHECK(j.at("regimes").at("zero") == 6);
}

TEST_CASE("scaling 'default' is transformers' name for none", "[cli][rope]") {
  const auto none = run_cli({"rope", "--dim", "8", "--format", "json"});
  const auto def = run_cli({"rope", "--dim", "8", "--scaling", "default", "--format", "json"});
  REQUIRE(def.code == 0);
  const json a = json::parse(none.out), b = json::parse(def.out);
  CHECK(b.at("rope_type") == "none");
  CHECK(b.at("inv_freq") == a.at("inv_freq"));
  const auto text = run_cli({"rope", "--dim", "8", "--scaling", "default"});
  CHECK_THAT(text.out, Contains("  scaling            none = transformers' rope_type \"default\" (convention hf"));
  const auto path = temp_file("rope_type_default.json", R"({"head_dim": 8, "rope_scaling": {"rope_type": "default"}})");
  CHECK(json::parse(run_cli({"rope", "--hf-config", path, "--format", "json"}).out).at("rope_type") == "none");
  const auto bad = run_cli({"generate", "rope", "--len", "2", "--dim", "8", "--scaling", "defualt"});
  CHECK(bad.code == 2);
  CHECK_THAT(bad.err, Contains("default"));
}

TEST_CASE("rope diff of two configs says which file is wrong", "[cli][rope][diff]") {
  const auto good = config("llama-2-7b-chat.json");
  const auto bad = temp_file("dynamic_no_max.json", R"({"head_dim": 128, "rope_scaling": {"rope_type": "dynamic", "factor": 2}})");
  for (const auto& [a, b] : {std::pair{good, bad}, std::pair{bad, good}}) {
    const auto r = run_cli({"rope", "diff", "--config-a", a, "--config-b", b});
    CHECK(r.code == 2);
    CHECK(one_line(r.err));
    CHECK_THAT(r.err, StartsWith("posenc: error: " + bad + ": \"max_position_embeddings\" (or --max-position-embeddings) "
                                 "is required for rope_type dynamic"));
  }
  const auto narrow = run_cli({"rope", "diff", "--config-a", good, "--config-b", config("phi-2.json")});
  CHECK_THAT(narrow.err, Contains("cannot compare: " + good + " has 64 frequency pairs, " + config("phi-2.json") + " has 16"));
}

TEST_CASE("rope diff of a convention with itself exits 0", "[cli][rope][diff]") {
  const auto r = run_cli({"rope", "diff", "--hf-config", config("llama-3.1-8b.json"), "--convention-a", "hf",
                          "--convention-b", "hf"});
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Contains("within tolerance (tolerance 1e-06)"));
  CHECK_THAT(r.out, Contains("max abs 0.000e+00 / 0.000e+00"));
}

TEST_CASE("rope diff hf vs ggml on a YaRN config: exit 1 at 1e-9, 0 at 1e-2", "[cli][rope][diff]") {
  const std::vector<std::string> base = {"rope", "diff", "--hf-config", config("qwen2.5-7b-yarn.json"),
                                         "--convention-a", "hf", "--convention-b", "ggml", "--format", "json"};
  auto strict = base;
  strict.insert(strict.end(), {"--tol", "1e-9"});
  const auto r = run_cli(strict);
  CHECK(r.code == 1);
  const json j = json::parse(r.out);
  CHECK(j.at("a") == "hf");
  CHECK(j.at("b") == "ggml");
  CHECK(j.at("within") == false);
  CHECK(j.at("len") == 4096);
  // ggml's iterated float32 θ drifts from transformers' by ~2e-6 relative; over 4096
  // positions cos/sin differ by ~7e-4 (measured: 6.92e-4).
  CHECK(j.at("inv_freq_max_rel").get<double>() < 1e-5);
  CHECK(j.at("cos_max_abs").get<double>() > 1e-4);
  CHECK(j.at("cos_max_abs").get<double>() < 1e-2);
  auto loose = base;
  loose.insert(loose.end(), {"--tol", "1e-2"});
  CHECK(run_cli(loose).code == 0);
}

TEST_CASE("rope diff labels and precision sides", "[cli][rope][diff]") {
  // float32 inv_freq differ from double by ~1e-7 relative (measured 7e-8), cos/sin up to
  // position 15 by < 1e-6 (measured 8e-7): within the default 1e-6, not within 1e-9.
  const std::vector<std::string> args = {"rope", "diff", "--dim", "128", "--precision-a", "f32", "--precision-b", "f64",
                                         "--len", "16"};
  const auto r = run_cli(args);
  CHECK(r.code == 0);
  CHECK_THAT(r.out, StartsWith("comparing hf f32 with hf f64: 64 frequency pairs, positions 0..15\n"));
  auto strict = args;
  strict.insert(strict.end(), {"--tol", "1e-9"});
  CHECK(run_cli(strict).code == 1);
  const auto files = run_cli({"rope", "diff", "--config-a", config("llama-2-7b-chat.json"), "--config-b",
                              config("llama-3.1-8b.json"), "--tol", "0.5"});
  CHECK(files.code == 1);
  CHECK_THAT(files.out, StartsWith("comparing llama-2-7b-chat.json with llama-3.1-8b.json"));
}

TEST_CASE("rope diff per pair: JSON values and the figure", "[cli][rope][diff]") {
  // Linear ×2 against none, in double: θ/2 against θ, so every pair differs by exactly 1/2
  // relative; at position 1 (positions 0..1) pair 0 (θ = 1) has cos 0.5 vs cos 1, sin 0.5 vs sin 1.
  const auto linear = temp_file("linear2.json", R"({"head_dim": 8, "rope_scaling": {"rope_type": "linear", "factor": 2.0}})");
  const auto plain = temp_file("plain.json", R"({"head_dim": 8})");
  const auto r = run_cli({"rope", "diff", "--config-a", linear, "--config-b", plain, "--precision", "f64", "--len", "2",
                          "--format", "json"});
  CHECK(r.code == 1);
  const json j = json::parse(r.out);
  REQUIRE(j.at("per_pair").at("inv_freq_rel").size() == 4);
  for (const auto& v : j.at("per_pair").at("inv_freq_rel")) CHECK(v.get<double>() == Approx(0.5).epsilon(1e-15));
  const double pair0 = std::max(std::abs(std::cos(0.5) - std::cos(1.0)), std::abs(std::sin(0.5) - std::sin(1.0)));
  CHECK(j.at("per_pair").at("table_max_abs")[0].get<double>() == Approx(pair0).epsilon(1e-14));
  // θ_3 = 10^-3: |cos(5e-4) − cos(1e-3)| < |sin(5e-4) − sin(1e-3)| ≈ 5e-4.
  CHECK(j.at("per_pair").at("table_max_abs")[3].get<double>() ==
        Approx(std::sin(1e-3) - std::sin(5e-4)).epsilon(1e-9));

  const auto svg = run_cli({"rope", "diff", "--config-a", linear, "--config-b", plain, "--len", "2", "--tol", "0.9",
                            "--format", "svg"});
  CHECK(svg.code == 0);  // the exit status does not depend on the format
  CHECK_THAT(svg.out, StartsWith("<?xml") || StartsWith("<svg"));
  CHECK_THAT(svg.out, Contains(">relative difference</text>"));
  CHECK_THAT(svg.out, Contains(">largest |Δcos|, |Δsin| over positions 0 … 1</text>"));
  CHECK_THAT(svg.out, Contains(">--tol 0.9</text>"));
}

TEST_CASE("rope diff of configs with different widths is a usage error", "[cli][rope][diff]") {
  const auto r = run_cli({"rope", "diff", "--config-a", config("llama-2-7b-chat.json"), "--config-b", config("phi-2.json")});
  CHECK(r.code == 2);
  CHECK(one_line(r.err));
  CHECK_THAT(r.err, Contains("phi-2.json has 16"));
}

TEST_CASE("rope permutation of dim 8 is HF's permute", "[cli][rope][permutation]") {
  // By hand from convert_llama_weights_to_hf.py: interleaved row 2i+j -> half row j·4+i, so
  // half rows 0..3 take interleaved rows 0,2,4,6 (j = 0) and half rows 4..7 take 1,3,5,7.
  const auto r = run_cli({"rope", "permutation", "--dim", "8", "--format", "json"});
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  CHECK(j.at("dim") == 8);
  CHECK(j.at("to_half") == json::array({0, 2, 4, 6, 1, 3, 5, 7}));
  CHECK(j.at("to_interleaved") == json::array({0, 4, 1, 5, 2, 6, 3, 7}));
  const auto text = run_cli({"rope", "permutation", "--dim", "8"});
  CHECK(text.code == 0);
  CHECK_THAT(text.out, Contains("# inverse (to_interleaved): 0 4 1 5 2 6 3 7\n"));
}

TEST_CASE("rope permutation needs an even --dim", "[cli][rope][permutation]") {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"rope", "permutation", "--dim", "7"}, {"rope", "permutation"}}) {
    const auto r = run_cli(args);
    CHECK(r.code == 2);
    CHECK(one_line(r.err));
    CHECK_THAT(r.err, Contains("--dim"));
  }
}

TEST_CASE("rope permutation with a partial rotary width permutes the rotary rows only", "[cli][rope][permutation]") {
  // By hand: D = 10, R = 6. Interleaved row 2i+j -> half row j·3+i for rows < 6, so half rows
  // 0..2 take interleaved 0,2,4 and half rows 3..5 take 1,3,5; rows 6..9 stay.
  const auto r = run_cli({"rope", "permutation", "--dim", "10", "--rotary-dim", "6", "--format", "json"});
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  CHECK(j.at("dim") == 10);
  CHECK(j.at("rotary_dim") == 6);
  CHECK(j.at("to_half") == json::array({0, 2, 4, 1, 3, 5, 6, 7, 8, 9}));
  CHECK(j.at("to_interleaved") == json::array({0, 3, 1, 4, 2, 5, 6, 7, 8, 9}));
  const auto text = run_cli({"rope", "permutation", "--dim", "10", "--rotary-dim", "6"});
  CHECK(text.code == 0);
  CHECK_THAT(text.out, Contains("rows 6..9 pass through"));
  CHECK(json::parse(run_cli({"rope", "permutation", "--dim", "8", "--format", "json"}).out).at("rotary_dim") == 8);
  for (const auto& [dim, rotary] : {std::pair{"10", "5"}, std::pair{"10", "12"}, std::pair{"10", "0"}}) {
    const auto bad = run_cli({"rope", "permutation", "--dim", dim, "--rotary-dim", rotary});
    CHECK(bad.code == 2);
    CHECK(one_line(bad.err));
    CHECK_THAT(bad.err, Contains("--rotary-dim"));
  }
}

TEST_CASE("rope permutation maps the interleaved angle table onto the half one, partial rotary included",
          "[cli][rope][permutation]") {
  // An independent path: the tables `generate rope` writes in each layout. Column k of the
  // half table must be column to_half[k] of the interleaved one, pass-through columns too.
  for (const auto& [dim, rotary] : {std::pair{"10", "6"}, std::pair{"8", "8"}, std::pair{"7", "4"}}) {
    const auto perm = json::parse(run_cli({"rope", "permutation", "--dim", dim, "--rotary-dim", rotary, "--format", "json"}).out);
    const auto table = [&](const char* layout) {
      const auto r = run_cli({"generate", "rope", "--dim", dim, "--rotary-dim", rotary, "--layout", layout, "--table",
                              "angle", "--len", "5", "--format", "json", "--dtype", "float64"});
      INFO(r.err);
      REQUIRE(r.code == 0);
      return json::parse(r.out).at("data");
    };
    const json inter = table("interleaved"), half = table("half");
    CAPTURE(dim, rotary);
    for (std::size_t t = 0; t < 5; ++t)
      for (std::size_t k = 0; k < half[t].size(); ++k)
        CHECK(half[t][k] == inter[t][perm.at("to_half")[k].get<std::size_t>()]);
  }
}

TEST_CASE("generate rope from a config writes the cos table", "[cli][rope]") {
  const auto r = run_cli({"generate", "rope", "--hf-config", config("llama-3.1-8b.json"), "--len", "8", "--format", "csv"});
  CHECK(r.code == 0);
  CHECK(lines(r.out) == 9);  // header + 8 positions
  CHECK_THAT(r.out, StartsWith("position,dim0,dim1,"));
  CHECK_THAT(r.out, Contains(",dim127\n0,1,1,"));  // cos 0 = 1 at position 0
}

TEST_CASE("rope --format png is a PNG whose text holds the resolved configuration", "[cli][rope]") {
  const auto r = run_cli({"rope", "--hf-config", config("llama-3.1-8b.json"), "--format", "png"});
  REQUIRE(r.code == 0);
  REQUIRE(r.out.size() > 33);
  CHECK(r.out.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);  // PNG signature
  CHECK(r.out.compare(12, 4, "IHDR") == 0);
  // tEXt chunks are keyword NUL text; the values are the config's, not the flags' defaults.
  CHECK_THAT(r.out, Contains("RoPE wavelengths and frequencies: llama, llama3 ×8, d=128, base 500000"));  // iTXt Title
  // IHDR: width 800, height 720 (two stacked plots), big-endian after the chunk type.
  CHECK(r.out.compare(16, 8, std::string("\0\0\x03\x20\0\0\x02\xd0", 8)) == 0);
  CHECK_THAT(r.out, Contains(std::string("base", 5) + "500000 (config.json rope_theta)"));
  CHECK_THAT(r.out, Contains("29 unchanged, 29 interpolated, 6 blended"));
}

TEST_CASE("rope figure: wavelength and inverse frequency per pair, before and after scaling", "[cli][rope]") {
  const auto r = run_cli({"rope", "--hf-config", config("llama-3.1-8b.json"), "--format", "svg"});
  REQUIRE(r.code == 0);
  // Two plots, each with the unscaled and the scaled curve and its own log y axis.
  CHECK_THAT(r.out, Contains(">wavelength 2π/θ (positions)</text>"));
  CHECK_THAT(r.out, Contains(">inverse frequency θ per pair</text>"));
  CHECK_THAT(r.out, Contains(">θ (radians per position)</text>"));
  std::size_t legends = 0;
  for (auto at = r.out.find(">llama3</text>"); at != std::string::npos; at = r.out.find(">llama3</text>", at + 1)) ++legends;
  CHECK(legends == 2);
  // The reference lines: lengths in the upper plot, 2π/L (one turn within L) in the lower.
  CHECK_THAT(r.out, Contains(">original context 8192</text>"));
  CHECK_THAT(r.out, Contains(">one turn in 8192 (2π/8192)</text>"));
}

TEST_CASE("rope of Phi-3.5 without --seq-len names the factor list in title, legend and summary", "[cli][rope]") {
  const auto svg = run_cli({"rope", "--hf-config", config("phi-3.5-mini.json"), "--format", "svg"});
  REQUIRE(svg.code == 0);
  CHECK_THAT(svg.out, Contains("longrope ×32 (short_factor), d=96"));
  CHECK_THAT(svg.out, Contains(">longrope (short_factor)</text>"));
  CHECK_THAT(svg.out, Contains("short_factor: no --seq-len"));
  const auto text = run_cli({"rope", "--hf-config", config("phi-3.5-mini.json")});
  CHECK_THAT(text.out, Contains("longrope list      short_factor (no --seq-len: transformers' list up to position 4096"));
  const auto json = nlohmann::json::parse(run_cli({"rope", "--hf-config", config("phi-3.5-mini.json"), "--seq-len",
                                                   "8192", "--format", "json"}).out);
  CHECK(json["longrope_list"] == "long");
  CHECK(json["longrope_list_source"] == "--seq-len 8192 > original 4096");
  const auto llama = run_cli({"rope", "--hf-config", config("llama-2-7b-32k-instruct.json")});
  CHECK_THAT(llama.out, Contains("lengths            original 4096 (max_position_embeddings / factor = 32768 / 8: "));
}
