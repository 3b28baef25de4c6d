// rope diff's conversion check: a config.json against the GGUF converted from it. Faithful
// conversions (the README's generated files and llama.cpp's real gpt-neox file, paired with the
// shipped configs they imitate) pass; each class of conversion mistake, built with the
// spec-written writer, gives a finding that names it. The converter's rules used to build the
// faithful files: llama.cpp conversion/*.py (../shared/reference/gguf.md §3).
#include "posenc/models/gguf_check.hpp"
#include "posenc/models/rope_settings.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "../formats/gguf_writer.hpp"
#include "posenc/rope/rope_config.hpp"
#include "posenc/schemes/registry.hpp"
#include "test_data.hpp"

using namespace posenc::encodings;
using namespace posenc::rope;
using namespace posenc::schemes;
using namespace posenc::models;
using posenc::test::GgufWriter;
using posenc::test::shared_gguf;

namespace {

struct Temp {
  std::filesystem::path path;
  // per process: ctest runs test cases in parallel processes that would share one fixed name
  Temp(const std::string& name, const std::string& bytes)
      : path(std::filesystem::temp_directory_path() / ("posenc_gc_" + std::to_string(::getpid()) + "_" + name)) {
    std::ofstream(path, std::ios::binary) << bytes;
  }
  ~Temp() { std::filesystem::remove(path); }
};

RopeConfig resolve(const std::string& path) {
  posenc::ParamMap p(rope_param_specs());
  p.set("hf-config", path);
  return resolve_rope_config(p);
}

GgufCheck check(const std::string& config_path, const std::string& gguf_path, std::int64_t max_model_len = 0) {
  return check_gguf_conversion(resolve(config_path), resolve(gguf_path), max_model_len, 1e-4);
}

GgufCheck check_text(const std::string& config_json, const GgufWriter& w, std::int64_t max_model_len = 0) {
  const Temp c("config.json", config_json), g("model.gguf", w.bytes());
  return check(c.path.string(), g.path.string(), max_model_len);
}

std::string gguf_config_path(const std::string& name) { return posenc::test::data_path("configs/" + name); }

/// The error findings' "what" fields, joined.
std::string errors(const GgufCheck& k) {
  std::string s;
  for (const auto& f : k.findings)
    if (f.error) s += f.what + " [" + f.cause + "]; ";
  return s;
}

bool has(const GgufCheck& k, const std::string& what, const std::string& cause_part) {
  for (const auto& f : k.findings)
    if (f.error && f.what == what && f.cause.find(cause_part) != std::string::npos) return true;
  return false;
}

// Qwen2.5-7B as llama.cpp's generic writer converts it (tests/data/configs/qwen2.5-7b-yarn.json).
GgufWriter qwen2(bool base = true, bool yarn = true, bool original = true) {
  GgufWriter w;
  w.str("general.architecture", "qwen2").u32("qwen2.context_length", 32768).u32("qwen2.embedding_length", 3584);
  w.u32("qwen2.attention.head_count", 28).u32("qwen2.attention.head_count_kv", 4);
  if (base) w.f32("qwen2.rope.freq_base", 1e6f);
  if (yarn) w.str("qwen2.rope.scaling.type", "yarn").f32("qwen2.rope.scaling.factor", 4.0f);
  if (yarn && original) w.u32("qwen2.rope.scaling.original_context_length", 32768);
  return w;
}

const char* kQwenYarn = R"({"model_type": "qwen2", "hidden_size": 3584, "num_attention_heads": 28,
  "max_position_embeddings": 32768, "rope_theta": 1000000.0, "rope_scaling": {"type": "yarn", "factor": 4.0,
  "original_max_position_embeddings": 32768)";

}  // namespace

