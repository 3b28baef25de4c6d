// Reading Hugging Face config.json files: the shipped model configs resolve to the models'
// published settings, and bad files fail with a message naming the field.
#include <catch2/catch.hpp>

#include "test_data.hpp"
#include <cmath>
#include <string>

#include "posenc/rope/rope_config.hpp"
#include "posenc/models/rope_settings.hpp"
#include "posenc/error.hpp"
#include "posenc/schemes/registry.hpp"

using namespace posenc::encodings;
using namespace posenc::rope;
using namespace posenc::schemes;
using namespace posenc::models;

namespace {

std::string data(const std::string& name) { return posenc::test::data_path("configs/" + name); }

RopeConfig load(const std::string& name, posenc::ParamMap p = posenc::ParamMap(rope_param_specs())) {
  p.set("hf-config", data(name));
  return resolve_rope_config(p);
}

std::string source_of(const RopeConfig& c, const std::string& name) {
  for (const auto& s : c.sources)
    if (s.name == name) return s.source;
  return "";
}

RopeConfig parse(const std::string& text) {
  RopeConfig c = parse_hf_config(text);
  finalize_rope_config(c);
  return c;
}

bool warned(const RopeFrequencies& f, const std::string& part) {
  for (const auto& w : f.warnings)
    if (w.find(part) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("Llama-2-7B: default RoPE, theta from transformers' default", "[rope][config]") {
  const auto c = load("llama-2-7b-chat.json");
  CHECK(c.head_dim == 128);
  CHECK(c.rotary_dim == 128);
  CHECK(c.base == 10000.0);
  CHECK(source_of(c, "base") == "class default (LlamaConfig)");  // LlamaConfig(rope_theta=10000.0)
  CHECK(source_of(c, "dim") == "derived: hidden_size / num_attention_heads = 4096 / 32");
  CHECK(c.scaling == RopeScaling::kNone);
  CHECK(c.max_position_embeddings == 4096);
  CHECK(c.layout == RopeLayout::kHalf);
}

TEST_CASE("Llama-3.1-8B: llama3 8/1/4/8192 over theta 500000, 29/6/29 bands", "[rope][config]") {
  const auto c = load("llama-3.1-8b.json");
  CHECK(c.scaling == RopeScaling::kLlama3);
  CHECK(c.base == 500000.0);
  CHECK(*c.factor == 8.0);
  CHECK(c.low_freq_factor == 1.0);
  CHECK(c.high_freq_factor == 4.0);
  CHECK(c.original_max_position_embeddings == 8192);
  CHECK(source_of(c, "factor") == "config.json rope_scaling.factor");
  const auto f = compute_frequencies(c);
  CHECK(f.llama3->unchanged == 29);
  CHECK(f.llama3->smoothed == 6);
  CHECK(f.llama3->divided == 29);
}

TEST_CASE("Qwen2.5-7B with the documented yarn block", "[rope][config]") {
  const auto c = load("qwen2.5-7b-yarn.json");
  CHECK(c.scaling == RopeScaling::kYarn);
  CHECK(c.head_dim == 128);
  CHECK(c.base == 1000000.0);
  CHECK(*c.factor == 4.0);
  CHECK(c.original_max_position_embeddings == 32768);
  CHECK(source_of(c, "scaling") == "config.json rope_scaling.type");  // legacy key
  const auto f = compute_frequencies(c);
  CHECK(f.attention_factor == Approx(0.1 * std::log(4.0) + 1).epsilon(1e-12));
  CHECK(warned(f, "no YaRN scaling at all"));  // max_position_embeddings/original = 1
  CHECK(warned(f, "'truncate' not set"));
}

TEST_CASE("DeepSeek-V3: rotary part qk_rope_head_dim, interleaved, mscale ratio 1", "[rope][config]") {
  const auto c = load("deepseek-r1.json");
  CHECK(c.head_dim == 64);
  CHECK(c.rotary_dim == 64);
  CHECK(c.layout == RopeLayout::kInterleaved);
  CHECK(*c.factor == 40.0);
  CHECK(*c.mscale == 1.0);
  CHECK(*c.mscale_all_dim == 1.0);
  const auto f = compute_frequencies(c);
  CHECK(f.attention_factor == 1.0);
  // corr_dim(32) = 64 ln(4096/(64π))/(2 ln 1e4) = 10.47 → 10; corr_dim(1) = 22.51 → 23.
  CHECK(f.yarn->low == 10.0);
  CHECK(f.yarn->high == 23.0);
  CHECK(warned(f, "softmax scale"));
}

TEST_CASE("Phi-3.5-mini: longrope with its 48-value lists", "[rope][config]") {
  auto c = load("phi-3.5-mini.json");
  CHECK(c.head_dim == 96);
  CHECK(c.rotary_dim == 96);
  REQUIRE(c.short_factor.size() == 48);
  REQUIRE(c.long_factor.size() == 48);
  CHECK(c.long_factor[0] == 1.0800000429153442);
  CHECK(c.long_factor[47] == 64.83999633789062);
  CHECK(c.short_factor[47] == 2.8399994373321533);
  CHECK(c.original_max_position_embeddings == 4096);
  CHECK(c.top_level_original_max_position_embeddings == 4096);
  auto f = compute_frequencies(c);
  CHECK(f.factor == 32.0);  // 131072 / 4096
  CHECK(f.attention_factor == Approx(1.1902380714).epsilon(1e-10));
  CHECK(f.longrope_list == "short");
  posenc::ParamMap p(rope_param_specs());
  p.set("seq-len", std::int64_t{8192});
  c = load("phi-3.5-mini.json", p);
  f = compute_frequencies(c);
  CHECK(f.longrope_list == "long");
  CHECK(f.inv_freq[0] == Approx(1 / 1.0800000429153442).epsilon(1e-7));
}

TEST_CASE("partial rotary: Phi-2 and GPT-NeoX-20B", "[rope][config]") {
  const auto phi = load("phi-2.json");
  CHECK(phi.head_dim == 80);
  CHECK(phi.rotary_dim == 32);  // int(80 × 0.4)
  const auto neox = load("gpt-neox-20b.json");
  CHECK(neox.head_dim == 96);
  CHECK(neox.rotary_dim == 24);  // int(96 × 0.25)
  CHECK(source_of(neox, "base") == "config.json rotary_emb_base");
  CHECK(source_of(neox, "partial-rotary-factor") == "config.json rotary_pct");
}

TEST_CASE("flags override the file; tool settings keep their defaults", "[rope][config]") {
  posenc::ParamMap p(rope_param_specs());
  p.set("base", 20000.0);
  p.set("convention", std::string("meta"));
  const auto c = load("llama-2-7b-chat.json", p);
  CHECK(c.base == 20000.0);
  CHECK(source_of(c, "base") == "flag --base");
  CHECK(c.layout == RopeLayout::kInterleaved);  // meta's layout
  CHECK(c.max_position_embeddings == 4096);     // still from the file
}

TEST_CASE("ggml layout follows llama.cpp's rope type for the architecture", "[rope][config]") {
  posenc::ParamMap p(rope_param_specs());
  p.set("convention", std::string("ggml"));
  CHECK(load("phi-3.5-mini.json", p).layout == RopeLayout::kHalf);        // NEOX
  CHECK(load("llama-3.1-8b.json", p).layout == RopeLayout::kInterleaved);  // NORMAL
}

TEST_CASE("rope_parameters (transformers v5) may hold rope_theta and partial_rotary_factor", "[rope][config]") {
  const auto c = parse(R"({"head_dim": 64, "max_position_embeddings": 8192,
      "rope_parameters": {"rope_type": "linear", "factor": 2.0, "rope_theta": 1e6, "partial_rotary_factor": 0.5}})");
  CHECK(c.scaling == RopeScaling::kLinear);
  CHECK(c.base == 1e6);
  CHECK(c.rotary_dim == 32);
  CHECK(source_of(c, "base") == "config.json rope_parameters.rope_theta");
}

TEST_CASE("bad config files name the field", "[rope][config]") {
  using Catch::Contains;
  CHECK_THROWS_WITH(parse(R"({"num_attention_heads": 32})"), Contains("config.json: missing \"hidden_size\""));
  CHECK_THROWS_WITH(parse(R"({"head_dim": 64, "rope_scaling": {"rope_type": "linear", "factor": "2"}})"),
                    Contains("config.json: \"rope_scaling.factor\" must be a number (got string)"));
  CHECK_THROWS_WITH(parse(R"({"head_dim": 64, "rope_scaling": {"rope_type": "linear"}})"),
                    Contains("config.json: missing \"rope_scaling.factor\" (required for rope_type linear)"));
  CHECK_THROWS_WITH(parse(R"({"head_dim": 64, "rope_scaling": {"factor": 2.0}})"),
                    Contains("missing \"rope_scaling.rope_type\""));
  CHECK_THROWS_WITH(parse(R"({"head_dim": 64, "rope_scaling": {"rope_type": "yaml", "factor": 2}})"),
                    Contains("\"rope_scaling.rope_type\" must be one of"));
  CHECK_THROWS_WITH(parse(R"({"head_dim": 64, "rope_theta": 1})"),
                    Contains("config.json: \"rope_theta\" must be a finite number > 1 (got 1)"));
  CHECK_THROWS_WITH(parse(R"({"head_dim": 64, "rope_scaling": {"rope_type": "linear", "factor": 0}})"),
                    Contains("config.json: \"rope_scaling.factor\" must be a finite number > 0"));
  CHECK_THROWS_WITH(parse(R"({"head_dim": 8, "rope_scaling": {"type": "longrope", "short_factor": [1, 2, 3],
                                "long_factor": [1, 2, 3, 4]}})"),
                    Contains("config.json: \"rope_scaling.short_factor\" must have rotary_dim/2 = 4 values (got 3)"));
  CHECK_THROWS_WITH(parse(R"({"head_dim": 8, "rope_scaling": {"type": "longrope", "short_factor": [1, "x"]}})"),
                    Contains("\"rope_scaling.short_factor[1]\" must be a number (got string)"));
  CHECK_THROWS_WITH(parse(R"({"head_dim": 64, "rope_scaling": {"rope_type": "llama3", "factor": 8}})"),
                    Contains("missing \"rope_scaling.low_freq_factor\""));
  CHECK_THROWS_WITH(parse(R"({"head_dim": 64, "rope_scaling": 3})"),
                    Contains("\"rope_scaling\" must be an object or null (got number)"));
  CHECK_THROWS_WITH(parse(R"({"head_dim": 64,)"), Contains("config.json: not valid JSON"));
  CHECK_THROWS_WITH(parse(R"({"head_dim": 63})"), Contains("config.json: \"head_dim\" must be even for rope (got 63)"));
  posenc::ParamMap p(rope_param_specs());
  p.set("hf-config", std::string("/nonexistent/config.json"));
  CHECK_THROWS_WITH(resolve_rope_config(p), Contains("--hf-config '/nonexistent/config.json': cannot read"));
}

