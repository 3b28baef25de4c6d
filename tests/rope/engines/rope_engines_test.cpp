// The serving-engine conventions on small hand-worked cases (docs/engines.md gives each formula
// with its source). Expected values are closed forms worked out here, not posenc output; the
// float32 values at real model sizes are checked against numpy in
// tests/integration/test_rope_engines.py.
#include "posenc/rope/engines/rope_engines.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "posenc/rope/rope.hpp"
#include "posenc/error.hpp"
#include "posenc/schemes/registry.hpp"
#include "../rope_test_util.hpp"

using namespace posenc::encodings;
using namespace posenc::rope;
using namespace posenc::schemes;
using rope_test::config;

namespace {

RopeConfig engine(RopeConfig c, RopeConvention conv) {
  c.convention = conv;
  return c;
}

bool mentions(const RopeFrequencies& f, const std::string& part) {
  for (const auto& d : f.deviations)
    if (d.find(part) != std::string::npos) return true;
  return false;
}

/// dim 4, base 100: θ = (1, 0.1); LongRoPE with L = 16, M = 64.
RopeConfig small_longrope() {
  auto c = config(4, 100.0, RopePrecision::kF64);
  c.scaling = RopeScaling::kLongrope;
  c.short_factor = {1.0, 2.0};
  c.long_factor = {4.0, 8.0};
  c.original_max_position_embeddings = 16;
  c.max_position_embeddings = 64;
  return c;
}

}  // namespace

TEST_CASE("engine registry: one row per convention in enum order, names parse back", "[rope][engines]") {
  const auto& all = rope_conventions();
  REQUIRE(all.size() == 8);
  for (std::size_t i = 0; i < all.size(); ++i) {
    CHECK(parse_rope_convention(all[i].name) == static_cast<RopeConvention>(i));
    CHECK(to_string(static_cast<RopeConvention>(i)) == all[i].name);
    CHECK_FALSE(all[i].version.empty());
  }
  CHECK(is_engine_convention(RopeConvention::kVllm06));
  CHECK_FALSE(is_engine_convention(RopeConvention::kGgml));
  CHECK_THROWS_AS(parse_rope_convention("vlm"), posenc::Error);
}

TEST_CASE("LongRoPE switch rules at L = 16: transformers by length, vLLM by max_model_len, SGLang per batch, "
          "TensorRT-LLM by max_seq_len, MLX always long",
          "[rope][engines]") {
  auto c = small_longrope();
  // short: θ_i / short_i = (1, 0.05); long: (0.25, 0.0125).
  const auto list = [&](RopeConvention conv, std::int64_t seq, std::int64_t max_model_len) {
    auto e = engine(c, conv);
    e.seq_len = seq;
    e.max_model_len = max_model_len;
    return compute_frequencies(e);
  };
  CHECK(list(RopeConvention::kHf, 16, 0).longrope_list == "short");
  CHECK(list(RopeConvention::kHf, 17, 0).longrope_list == "long");
  // vLLM: max_model_len defaults to max_position_embeddings 64 > 16: long for every length.
  const auto v = list(RopeConvention::kVllm, 2, 0);
  CHECK(v.longrope_list == "long");
  CHECK(v.inv_freq[0] == Approx(0.25).epsilon(1e-15));
  CHECK(v.inv_freq[1] == Approx(0.0125).epsilon(1e-15));
  CHECK(mentions(v, "#27431"));
  CHECK(list(RopeConvention::kVllm, 17, 16).longrope_list == "short");
  // SGLang and vLLM 0.6: long only once a position exceeds 16, i.e. from 18 tokens on.
  for (auto conv : {RopeConvention::kSglang, RopeConvention::kVllm06}) {
    CHECK(list(conv, 17, 0).longrope_list == "short");
    CHECK(list(conv, 18, 0).longrope_list == "long");
  }
  CHECK(list(RopeConvention::kTrtllm, 2, 0).longrope_list == "long");   // max_seq_len None
  CHECK(list(RopeConvention::kTrtllm, 2, 16).longrope_list == "short");  // 16 is not > 16
  CHECK(list(RopeConvention::kMlx, 2, 16).longrope_list == "long");
  // Every engine's attention factor: √(1 + ln(64/16) / ln 16) = √1.5.
  CHECK(list(RopeConvention::kSglang, 2, 0).attention_factor == Approx(std::sqrt(1.5)).epsilon(1e-15));
}