TEST_CASE("gguf check: faithful conversions pass", "[gguf][check]") {
  {
    const auto k = check_text(std::string(kQwenYarn) + "}}", qwen2());
    INFO(errors(k));
    CHECK(k.ok());
    REQUIRE(k.effects.size() == 2);  // 32768 and 65536
    CHECK(k.effects[1].context == 65536);
    CHECK(k.effects[0].max_rel_inv_freq < 1e-5);
    CHECK(k.effects[0].attention_a == Approx(1.0 + 0.1 * std::log(4.0)).epsilon(1e-6));
    CHECK(k.effects[0].attention_b == Approx(1.0 + 0.1 * std::log(4.0)).epsilon(1e-6));
  }
  const std::string llama3 = shared_gguf("generated/llama3-rope-freqs.gguf");
  if (llama3.empty()) {
    WARN("../shared/data/gguf is absent: skipped");
    return;
  }
  for (const auto& [cfg, file] : {std::pair{"llama-3.1-8b.json", "generated/llama3-rope-freqs.gguf"},
                                  std::pair{"deepseek-r1.json", "generated/deepseek2-yarn-mla.gguf"},
                                  std::pair{"gpt-neox-20b.json", "llama.cpp/ggml-vocab-gpt-neox.gguf"}}) {
    INFO(cfg << " vs " << file);
    const auto k = check(gguf_config_path(cfg), shared_gguf(file));
    INFO(errors(k));
    CHECK(k.ok());
  }
  // The generated qwen2 file holds the context_length 131072 Qwen documents with its YaRN block,
  // the config keeps max_position_embeddings 32768, which qwen2's converter would have written:
  // that finding and no other.
  const auto q = check(gguf_config_path("qwen2.5-7b-yarn.json"), shared_gguf("generated/qwen2-yarn.gguf"));
  INFO(errors(q));
  CHECK(errors(q).find("context length") == 0);
  std::size_t n_errors = 0;
  for (const auto& f : q.findings) n_errors += f.error ? 1 : 0;
  CHECK(n_errors == 1);
}

TEST_CASE("gguf check: each conversion mistake is a finding", "[gguf][check]") {
  const std::string yarn_cfg = std::string(kQwenYarn) + "}}";
  // 1. Base dropped: llama.cpp falls back to 10000.
  auto k = check_text(yarn_cfg, qwen2(false));
  CHECK(has(k, "rope.freq_base", "base never written"));
  CHECK(has(k, "inv_freq", "follows from the findings above"));
  // 2. YaRN keys lost.
  k = check_text(yarn_cfg, qwen2(true, false));
  CHECK(has(k, "rope.scaling.type", "YaRN keys lost"));
  // 3. original_context_length left out: n_ctx_train is used.
  GgufWriter no_orig = qwen2(true, true, false);
  k = check_text(yarn_cfg, no_orig);
  CHECK_FALSE(has(k, "original context", ""));  // here n_ctx_train equals the original: harmless
  GgufWriter long_ctx;
  long_ctx.str("general.architecture", "qwen2").u32("qwen2.context_length", 131072).u32("qwen2.embedding_length", 3584);
  long_ctx.u32("qwen2.attention.head_count", 28).f32("qwen2.rope.freq_base", 1e6f);
  long_ctx.str("qwen2.rope.scaling.type", "yarn").f32("qwen2.rope.scaling.factor", 4.0f);
  k = check_text(yarn_cfg, long_ctx);
  CHECK(has(k, "original context", "original_context_length left out"));
  // 4. dynamic cannot be stored.
  k = check_text(R"({"model_type": "qwen2", "hidden_size": 3584, "num_attention_heads": 28, "max_position_embeddings": 32768,
      "rope_theta": 1000000.0, "rope_scaling": {"rope_type": "dynamic", "factor": 4.0}})", qwen2(true, false), 131072);
  CHECK(has(k, "rope.scaling.type", "dynamic NTK cannot be stored"));
  // 5. truncate: false and non-default betas are not representable for qwen2.
  k = check_text(std::string(kQwenYarn) + R"(, "truncate": false, "beta_fast": 64}})", qwen2());
  CHECK(has(k, "truncate", "truncate: false cannot be stored"));
  CHECK(has(k, "beta_fast", "only grok and mistral3 read the betas"));
  // 6. An explicit YaRN attention_factor is recomputed away by llama.cpp.
  k = check_text(std::string(kQwenYarn) + R"(, "attention_factor": 1.5}})", qwen2());
  CHECK(has(k, "attention factor", "recomputed away"));
  // 7. head_dim ≠ hidden/heads and no key_length.
  k = check_text(R"({"model_type": "qwen2", "hidden_size": 3584, "num_attention_heads": 28, "head_dim": 64,
      "max_position_embeddings": 32768, "rope_theta": 1000000.0})", qwen2(true, false));
  CHECK(has(k, "head size", "without attention.key_length"));
  // 8. Partial rotary written wrong (Persimmon: the whole head).
  GgufWriter neox;
  neox.str("general.architecture", "gptneox").u32("gptneox.context_length", 2048).u32("gptneox.embedding_length", 6144);
  neox.u32("gptneox.attention.head_count", 64).u32("gptneox.rope.dimension_count", 96);
  k = check(gguf_config_path("gpt-neox-20b.json"), Temp("neox.gguf", neox.bytes()).path.string());
  CHECK(has(k, "rotary width", "partial rotary"));
  // 9. Another model's file.
  GgufWriter other = qwen2(true, false);
  k = check_text(R"({"model_type": "llama", "hidden_size": 3584, "num_attention_heads": 28, "max_position_embeddings": 32768,
      "rope_theta": 1000000.0})", other);
  CHECK(has(k, "architecture", "makes 'llama' of model_type llama"));
}