TEST_CASE("settings missing from a config are named by their field, from flags by their flag", "[rope][config]") {
  using Catch::Contains;
  const auto frequencies = [](const std::string& text) { return compute_frequencies(parse(text)); };
  CHECK_THROWS_WITH(frequencies(R"({"head_dim": 128, "rope_scaling": {"rope_type": "yarn", "factor": 4}})"),
                    "config.json: \"rope_scaling.original_max_position_embeddings\" or \"max_position_embeddings\" (or "
                    "--original-max-position-embeddings) is required for rope_type yarn");
  CHECK_THROWS_WITH(frequencies(R"({"head_dim": 128, "rope_parameters": {"rope_type": "dynamic", "factor": 4}})"),
                    Contains("config.json: \"max_position_embeddings\" (or --max-position-embeddings) is required for "
                             "rope_type dynamic"));
  CHECK_THROWS_WITH(frequencies(R"({"text_config": {"head_dim": 128, "rope_scaling": {"rope_type": "llama3",
                        "factor": 8, "low_freq_factor": 1, "high_freq_factor": 4}}})"),
                    Contains("config.json: \"text_config.rope_scaling.original_max_position_embeddings\""));
  posenc::ParamMap p(rope_param_specs());
  p.set("scaling", std::string("dynamic"));
  p.set("factor", 4.0);
  CHECK_THROWS_WITH(compute_frequencies(resolve_rope_config(p)),
                    Contains("--max-position-embeddings is required for --scaling dynamic"));
  p.set("scaling", std::string("yarn"));
  CHECK_THROWS_WITH(compute_frequencies(resolve_rope_config(p)),
                    "--original-max-position-embeddings (or --max-position-embeddings) is required for --scaling yarn");
}