TEST_CASE("SGLang at 17 tokens: position 16 reads row 0 of the long cache (angle 0)", "[rope][engines]") {
  auto c = engine(small_longrope(), RopeConvention::kSglang);
  c.seq_len = 17;
  const auto f = compute_frequencies(c);
  CHECK(f.cache_len == 16 + 64);  // short rows ‖ long rows
  const auto at15 = rope_pair_values(c, f, 15);
  CHECK(at15.angle[1] == Approx(15 * 0.05).epsilon(1e-15));
  const auto at16 = rope_pair_values(c, f, 16);
  CHECK(at16.angle[0] == 0.0);
  CHECK(at16.cos[0] == Approx(std::sqrt(1.5)).epsilon(1e-15));  // cos 0 × the long mscale
  const auto at17 = rope_pair_values(c, f, 17);
  CHECK(at17.angle[1] == Approx(1 * 0.0125).epsilon(1e-15));  // row 1 of the long cache
  CHECK(mentions(f, "row 0 of the long cache"));
}

TEST_CASE("dynamic NTK, d = 4, s = 2, M = 8: fixed base 100·3², unscaled, or per length", "[rope][engines]") {
  auto c = config(4, 100.0, RopePrecision::kF64);
  c.scaling = RopeScaling::kDynamic;
  c.factor = 2.0;
  c.max_position_embeddings = 8;
  const auto at = [&](RopeConvention conv, std::int64_t seq) {
    auto e = engine(c, conv);
    e.seq_len = seq;
    return compute_frequencies(e);
  };
  // b·(s·(M·s)/M − (s − 1))^(d/(d−2)) = 100·3² = 900 at every length.
  for (auto conv : {RopeConvention::kSglang, RopeConvention::kVllm06}) {
    const auto f = at(conv, 8);
    CHECK(f.base == Approx(900.0).epsilon(1e-14));
    CHECK(f.inv_freq[1] == Approx(1.0 / 30.0).epsilon(1e-14));
    CHECK(f.cache_len == 16);
  }
  // vLLM main: base 100, cache of 8 rows while it admits 16.
  const auto v = at(RopeConvention::kVllm, 16);
  CHECK(v.base == 100.0);
  CHECK(v.cache_len == 8);
  CHECK(v.admitted_len == 16);
  CHECK(mentions(v, "#55910"));
  // transformers, TensorRT-LLM, MLX at 12 tokens: 100·(2·12/8 − 1)² = 400.
  CHECK(at(RopeConvention::kHf, 12).base == Approx(400.0).epsilon(1e-14));
  CHECK(at(RopeConvention::kMlx, 12).base == Approx(400.0).epsilon(1e-14));
  CHECK(at(RopeConvention::kTrtllm, 12).base == Approx(400.0).epsilon(1e-7));  // float32 in the kernel
  CHECK(at(RopeConvention::kTrtllm, 8).base == 100.0);                        // not above M
}

TEST_CASE("YaRN attention factor at s = 40 with mscale = mscale_all_dim = 1", "[rope][engines]") {
  auto c = config(8, 10000.0, RopePrecision::kF64);
  c.scaling = RopeScaling::kYarn;
  c.factor = 40.0;
  c.original_max_position_embeddings = 64;
  c.max_position_embeddings = 64 * 40;
  c.mscale = 1.0;
  c.mscale_all_dim = 1.0;
  CHECK(compute_frequencies(c).attention_factor == 1.0);  // transformers: ratio of equal get_mscale
  const double plain = 0.1 * std::log(40.0) + 1.0;       // 1.3688879454113936
  const auto v = compute_frequencies(engine(c, RopeConvention::kVllm));
  CHECK(v.attention_factor == Approx(1.3688879454113936).epsilon(1e-15));
  CHECK(v.attention_factor == Approx(plain).epsilon(1e-15));
  CHECK(v.cache_len == 64 * 40);
  CHECK(mentions(v, "#48621"));
  for (auto conv : {RopeConvention::kSglang, RopeConvention::kTrtllm, RopeConvention::kMlx})
    CHECK(compute_frequencies(engine(c, conv)).attention_factor == 1.0);
  // DeepSeek's model code: the same ratio on cos/sin, the softmax scale × (0.1·ln 40 + 1)².
  c.model_type = "deepseek_v3";
  for (auto conv : {RopeConvention::kHf, RopeConvention::kVllm, RopeConvention::kSglang, RopeConvention::kTrtllm,
                    RopeConvention::kMlx}) {
    const auto f = compute_frequencies(engine(c, conv));
    CHECK(f.attention_factor == 1.0);
    CHECK(f.logit_scale == Approx(plain * plain).epsilon(1e-15));
  }
}