TEST_CASE("gguf check: llama3 rope_freqs missing or wrong, stale LongRoPE lists", "[gguf][check]") {
  const std::string llama3 = shared_gguf("generated/llama3-rope-freqs.gguf");
  if (llama3.empty()) {
    WARN("../shared/data/gguf is absent: skipped");
    return;
  }
  GgufWriter w;
  w.str("general.architecture", "llama").u32("llama.context_length", 131072).u32("llama.embedding_length", 4096);
  w.u32("llama.attention.head_count", 32).u32("llama.rope.dimension_count", 128).f32("llama.rope.freq_base", 500000.0f);
  const auto missing = check(gguf_config_path("llama-3.1-8b.json"), Temp("l3.gguf", w.bytes()).path.string(), 131072);
  CHECK(has(missing, "rope_freqs.weight", "conversions before ggml-org/llama.cpp#8676"));
  // The README's factors with the precedence bug of #8676's first revision in the blended band.
  std::vector<float> ff(64, 1.0f);
  for (std::size_t i = 35; i < 64; ++i) ff[i] = 8.0f;
  for (std::size_t i = 29; i < 35; ++i) ff[i] = 3.0f;
  w.tensor_f32("rope_freqs.weight", ff);
  const auto wrong = check(gguf_config_path("llama-3.1-8b.json"), Temp("l3w.gguf", w.bytes()).path.string());
  CHECK(has(wrong, "rope_freqs.weight", "1/((1−s)/factor + s)"));
  for (const auto& f : wrong.findings)
    if (f.what == "rope_freqs.weight") CHECK(f.where == "tensor rope_freqs.weight[29] (first of 6 values more than 8 float32 ulps off)");
  // The generated phi3 file holds synthetic lists, not Phi-3.5's: stale lists.
  const auto phi = check(gguf_config_path("phi-3.5-mini.json"), shared_gguf("generated/phi3-longrope-align64.gguf"));
  CHECK(has(phi, "rope_factors_long.weight", "stale LongRoPE lists"));
  CHECK(has(phi, "rope_factors_short.weight", "stale LongRoPE lists"));
}

namespace {

/// DeepSeek-R1 (tests/data/configs/deepseek-r1.json) as conversion/deepseek.py writes it: MLA
/// key_length = kv_lora_rank 512 + qk_rope 64, dimension_count 64, YaRN s = 40 from 4096, and
/// yarn_log_multiplier = 0.1·mscale_all_dim (`log_mul`: the value stored).
GgufWriter deepseek2(float log_mul) {
  GgufWriter w;
  w.str("general.architecture", "deepseek2").u32("deepseek2.context_length", 163840);
  w.u32("deepseek2.embedding_length", 7168).u32("deepseek2.attention.head_count", 128);
  w.u32("deepseek2.attention.key_length", 576).u32("deepseek2.attention.key_length_mla", 192);
  w.u32("deepseek2.rope.dimension_count", 64).f32("deepseek2.rope.freq_base", 10000.0f);
  w.str("deepseek2.rope.scaling.type", "yarn").f32("deepseek2.rope.scaling.factor", 40.0f);
  w.u32("deepseek2.rope.scaling.original_context_length", 4096);
  w.f32("deepseek2.rope.scaling.yarn_log_multiplier", log_mul);
  return w;
}

const GgufFinding* finding(const GgufCheck& k, const std::string& what) {
  for (const auto& f : k.findings)
    if (f.what == what) return &f;
  return nullptr;
}

/// Llama-3.1-8B's keys (tests/data/configs/llama-3.1-8b.json) with `ctx` as context_length.
GgufWriter llama31(std::uint32_t ctx, bool base = true) {
  GgufWriter w;
  w.str("general.architecture", "llama").u32("llama.context_length", ctx).u32("llama.embedding_length", 4096);
  w.u32("llama.attention.head_count", 32).u32("llama.rope.dimension_count", 128);
  if (base) w.f32("llama.rope.freq_base", 500000.0f);
  return w;
}

/// llama3 factors as llama.cpp's converter rule (conversion/llama.py), every step in double,
/// then stored as float32 (what a float64 converter writes): d = 128, b = 500000, s = 8,
/// low 1, high 4, original 8192.
std::vector<float> llama3_factors_f64() {
  const double pi = 3.14159265358979323846;
  std::vector<float> out;
  for (int i = 0; i < 64; ++i) {
    const double freq = 1.0 / std::pow(500000.0, 2.0 * i / 128.0);
    const double wavelen = 2 * pi / freq;
    if (wavelen < 8192.0 / 4) out.push_back(1.0f);
    else if (wavelen > 8192.0 / 1) out.push_back(8.0f);
    else {
      const double smooth = (8192.0 / wavelen - 1.0) / (4.0 - 1.0);
      out.push_back(static_cast<float>(1.0 / ((1 - smooth) / 8.0 + smooth)));
    }
  }
  return out;
}

}  // namespace