TEST_CASE("a head dim derived from hidden_size / num_attention_heads names those fields", "[rope][config]") {
  CHECK_THROWS_WITH(parse(R"({"hidden_size": 4096, "num_attention_heads": 3})"),
                    "config.json: \"hidden_size\" / \"num_attention_heads\" must be even for rope (got 1365)");
  CHECK_THROWS_WITH(parse(R"({"hidden_size": 1, "num_attention_heads": 3})"),
                    "config.json: \"hidden_size\" / \"num_attention_heads\" must be within [2, 65536] (got 0)");
  CHECK_THROWS_WITH(parse(R"({"head_dim": 0})"), "config.json: \"head_dim\" must be an integer within [2, 65536] (got 0)");
}

TEST_CASE("llama3 band factors in the wrong order: one readable message", "[rope][config]") {
  CHECK_THROWS_WITH(parse(R"({"head_dim": 64, "rope_scaling": {"rope_type": "llama3", "factor": 8,
                              "low_freq_factor": 4, "high_freq_factor": 1, "original_max_position_embeddings": 8192}})"),
                    "config.json: \"rope_scaling.high_freq_factor\" must be at least "
                    "\"rope_scaling.low_freq_factor\" (got 1 and 4)");
}

TEST_CASE("flag values are checked with the flag's name", "[rope][config]") {
  posenc::ParamMap p(rope_param_specs());
  p.set("dim", std::int64_t{64});
  p.set("rotary-dim", std::int64_t{63});
  CHECK_THROWS_WITH(resolve_rope_config(p), Catch::Contains("--rotary-dim must give an even rotary width"));
  posenc::ParamMap q(rope_param_specs());
  q.set("scaling", std::string("llama3"));
  q.set("factor", 8.0);
  q.set("low-freq-factor", 5.0);
  CHECK_THROWS_WITH(resolve_rope_config(q), "--high-freq-factor must be at least --low-freq-factor (got 4 and 5)");
}