TEST_CASE("missing original_max_position_embeddings: 1024 in TensorRT-LLM, 4096 in MLX, KeyError in vLLM",
          "[rope][engines]") {
  auto c = config(8, 10000.0, RopePrecision::kF64);
  c.scaling = RopeScaling::kYarn;
  c.factor = 4.0;
  c.max_position_embeddings = 2048;
  CHECK(compute_frequencies(c).original_length == 2048);  // transformers: max_position_embeddings
  const auto t = compute_frequencies(engine(c, RopeConvention::kTrtllm));
  CHECK(t.original_length == 1024);
  // corr_dim(32) = 8·ln(1024/(64π)) / (2 ln 10000) = 0.6286…, floored to 0.
  REQUIRE(t.yarn);
  CHECK(t.yarn->low_raw == Approx(8.0 * std::log(1024.0 / (64.0 * M_PI)) / (2.0 * std::log(10000.0))).epsilon(1e-14));
  CHECK(compute_frequencies(engine(c, RopeConvention::kMlx)).original_length == 4096);
  CHECK(compute_frequencies(engine(c, RopeConvention::kSglang)).original_length == 2048);
  CHECK_THROWS_WITH(compute_frequencies(engine(c, RopeConvention::kVllm)),
                    Catch::Contains("KeyError") && Catch::Contains("original_max_position_embeddings"));
}

TEST_CASE("vLLM linear: the cache divides the positions; MLX multiplies them by float32(1/s)", "[rope][engines]") {
  auto c = config(4, 100.0, RopePrecision::kF32);
  c.scaling = RopeScaling::kLinear;
  c.factor = 3.0;
  c.max_position_embeddings = 10;
  auto v = engine(c, RopeConvention::kVllm);
  const auto f = compute_frequencies(v);
  CHECK(f.cache_len == 30);
  const auto at = rope_pair_values(v, f, 7);
  CHECK(at.angle[1] == static_cast<float>(7.0f / 3.0f) * 0.1f);  // float32(t/s)·θ, θ = float32(0.1)
  auto m = engine(c, RopeConvention::kMlx);
  const auto g = compute_frequencies(m);
  CHECK(g.cache_len == 0);
  CHECK(rope_pair_values(m, g, 7).angle[0] == static_cast<float>(1.0 / 3.0) * 7.0f);  // θ₀ = exp2(0) = 1
}

TEST_CASE("rope engines: agreement, disagreement with cause, refusal", "[rope][engines]") {
  auto c = small_longrope();
  const auto at16 = compare_engines(c, 16, 1e-6);
  CHECK_FALSE(at16.within());  // vLLM, TensorRT-LLM and MLX use long_factor at 16 tokens
  for (const auto& row : at16.rows) {
    if (row.convention == RopeConvention::kSglang) CHECK(row.verdict == "agrees bitwise");
    if (row.convention == RopeConvention::kMlx) CHECK(row.verdict.find("#707") != std::string::npos);
    if (row.convention == RopeConvention::kMeta) CHECK(row.verdict.rfind("refuses", 0) == 0);
  }
  auto plain = config(8, 10000.0, RopePrecision::kF32);
  plain.max_position_embeddings = 64;
  const auto ok = compare_engines(plain, 64, 1e-3);
  CHECK(ok.within());
}

namespace {

/// DeepSeek-V3's YaRN on a small head: d = 8, b = 10000, s = 40, L = 64; llama.cpp architecture deepseek2.
RopeConfig small_deepseek(std::optional<double> mscale_all_dim) {
  auto c = config(8, 10000.0, RopePrecision::kF32);
  c.scaling = RopeScaling::kYarn;
  c.factor = 40.0;
  c.original_max_position_embeddings = 64;
  c.max_position_embeddings = 64 * 40;
  c.mscale = mscale_all_dim;
  c.mscale_all_dim = mscale_all_dim;
  c.model_type = "deepseek_v3";
  c.ggml_deepseek2 = true;
  return c;
}

const RopeEngineRow& row_of(const RopeEnginesReport& r, RopeConvention conv) {
  for (const auto& row : r.rows)
    if (row.convention == conv) return row;
  throw std::runtime_error("no such row");
}

}  // namespace

