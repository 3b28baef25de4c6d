// The model-family table and what it adds to a config.json: class defaults with their
// provenance, the layout transformers' model class rotates with, refusal of models without
// RoPE, and model folders. Expected values are the transformers config classes' defaults
// (configuration_gemma3.py: head_dim=256, rope_theta=1_000_000.0, rope_local_base_freq=10_000.0)
// and the modeling files' apply_rotary_pos_emb (Cohere/GLM/GPT-J/Llama 4 adjacent pairs).
#include <catch2/catch.hpp>
#include <unistd.h>

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "../encodings/error_of.hpp"
#include "posenc/rope/rope_config.hpp"
#include "posenc/models/rope_settings.hpp"
#include "posenc/models/config_path.hpp"
#include "posenc/models/family.hpp"
#include "posenc/models/model_report.hpp"
#include "posenc/schemes/registry.hpp"

using namespace posenc::encodings;
using namespace posenc::rope;
using namespace posenc::schemes;
using namespace posenc::models;
using posenc_test::error_of;

namespace {

RopeConfig resolve_text(const std::string& text, std::initializer_list<std::pair<std::string, posenc::ParamValue>> flags = {}) {
  const auto dir = std::filesystem::temp_directory_path() / ("posenc_family_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto file = dir / "config.json";
  std::ofstream(file) << text;
  posenc::ParamMap p(rope_param_specs());
  p.set("hf-config", file.string());
  for (const auto& [k, v] : flags) p.set(k, v);
  return resolve_rope_config(p);
}

std::string source_of(const RopeConfig& c, const std::string& name) {
  for (const auto& s : c.sources)
    if (s.name == name) return s.source;
  return "";
}

}  // namespace

TEST_CASE("every model_type spelling finds one family", "[models]") {
  CHECK(posenc::models::find_family("gemma3")->model_type == "gemma3_text");
  CHECK(posenc::models::find_family("gemma3_text")->config_class == "Gemma3TextConfig");
  CHECK(posenc::models::find_family("llama4")->model_type == "llama4_text");
  CHECK(posenc::models::find_family("xlm-roberta")->model_type == "roberta");
  CHECK(posenc::models::find_family("qwen2_5_vl")->model_type == "qwen2_vl");
  CHECK(posenc::models::find_family("no_such_model") == nullptr);
  CHECK(posenc::models::find_family("") == nullptr);
  for (const auto& f : posenc::models::families()) {  // no spelling belongs to two families
    CHECK(posenc::models::find_family(f.model_type) == &f);
    CHECK(!f.mechanisms.empty());
  }
}

TEST_CASE("a sparse Gemma 3 config takes Gemma3TextConfig's defaults, and says so", "[models]") {
  // transformers fills head_dim 256 and rope_theta 1e6; hidden_size/heads would give 2304/8 = 288.
  const auto c = resolve_text(R"({"model_type": "gemma3_text"})");
  CHECK(c.head_dim == 256);
  CHECK(c.rotary_dim == 256);
  CHECK(c.base == 1000000.0);
  CHECK(c.max_position_embeddings == 131072);
  CHECK(source_of(c, "dim") == "class default (Gemma3TextConfig)");
  CHECK(source_of(c, "base") == "class default (Gemma3TextConfig)");
  // fields the file gives win over the class
  const auto d = resolve_text(R"({"model_type": "gemma3_text", "head_dim": 128, "rope_theta": 5e5})");
  CHECK(d.head_dim == 128);
  CHECK(d.base == 500000.0);
  CHECK(source_of(d, "base") == "config.json rope_theta");
}

TEST_CASE("the layout follows the model class under hf", "[models]") {
  for (const char* type : {"cohere", "cohere2", "glm", "glm4", "llama4_text", "deepseek_v2"}) {
    INFO(type);
    const auto c = resolve_text(fmt::format(R"({{"model_type": "{}", "hidden_size": 256, "num_attention_heads": 2}})", type));
    CHECK(c.layout == RopeLayout::kInterleaved);
    CHECK(source_of(c, "layout").starts_with("model class"));
  }
  const auto j = resolve_text(R"({"model_type": "gptj", "n_embd": 256, "n_head": 2, "rotary_dim": 64})");
  CHECK(j.layout == RopeLayout::kInterleaved);
  CHECK(j.rotary_dim == 64);
  for (const char* type : {"llama", "qwen2", "gemma2", "phi3", "gpt_neox", "gpt_oss"}) {
    INFO(type);
    const auto c = resolve_text(fmt::format(R"({{"model_type": "{}", "hidden_size": 256, "num_attention_heads": 2}})", type));
    CHECK(c.layout == RopeLayout::kHalf);
  }
  // a flag still wins
  const auto f = resolve_text(R"({"model_type": "cohere", "hidden_size": 256, "num_attention_heads": 2})",
                              {{"layout", std::string("half")}});
  CHECK(f.layout == RopeLayout::kHalf);
}

TEST_CASE("a model without RoPE is refused in one line naming what it uses", "[models]") {
  for (const auto& [text, uses] : std::vector<std::pair<std::string, std::string>>{
           {R"({"model_type": "bloom", "n_head": 16, "hidden_size": 1024})", "(BLOOM) uses alibi, not RoPE"},
           {R"({"model_type": "falcon", "alibi": true, "hidden_size": 2048, "num_attention_heads": 32})",
            "(Falcon) uses alibi, not RoPE"},
           {R"({"model_type": "gpt2"})", "uses learned, not RoPE"},
           {R"({"model_type": "t5", "d_model": 768})", "uses t5, not RoPE"},
           {R"({"model_type": "marian"})", "uses sinusoidal, not RoPE"},
           {R"({"model_type": "whisper"})", "uses sinusoidal and learned, not RoPE"},
           {R"({"model_type": "deberta-v2"})", "uses deberta and learned, not RoPE"}}) {
    INFO(text);
    const std::string e = error_of([&] { resolve_text(text); });
    CHECK(e.find(uses) != std::string::npos);
    CHECK(e.find("'posenc model ") != std::string::npos);
    CHECK(e.find('\n') == std::string::npos);
  }
  // Falcon without "alibi": true rotates
  CHECK(resolve_text(R"({"model_type": "falcon", "hidden_size": 4544, "num_attention_heads": 71})").head_dim == 64);
}

TEST_CASE("a model folder holding config.json is taken by --hf-config", "[models]") {
  const auto dir = std::filesystem::temp_directory_path() / ("posenc_family_folder_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  CHECK(error_of([&] { posenc::models::resolve_config_path(dir.string()); }) ==
        "--hf-config '" + dir.string() + "': the folder holds no config.json (give a config.json or a model folder)");
  std::ofstream(dir / "config.json") << R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32})";
  CHECK(posenc::models::resolve_config_path(dir.string()) == (dir / "config.json").string());
  posenc::ParamMap p(rope_param_specs());
  p.set("hf-config", dir.string());
  CHECK(resolve_rope_config(p).head_dim == 128);
  CHECK(posenc::models::resolve_config_path("/no/such/file.json") == "/no/such/file.json");  // the reader says why
  std::filesystem::remove_all(dir);
}