TEST_CASE("meaningless config values are refused with the field and the rule", "[rope][config]") {
  using Catch::Contains;
  // Lengths and widths: 0, negative and too large (2^64 − 1 would wrap to −1) are not "absent".
  for (const char* v : {"0", "-4096", "18446744073709551615", "4294967296"})
    CHECK_THROWS_WITH(parse(std::string(R"({"head_dim": 64, "rope_scaling": {"rope_type": "yarn", "factor": 4,
                                          "original_max_position_embeddings": )") + v + "}}"),
                      "config.json: \"rope_scaling.original_max_position_embeddings\" must be an integer within "
                      "[1, 2147483648] (got " + std::string(v) + ")");
  for (const char* v : {"-1", "0", "18446744073709551615"})
    CHECK_THROWS_WITH(parse(std::string(R"({"head_dim": 64, "max_position_embeddings": )") + v + "}"),
                      Contains("\"max_position_embeddings\" must be an integer within [1, 2147483648] (got " +
                               std::string(v) + ")"));
  for (const char* v : {"-2", "0"})
    CHECK_THROWS_WITH(parse(std::string(R"({"head_dim": 64, "rotary_dim": )") + v + "}"),
                      "config.json: \"rotary_dim\" must be an integer within [2, 65536] (got " + std::string(v) + ")");
  CHECK_THROWS_WITH(parse(R"({"hidden_size": -4096, "num_attention_heads": 32})"),
                    Contains("\"hidden_size\" must be an integer within [1, "));
  CHECK_THROWS_WITH(parse(R"({"hidden_size": 4096, "num_attention_heads": 0})"),
                    Contains("\"num_attention_heads\" must be an integer within [1, 65536] (got 0)"));
  // llama3: λ_lo = L / low_freq_factor is infinite for 0 (the report showed "wavelengths 2048 .. inf").
  CHECK_THROWS_WITH(parse(R"({"head_dim": 64, "rope_scaling": {"rope_type": "llama3", "factor": 8,
                              "low_freq_factor": 0, "high_freq_factor": 4, "original_max_position_embeddings": 8192}})"),
                    "config.json: \"rope_scaling.low_freq_factor\" must be a finite number > 0 (got 0)");
}