TEST_CASE("ggml deepseek2: logit scale = kq_scale's mscale², counted by the ggml verdict like every row's",
          "[rope][engines]") {
  // llama.cpp src/models/deepseek2.cpp @ 07bede6a: mscale = attn_factor·(1 + 0.1·ln s)·(1 + 0.1·log_mul·ln s),
  // kq_scale = mscale²/√d_k, with attn_factor = get_mscale(s, m)/get_mscale(s, m)/(1 + 0.1·ln s) when
  // log_mul = mscale_all_dim = m (llama-context.cpp), so mscale = 1 + 0.1·m·ln 40.
  for (double m : {1.0, 0.707}) {  // DeepSeek-V3/R1, DeepSeek-V2-Lite
    const double mscale = 1.0 + 0.1 * m * std::log(40.0);
    const auto g = compute_frequencies(engine(small_deepseek(m), RopeConvention::kGgml));
    CHECK(g.attention_factor == Approx(1.0).epsilon(1e-6));
    CHECK(g.logit_scale == Approx(mscale * mscale).epsilon(1e-6));  // 1.873854 (V3), 1.589636 (V2-Lite)
    const auto rep = compare_engines(small_deepseek(m), 64, 1e-3);
    const auto& row = row_of(rep, RopeConvention::kGgml);
    CHECK(row.within);
    CHECK(row.verdict.rfind("agrees", 0) == 0);
  }
  CHECK(std::pow(1.0 + 0.1 * std::log(40.0), 2) == Approx(1.873854).epsilon(1e-6));
  // No mscale_all_dim: the converter writes no yarn_log_multiplier (log_mul 0), llama.cpp's
  // attn_factor is get_mscale(40)/(1 + 0.1·ln 40) = 1/(1 + 0.1·ln 40), so cos/sin carry
  // get_mscale(40) and kq_scale mscale = get_mscale(40) again; transformers' DeepSeek code scales
  // the softmax only when mscale_all_dim is set. The ggml row must differ by the logit scale.
  const double plain = 1.0 + 0.1 * std::log(40.0);
  const auto g = compute_frequencies(engine(small_deepseek(std::nullopt), RopeConvention::kGgml));
  CHECK(g.logit_scale == Approx(plain * plain).epsilon(1e-6));
  const auto rep = compare_engines(small_deepseek(std::nullopt), 64, 1e-3);
  CHECK(rep.hf.logit_scale == 1.0);
  const auto& row = row_of(rep, RopeConvention::kGgml);
  CHECK_FALSE(row.within);
  CHECK(row.verdict.find("logit scale 1.87385 where transformers uses 1") != std::string::npos);
  CHECK_FALSE(rep.within());
}

TEST_CASE("ggml verdict names truncate: false (ggml always rounds the YaRN range), not float32 arithmetic",
          "[rope][engines]") {
  // gpt-oss-20b's YaRN: d = 64, b = 150000, s = 32, L = 4096, truncate false.
  RopeConfig c = config(64, 150000.0, RopePrecision::kF32);
  c.scaling = RopeScaling::kYarn;
  c.factor = 32.0;
  c.original_max_position_embeddings = 4096;
  c.max_position_embeddings = 131072;
  c.truncate = false;
  // corr_dim(β) = d·ln(L/(2πβ))/(2·ln b): 8.09 for β = 32, 17.40 for β = 1, rounded by ggml to [8, 18].
  const double pi = 3.14159265358979323846;
  const auto corr = [&](double beta) { return 64.0 * std::log(4096.0 / (2 * pi * beta)) / (2 * std::log(150000.0)); };
  REQUIRE(std::floor(corr(32.0)) == 8.0);
  REQUIRE(std::ceil(corr(1.0)) == 18.0);
  const auto rep = compare_engines(c, 4096, 0.01);
  const auto& row = row_of(rep, RopeConvention::kGgml);
  CHECK_FALSE(row.within);
  CHECK(row.verdict.find("ggml always rounds the YaRN correction range") != std::string::npos);
  CHECK(row.verdict.find("→ [8, 18]") != std::string::npos);
  CHECK(row.verdict.find("truncate: false is not honoured") != std::string::npos);
  CHECK(row.verdict.find("float32") == std::string::npos);
  // With truncate true the same settings agree up to float32 rounding.
  c.truncate = true;
  CHECK(row_of(compare_engines(c, 4096, 0.01), RopeConvention::kGgml).within);
}
