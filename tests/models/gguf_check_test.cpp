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
                                  std::pair{"qwen2.5-7b-yarn.json", "generated/qwen2-yarn.gguf"},
                                  std::pair{"gpt-neox-20b.json", "llama.cpp/ggml-vocab-gpt-neox.gguf"}}) {
    INFO(cfg << " vs " << file);
    const auto k = check(gguf_config_path(cfg), shared_gguf(file));
    INFO(errors(k));
    CHECK(k.ok());
  }
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
    if (f.what == "rope_freqs.weight") CHECK(f.where == "tensor rope_freqs.weight[29] (first of 6 differing values)");
  // The generated phi3 file holds synthetic lists, not Phi-3.5's: stale lists.
  const auto phi = check(gguf_config_path("phi-3.5-mini.json"), shared_gguf("generated/phi3-longrope-align64.gguf"));
  CHECK(has(phi, "rope_factors_long.weight", "stale LongRoPE lists"));
  CHECK(has(phi, "rope_factors_short.weight", "stale LongRoPE lists"));
}