TEST_CASE("settings that make a frequency infinite are refused, ones that underflow warn", "[rope][config]") {
  using Catch::Contains;
  // f32: 1e-308 becomes 0 in float32, so θ/0 = inf.
  CHECK_THROWS_WITH(compute_frequencies(parse(R"({"head_dim": 8, "rope_scaling": {"rope_type": "linear",
                                                   "factor": 1e-308}})")),
                    "config.json: \"rope_scaling.factor\" 1e-308 makes inv_freq inf at pair 0 in float32: the scaling "
                    "must keep the frequencies finite");
  CHECK_THROWS_WITH(compute_frequencies(parse(R"({"head_dim": 8, "original_max_position_embeddings": 4096,
                        "max_position_embeddings": 8192, "rope_scaling": {"type": "longrope", "short_factor": [1, 1e-300, 1, 1], "long_factor": [1, 1, 1, 1]}})")),
                    Contains("\"rope_scaling.short_factor\"[1] 1e-300 makes inv_freq inf at pair 1"));
  // 1e308 is inf in float32: θ/inf = 0 for every pair (transformers computes the same), a warning.
  auto f = compute_frequencies(parse(R"({"head_dim": 8, "rope_scaling": {"rope_type": "linear", "factor": 1e308}})"));
  REQUIRE(f.warnings.size() == 1);
  CHECK(f.warnings[0] ==
        "scaled inv_freq of 4 pairs (0 … 3) underflow to 0 in float32 with config.json: \"rope_scaling.factor\" "
        "1e+308: those pairs never rotate (transformers' float32 arithmetic gives the same zeros)");
  // rope_theta 1e308 is inf in float32: 1/inf^(2i/d) = 0 for i ≥ 1, pow(inf, 0) = 1 for pair 0.
  f = compute_frequencies(parse(R"({"head_dim": 128, "rope_theta": 1e308})"));
  CHECK(f.inv_freq[0] == 1.0);
  CHECK(f.inv_freq[1] == 0.0);
  REQUIRE(f.warnings.size() == 1);
  CHECK_THAT(f.warnings[0], Contains("inv_freq of 63 pairs (1 … 63) underflow to 0 in float32 with config.json: "
                                     "\"rope_theta\" 1e+308") &&
                                Contains("--precision f64 computes them"));
  // In double the same base gives 1e308^(-126/128) ≈ 1.1e-303: no zeros, no warning.
  auto c = parse(R"({"head_dim": 128, "rope_theta": 1e308})");
  c.precision = RopePrecision::kF64;
  f = compute_frequencies(c);
  CHECK(f.inv_freq[63] == Approx(std::pow(1e308, -126.0 / 128.0)).epsilon(1e-12));
  CHECK(f.warnings.empty());
  // A longrope list entry of 1e308 (inf in float32) silences its pair.
  f = compute_frequencies(parse(R"({"head_dim": 8, "original_max_position_embeddings": 4096,
      "max_position_embeddings": 4096, "rope_scaling": {"type": "longrope", "short_factor": [1, 1e308, 1, 1],
      "long_factor": [1, 1, 1, 1]}})"));
  CHECK(f.inv_freq[1] == 0.0);
  CHECK(warned(f, "scaled inv_freq of pair 1 underflows to 0 in float32 with config.json: "
                  "\"rope_scaling.short_factor\"[1] 1e+308: that pair never rotates"));
}