TEST_CASE("gguf check: deepseek2 yarn_log_multiplier and kq_scale's mscale²", "[gguf][check]") {
  const std::string cfg = gguf_config_path("deepseek-r1.json");
  // Faithful: 0.1·mscale_all_dim = 0.1. llama.cpp's logit scale (1 + 0.1·1·ln 40)² = 1.873854.
  const auto ok = check(cfg, Temp("ds.gguf", deepseek2(0.1f).bytes()).path.string());
  INFO(errors(ok));
  CHECK(ok.ok());
  REQUIRE_FALSE(ok.effects.empty());
  const double m = 1.0 + 0.1 * std::log(40.0);
  CHECK(ok.effects[0].logit_a == Approx(m * m).epsilon(1e-9));
  CHECK(ok.effects[0].logit_b == Approx(m * m).epsilon(1e-6));
  // 1.0 stored (mscale_all_dim itself): llama.cpp reads mscale_all_dim = 10, so mscale = 1 + 0.1·10·ln 40
  // and the logits scale by (1 + ln 40)² = 21.99 instead of 1.874 (ggml-org/llama.cpp#17945).
  const auto bad = check(cfg, Temp("ds1.gguf", deepseek2(1.0f).bytes()).path.string());
  CHECK_FALSE(bad.ok());
  CHECK(has(bad, "rope.scaling.yarn_log_multiplier", "holds mscale_all_dim itself"));
  CHECK(has(bad, "logit scale", "mscale²"));
  const double m10 = 1.0 + std::log(40.0);
  CHECK(bad.effects[0].logit_b == Approx(m10 * m10).epsilon(1e-6));
  const auto* f = finding(bad, "rope.scaling.yarn_log_multiplier");
  REQUIRE(f != nullptr);
  CHECK(f->expected == "0.1 (0.1·mscale_all_dim 1)");
  CHECK(f->found == "1");
}

TEST_CASE("gguf check: a file llama.cpp refuses to load is a finding", "[gguf][check]") {
  // rope.freq_base as f64: llama.cpp's get_key requires f32 ("key has wrong type").
  GgufWriter f64;
  f64.str("general.architecture", "qwen2").u32("qwen2.context_length", 32768).u32("qwen2.embedding_length", 3584);
  f64.u32("qwen2.attention.head_count", 28).f64("qwen2.rope.freq_base", 1e6);
  f64.str("qwen2.rope.scaling.type", "yarn").f32("qwen2.rope.scaling.factor", 4.0f);
  f64.u32("qwen2.rope.scaling.original_context_length", 32768);
  auto k = check_text(std::string(kQwenYarn) + "}}", f64);
  CHECK_FALSE(k.ok());
  CHECK(has(k, "load", "qwen2.rope.freq_base is stored as f64"));
  // qwen2vl without rope.dimension_sections: a required key for M-RoPE architectures.
  GgufWriter vl;
  vl.str("general.architecture", "qwen2vl").u32("qwen2vl.context_length", 32768).u32("qwen2vl.embedding_length", 1536);
  vl.u32("qwen2vl.attention.head_count", 12).f32("qwen2vl.rope.freq_base", 1e6f);
  k = check_text(R"({"model_type": "qwen2_vl", "hidden_size": 1536, "num_attention_heads": 12,
      "max_position_embeddings": 32768, "rope_theta": 1000000.0})", vl);
  CHECK_FALSE(k.ok());
  CHECK(has(k, "load", "no qwen2vl.rope.dimension_sections"));
  vl.i32s("qwen2vl.rope.dimension_sections", {16, 24, 24, 0});
  k = check_text(R"({"model_type": "qwen2_vl", "hidden_size": 1536, "num_attention_heads": 12,
      "max_position_embeddings": 32768, "rope_theta": 1000000.0})", vl);
  INFO(errors(k));
  CHECK_FALSE(has(k, "load", ""));
}