// transformers' configuration_mt5.py / configuration_umt5.py: MT5Config and UMT5Config are
// classes of their own (model_type "mt5", "umt5") whose defaults are num_layers=8, num_heads=6
// (T5Config: 6 and 8), relative_attention_num_buckets=32, relative_attention_max_distance=128,
// num_decoder_layers = num_layers when None. modeling_umt5.py: UMT5LayerSelfAttention builds
// UMT5Attention(config, has_relative_attention_bias=True) in every block, cross-attention none;
// modeling_t5.py / modeling_mt5.py: has_relative_attention_bias=bool(i == 0), shared onwards.
TEST_CASE("T5, mT5 and UMT5 are three config classes; UMT5 has a bias table in every layer", "[models]") {
  using posenc::models::parse_model;
  const auto value = [](const posenc::models::MechanismUse& m, const std::string& key) {
    for (const auto& [k, v] : m.values)
      if (k == key) return std::get<std::int64_t>(v);
    FAIL("no " << key);
    return std::int64_t{-1};
  };
  const auto defaulted = [](const posenc::models::ModelReport& r, const std::string& field) {
    for (const auto& d : r.defaults)
      if (d.field == field) return d.value + " " + d.source;
    return std::string("<not defaulted>");
  };
  using V = std::vector<std::int64_t>;
  {
    const auto r = parse_model(R"({"model_type": "umt5", "num_decoder_layers": 3})", "u.json");
    CHECK(r.family == "UMT5");
    CHECK(r.config_class == "UMT5Config");
    CHECK(defaulted(r, "num_layers") == "8 class default (UMT5Config)");
    CHECK(defaulted(r, "num_heads") == "6 class default (UMT5Config)");
    CHECK(defaulted(r, "relative_attention_num_buckets") == "32 class default (UMT5Config)");
    CHECK(defaulted(r, "relative_attention_max_distance") == "128 class default (UMT5Config)");
    REQUIRE(r.mechanisms.size() == 2);
    const auto& enc = r.mechanisms[0];
    const auto& dec = r.mechanisms[1];
    CHECK(enc.layer_type == "encoder");
    CHECK(enc.layers == V{0, 1, 2, 3, 4, 5, 6, 7});  // every block of the 8-layer encoder
    CHECK(value(enc, "bias_tables") == 8);
    CHECK(value(enc, "heads") == 6);
    CHECK(dec.layers == V{0, 1, 2});  // num_decoder_layers blocks
    CHECK(value(dec, "bias_tables") == 3);
    CHECK(value(enc, "num_buckets") == 32);
    CHECK(value(enc, "max_exact") == 8);   // bidirectional: 32 // 2 // 2
    CHECK(value(dec, "max_exact") == 16);  // causal: 32 // 2
  }
  {
    const auto r = parse_model(R"({"model_type": "mt5"})", "m.json");
    CHECK(r.config_class == "MT5Config");
    CHECK(defaulted(r, "num_heads") == "6 class default (MT5Config)");
    REQUIRE(r.mechanisms.size() == 2);
    CHECK(r.mechanisms[0].layers == V{0});  // layer 0's table, shared
    CHECK(value(r.mechanisms[0], "bias_tables") == 1);
    CHECK(value(r.mechanisms[1], "stack_layers") == 8);  // num_decoder_layers = num_layers
  }
  {
    const auto r = parse_model(R"({"model_type": "t5"})", "t.json");
    CHECK(r.config_class == "T5Config");
    CHECK(defaulted(r, "num_heads") == "8 class default (T5Config)");
    CHECK(defaulted(r, "num_layers") == "6 class default (T5Config)");
    CHECK(value(r.mechanisms[0], "bias_tables") == 1);
  }
}