TEST_CASE("yarn without factor: max_position_embeddings / original_max_position_embeddings, said so",
          "[rope][config]") {
  // transformers main, _compute_yarn_parameters: `if factor is None: factor = max / original`.
  const auto c = parse(R"({"head_dim": 128, "max_position_embeddings": 131072, "rope_theta": 1e6,
      "rope_scaling": {"rope_type": "yarn", "original_max_position_embeddings": 32768}})");
  const auto f = compute_frequencies(c);
  CHECK(f.factor == 4.0);                                                 // 131072 / 32768
  CHECK(f.attention_factor == Approx(0.1 * std::log(4.0) + 1).epsilon(1e-12));  // from that factor
  REQUIRE(f.derived.size() >= 1);
  CHECK(f.derived[0].name == "factor");
  CHECK(f.derived[0].value == "4");
  CHECK(f.derived[0].source == "derived: max_position_embeddings / original_max_position_embeddings = 131072 / 32768 "
                               "(transformers, factor absent)");
  CHECK(warned(f, "yarn: no factor; current transformers uses max_position_embeddings"));
  // Without the original length there is no ratio (transformers would divide max by itself).
  CHECK_THROWS_WITH(compute_frequencies(parse(R"({"head_dim": 128, "max_position_embeddings": 131072,
                        "rope_scaling": {"rope_type": "yarn"}})")),
                    Catch::StartsWith("config.json: \"rope_scaling.factor\" (or --factor) is required for rope_type yarn"));
}

TEST_CASE("'default' is accepted for none; the choices say so", "[rope][config]") {
  CHECK(parse_rope_scaling("default") == RopeScaling::kNone);
  CHECK(parse_rope_scaling("none") == RopeScaling::kNone);
  CHECK(to_string(RopeScaling::kNone) == "none");
  CHECK_THROWS_WITH(parse_rope_scaling("defualt"), Catch::Contains("none, default, linear") &&
                                                      Catch::Contains("did you mean 'default'"));
}

TEST_CASE("mrope_section gets a note whatever the rope_type", "[rope][config]") {
  const auto note = [](const RopeConfig& c) {
    for (const auto& n : c.notes)
      if (n.find("M-RoPE") != std::string::npos) return n;
    return std::string();
  };
  // Qwen3-VL's text_config: rope_type "default" with interleaved sections (no note before).
  const auto qwen3vl = parse(R"({"text_config": {"head_dim": 128, "rope_theta": 5000000,
      "rope_scaling": {"mrope_interleaved": true, "mrope_section": [24, 20, 20], "rope_type": "default"}}})");
  CHECK(qwen3vl.scaling == RopeScaling::kNone);
  CHECK_THAT(note(qwen3vl), Catch::Contains("\"text_config.rope_scaling.mrope_section\" [24,20,20] (mrope_interleaved"));
  CHECK_THAT(note(qwen3vl), Catch::Contains("not modelled"));
  CHECK_THAT(note(qwen3vl), Catch::Contains("(posenc generate mrope --sections 24,20,20 --mrope-layout interleaved)"));
  // Qwen2-VL's legacy "type": "mrope".
  const auto qwen2vl = parse(R"({"head_dim": 128, "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}})");
  CHECK_THAT(note(qwen2vl), Catch::Contains("\"rope_scaling.mrope_section\" [16,24,24] gives"));
  CHECK(note(parse(R"({"head_dim": 128, "rope_scaling": {"rope_type": "default"}})")).empty());
}