TEST_CASE("gguf check: context_length is a finding where the converter writes max_position_embeddings",
          "[gguf][check]") {
  GgufWriter w = llama31(8192);
  w.tensor_f32("rope_freqs.weight", llama3_factors_f64());
  auto k = check(gguf_config_path("llama-3.1-8b.json"), Temp("l3c.gguf", w.bytes()).path.string(), 131072);
  CHECK_FALSE(k.ok());
  CHECK(has(k, "context length", "writes max_position_embeddings as context_length"));
  // Falcon's converter hard-codes 2048: a note, not a finding.
  GgufWriter falcon;
  falcon.str("general.architecture", "falcon").u32("falcon.context_length", 2048).u32("falcon.embedding_length", 4544);
  falcon.u32("falcon.attention.head_count", 71);
  k = check_text(R"({"model_type": "falcon", "hidden_size": 4544, "num_attention_heads": 71,
      "max_position_embeddings": 8192})", falcon);
  CHECK_FALSE(has(k, "context length", ""));
  const auto* f = finding(k, "context length");
  REQUIRE(f != nullptr);
  CHECK_FALSE(f->error);
  CHECK(f->cause.find("hard-coded 2048") != std::string::npos);
}

TEST_CASE("gguf check: causes fit the architecture and the evidence; factors compared within ulps",
          "[gguf][check]") {
  // A llama file without rope.freq_base: llama's converter writes it, so the cause is not gemma's.
  GgufWriter nb = llama31(131072, false);
  nb.tensor_f32("rope_freqs.weight", llama3_factors_f64());
  auto k = check(gguf_config_path("llama-3.1-8b.json"), Temp("l3nb.gguf", nb.bytes()).path.string());
  const auto* f = finding(k, "rope.freq_base");
  REQUIRE(f != nullptr);
  CHECK(f->cause.find("converter for llama writes rope_theta") != std::string::npos);
  CHECK(f->cause.find("gemma") == std::string::npos);
  // Factors computed in float64 (a faithful converter other than llama.cpp's float32 torch):
  // 3 ulps from the float32 rule at pair 33 (3.6842525 vs 3.6842532), inv_freq moved by 2e-7.
  GgufWriter l3 = llama31(131072);
  const auto ff = llama3_factors_f64();
  CHECK(ff[33] == 3.6842525005340576f);
  l3.tensor_f32("rope_freqs.weight", ff);
  k = check(gguf_config_path("llama-3.1-8b.json"), Temp("l3f64.gguf", l3.bytes()).path.string());
  INFO(errors(k));
  CHECK(k.ok());
  CHECK(finding(k, "rope_freqs.weight") == nullptr);
  // LongRoPE lists swapped: the file's long list is the config's short one and vice versa.
  const std::string phi_cfg = R"({"model_type": "phi3", "hidden_size": 64, "num_attention_heads": 4,
      "max_position_embeddings": 16384, "original_max_position_embeddings": 4096, "rope_theta": 10000.0,
      "rope_scaling": {"type": "longrope", "long_factor": [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 48.0, 64.0],
      "short_factor": [1.0, 1.0, 1.5, 1.5, 2.0, 2.0, 3.0, 3.0]}})";
  GgufWriter phi;
  phi.str("general.architecture", "phi3").u32("phi3.context_length", 16384).u32("phi3.embedding_length", 64);
  phi.u32("phi3.attention.head_count", 4).u32("phi3.rope.dimension_count", 16).f32("phi3.rope.freq_base", 10000.0f);
  phi.u32("phi3.rope.scaling.original_context_length", 4096);
  phi.f32("phi3.rope.scaling.attn_factor", static_cast<float>(std::sqrt(1 + std::log(4.0) / std::log(4096.0))));
  phi.tensor_f32("rope_factors_long.weight", {1, 1, 1.5, 1.5, 2, 2, 3, 3});
  phi.tensor_f32("rope_factors_short.weight", {1, 2, 4, 8, 16, 32, 48, 64});
  k = check_text(phi_cfg, phi);
  CHECK(has(k, "rope_factors_long/short.weight", "long and short lists swapped"));
  CHECK_FALSE(has(k, "rope_factors_long.weight", "stale"));
}
