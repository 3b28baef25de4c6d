// The hf, meta and ggml conventions: where they agree (to float32 rounding) and where they
// differ by design (REFERENCES §2.2, §2.3, §3).
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>

#include "posenc/models/rope_settings.hpp"
#include "posenc/rope/rope.hpp"
#include "posenc/error.hpp"
#include "posenc/schemes/registry.hpp"
#include "rope_test_util.hpp"

using namespace posenc::encodings;
using namespace posenc::rope;
using namespace posenc::schemes;
using rope_test::config;
using rope_test::rel;

namespace {
RopeConfig with(RopeConfig c, RopeConvention conv) {
  c.convention = conv;
  return c;
}
RopeConfig yarn_llama2(RopePrecision p) {
  auto c = config(128, 10000.0, p);
  c.scaling = RopeScaling::kYarn;
  c.factor = 4.0;
  c.original_max_position_embeddings = 4096;
  return c;
}
bool has_warning(const RopeFrequencies& f, const std::string& part) {
  for (const auto& w : f.warnings)
    if (w.find(part) != std::string::npos) return true;
  return false;
}
}  // namespace

TEST_CASE("meta's apply_scaling on Llama-3.1: the published frequencies and 29 / 6 / 29", "[rope][convention]") {
  auto c = config(128, 500000.0, RopePrecision::kF32);
  c.convention = RopeConvention::kMeta;
  c.scaling = RopeScaling::kLlama3;
  c.factor = 8.0;
  c.original_max_position_embeddings = 8192;
  const auto meta = compute_frequencies(c);
  // REFERENCES §2.10 (double precision, from the formula); float32 within 1e-6.
  const std::size_t idx[] = {0, 19, 20, 25, 30, 63};
  const double want[] = {1, 2.0329105981e-02, 1.6560440081e-02, 5.9407303757e-03, 1.3718935678e-03, 3.0689259889e-07};
  for (std::size_t k = 0; k < 6; ++k) CHECK(meta.inv_freq[idx[k]] == Approx(want[k]).epsilon(1e-6));
  CHECK(meta.llama3->unchanged == 29);
  CHECK(meta.llama3->smoothed == 6);
  CHECK(meta.llama3->divided == 29);
}

TEST_CASE("meta has no yarn", "[rope][convention]") {
  CHECK_THROWS_WITH(compute_frequencies(with(yarn_llama2(RopePrecision::kF32), RopeConvention::kMeta)),
                    Catch::Contains("--convention meta supports --scaling none or llama3"));
}

TEST_CASE("ggml's iterated float32 theta_scale drifts slightly from the closed form", "[rope][convention]") {
  const auto c = with(config(128, 10000.0, RopePrecision::kF32), RopeConvention::kGgml);
  const auto gg = compute_frequencies(c);
  double worst = 0;
  for (std::size_t i = 0; i < 64; ++i)  // θ_i = 10000^(-2i/128) = 10^(-i/16), in double
    worst = std::max(worst, std::abs(rel(gg.inv_freq[i], std::pow(10.0, -static_cast<double>(i) / 16.0))));
  CHECK(worst > 1e-6);  // 63 float32 multiplications accumulate more than one rounding
  CHECK(worst < 3e-6);  // (measured 2.2e-6 at pair 63, as docs/rope.md says)
  // In double the iteration is the closed form to rounding.
  const auto g64 = compute_frequencies(with(config(128, 10000.0, RopePrecision::kF64), RopeConvention::kGgml));
  for (std::size_t i = 0; i < 64; ++i)
    CHECK(g64.inv_freq[i] == Approx(std::pow(10.0, -static_cast<double>(i) / 16.0)).epsilon(1e-13));
}

TEST_CASE("ggml angles equal an independent float32 iteration θ_{i+1} = θ_i·theta_scale", "[rope][convention]") {
  // ggml-cpu ggml_rope_cache_init: theta_scale = powf(freq_base, -2.0f/n_dims); θ_0 = p;
  // θ_{i+1} = θ_i·theta_scale, all in float. Written here from that description.
  for (const double base : {10000.0, 500000.0}) {
    for (const std::int64_t d : {64, 128}) {
      const auto c = with(config(d, base, RopePrecision::kF32), RopeConvention::kGgml);
      const auto f = compute_frequencies(c);
      const float theta_scale = std::pow(static_cast<float>(base), -2.0f / static_cast<float>(d));
      for (const std::int64_t p : {1, 1000, 131071}) {
        const auto v = rope_pair_values(c, f, p);
        float theta = static_cast<float>(p);
        for (std::size_t i = 0; i < f.pairs(); ++i) {
          INFO("base " << base << ", d " << d << ", p " << p << ", pair " << i);
          CHECK(v.angle[i] == static_cast<double>(theta));  // exact: the same float operations
          CHECK(v.cos[i] == static_cast<double>(std::cos(theta)));
          if (p == 1) CHECK(f.inv_freq[i] == static_cast<double>(theta));
          theta *= theta_scale;
        }
      }
    }
  }
}

TEST_CASE("ggml yarn: llama.cpp's attn_factor cancels ggml's internal mscale", "[rope][convention]") {
  // Llama-2-like d=128, b=1e4, L=4096, s=4: corr dims 20 and 46 (REFERENCES §2.10).
  for (const auto p : {RopePrecision::kF32, RopePrecision::kF64}) {
    const auto gg = compute_frequencies(with(yarn_llama2(p), RopeConvention::kGgml));
    REQUIRE(gg.yarn);
    CHECK(gg.yarn->low == 20.0);
    CHECK(gg.yarn->high == 46.0);
    const double mscale = 0.1 * std::log(4.0) + 1;  // get_mscale(4) = 1.138629436112
    CHECK(gg.ggml_internal_mscale == Approx(mscale).epsilon(1e-6));
    CHECK(gg.ggml_attn_factor == Approx(1.0).epsilon(1e-6));  // get_mscale(4) / (1 + 0.1 ln 4)
    CHECK(gg.attention_factor == Approx(mscale).epsilon(1e-6));
    CHECK(has_warning(gg, "1+0.1·ln(1/freq_scale)"));
    if (p != RopePrecision::kF64) continue;
    // ramp(i) = 1 − clamp((i − 20)/26, 0, 1) is the weight of θ_i; θ_i/4 gets the rest.
    for (std::size_t i = 0; i < 64; ++i) {
      const double theta = std::pow(10.0, -static_cast<double>(i) / 16.0);
      const double w = 1.0 - std::clamp((static_cast<double>(i) - 20.0) / 26.0, 0.0, 1.0);
      CHECK(gg.inv_freq[i] == Approx(theta / 4 * (1 - w) + theta * w).epsilon(1e-12));
    }
  }
}

TEST_CASE("ggml yarn: llama.cpp assumes mscale = 1, except its deepseek2 architecture", "[rope][convention]") {
  // llama-context.cpp: yarn_attn_factor = get_mscale(s, mscale) / get_mscale(s, mscale_all_dim) with
  // mscale = 1, or mscale = mscale_all_dim for LLM_ARCH_DEEPSEEK2 when that is not 1 (DeepSeek-V2-Lite:
  // mscale = mscale_all_dim = 0.707). transformers uses the config's mscale: 1 for equal values.
  auto c = config(64, 10000.0, RopePrecision::kF32);
  c.scaling = RopeScaling::kYarn;
  c.factor = 40.0;
  c.original_max_position_embeddings = 4096;
  c.mscale = 0.707;
  c.mscale_all_dim = 0.707;
  c.model_type = "deepseek_v2";
  posenc::models::set_llama_arch_facts(c);  // what a config.json reader records from llama.cpp's table
  CHECK(compute_frequencies(c).attention_factor == 1.0);  // transformers
  const auto v2 = compute_frequencies(with(c, RopeConvention::kGgml));
  CHECK(v2.attention_factor == Approx(1.0).epsilon(1e-6));
  CHECK_FALSE(has_warning(v2, "is dropped"));
  c.model_type = "llama";  // any other architecture: mscale 1 against mscale_all_dim 0.707
  posenc::models::set_llama_arch_facts(c);
  const auto other = compute_frequencies(with(c, RopeConvention::kGgml));
  const double l = std::log(40.0);
  CHECK(other.attention_factor == Approx((0.1 * l + 1) / (0.1 * 0.707 * l + 1)).epsilon(1e-6));  // 1.0857
  CHECK(has_warning(other, "the config's mscale 0.707 is dropped"));
  // Without mscale transformers ignores mscale_all_dim (0.1 ln s + 1); llama.cpp does not.
  c.mscale.reset();
  c.mscale_all_dim = 1.0;
  CHECK(compute_frequencies(c).attention_factor == Approx(0.1 * l + 1).epsilon(1e-12));
  const auto no_mscale = compute_frequencies(with(c, RopeConvention::kGgml));
  CHECK(no_mscale.attention_factor == Approx(1.0).epsilon(1e-6));
  CHECK(has_warning(no_mscale, "without a non-zero mscale transformers ignores mscale_all_dim"));
}

TEST_CASE("ggml always rounds the correction range", "[rope][convention]") {
  auto c = config(64, 150000.0, RopePrecision::kF32);
  c.scaling = RopeScaling::kYarn;
  c.factor = 32.0;
  c.original_max_position_embeddings = 4096;
  c.truncate = false;
  const auto hf = compute_frequencies(c);
  const auto gg = compute_frequencies(with(c, RopeConvention::kGgml));
  CHECK(hf.yarn->low == Approx(8.092779115512).epsilon(1e-11));
  CHECK(gg.yarn->low == 8.0);
  CHECK(gg.yarn->high == 18.0);
  CHECK(std::abs(rel(gg.inv_freq[12], hf.inv_freq[12])) > 1e-3);  // a real difference
  CHECK(has_warning(gg, "truncate=false is ignored"));
}

TEST_CASE("low == high: ggml's max(0.001, hi - lo) and transformers' +0.001 agree", "[rope][convention]") {
  // low == high: d=8, L chosen so both correction dims round to the same pair.
  auto c = config(8, 10000.0, RopePrecision::kF64);
  c.scaling = RopeScaling::kYarn;
  c.factor = 2.0;
  c.original_max_position_embeddings = 1;  // corr dims negative → clamped to 0 and 0
  c.truncate = true;
  const auto hf = compute_frequencies(c);
  const auto gg = compute_frequencies(with(c, RopeConvention::kGgml));
  CHECK(hf.yarn->low == 0.0);
  CHECK(hf.yarn->high == 0.0);
  // Pair 0 keeps its frequency, all others are interpolated, in both.
  CHECK(hf.inv_freq[0] == 1.0);
  CHECK(gg.inv_freq[0] == 1.0);
  CHECK(hf.inv_freq[1] == Approx(0.1 / 2).epsilon(1e-12));
  CHECK(gg.inv_freq[1] == Approx(0.1 / 2).epsilon(1e-12));
}

TEST_CASE("beta_fast < beta_slow inverts the range: transformers and ggml disagree", "[rope][convention]") {
  // d=16, b=1e4, L=4096, s=4, beta_fast 1, beta_slow 32. By hand:
  //   corr_dim(n) = 16·ln(4096/(2πn)) / (2 ln 1e4): corr_dim(1) = 5.6284 → low = floor = 5,
  //   corr_dim(32) = 2.6181 → high = ceil = 3, so high < low.
  // transformers: ramp r_j = clamp((j − 5)/(3 − 5), 0, 1) = clamp((5 − j)/2, 0, 1):
  //   j ≤ 3 → r = 1, e = 0: θ/4 (4 interpolated); j = 4 → r = 1/2 (blended); j ≥ 5 → unchanged (3).
  // ggml: y = (i − 5)/max(0.001, 3 − 5) = (i − 5)/0.001, ramp = 1 − clamp(y, 0, 1):
  //   i ≤ 5 → ramp 1: unchanged (6); i ≥ 6 → ramp 0: θ/4 (2 interpolated).
  auto c = config(16, 10000.0, RopePrecision::kF64);
  c.scaling = RopeScaling::kYarn;
  c.factor = 4.0;
  c.original_max_position_embeddings = 4096;
  c.beta_fast = 1.0;
  c.beta_slow = 32.0;
  const auto hf = compute_frequencies(c);
  const auto gg = compute_frequencies(with(c, RopeConvention::kGgml));
  CHECK(hf.yarn->low == 5.0);
  CHECK(hf.yarn->high == 3.0);
  CHECK(gg.ggml_corr_dims[0] == 5.0);
  CHECK(gg.ggml_corr_dims[1] == 3.0);
  const auto count = [](const RopeFrequencies& f, RopeRegime r) { return std::count(f.regime.begin(), f.regime.end(), r); };
  CHECK(count(hf, RopeRegime::kInterpolated) == 4);
  CHECK(count(hf, RopeRegime::kBlended) == 1);
  CHECK(count(hf, RopeRegime::kUnchanged) == 3);
  CHECK(count(gg, RopeRegime::kInterpolated) == 2);
  CHECK(count(gg, RopeRegime::kUnchanged) == 6);
  // θ_i = 10^(-i/2).
  const double hf_want[] = {0.25, 0.31622776601683794 / 4, 0.025, 0.031622776601683794 / 4,
                            0.01 * (0.5 / 4 + 0.5), 0.0031622776601683794, 0.001, 0.00031622776601683794};
  const double gg_want[] = {1, 0.31622776601683794, 0.1, 0.031622776601683794,
                            0.01, 0.0031622776601683794, 0.001 / 4, 0.00031622776601683794 / 4};
  for (std::size_t i = 0; i < 8; ++i) {
    CHECK(hf.inv_freq[i] == Approx(hf_want[i]).epsilon(1e-12));
    CHECK(gg.inv_freq[i] == Approx(gg_want[i]).epsilon(1e-12));
  }
  CHECK(has_warning(hf, "beta_fast 1 < beta_slow 32"));
}

TEST_CASE("ggml llama3 rope_freqs factors give the published Llama-3.1 frequencies", "[rope][convention]") {
  auto c = config(128, 500000.0, RopePrecision::kF64);
  c.scaling = RopeScaling::kLlama3;
  c.factor = 8.0;
  c.original_max_position_embeddings = 8192;
  const auto gg = compute_frequencies(with(c, RopeConvention::kGgml));
  // REFERENCES §2.10, from transformers' formula in double.
  const std::size_t idx[] = {0, 19, 20, 25, 30, 63};
  const double want[] = {1, 2.0329105981e-02, 1.6560440081e-02, 5.9407303757e-03, 1.3718935678e-03, 3.0689259889e-07};
  for (std::size_t k = 0; k < 6; ++k) CHECK(gg.inv_freq[idx[k]] == Approx(want[k]).epsilon(1e-9));
  CHECK(gg.llama3->unchanged == 29);
  CHECK(gg.llama3->smoothed == 6);
  CHECK(gg.llama3->divided == 29);
}

TEST_CASE("longrope: transformers switches by position, llama.cpp by context size", "[rope][convention]") {
  auto c = config(8, 10000.0, RopePrecision::kF32);
  c.scaling = RopeScaling::kLongrope;
  c.original_max_position_embeddings = 4096;
  c.max_position_embeddings = 131072;
  c.short_factor = {1, 1, 1, 1};
  c.long_factor = {2, 2, 2, 2};
  const auto hf = compute_frequencies(c);
  const auto gg = compute_frequencies(with(c, RopeConvention::kGgml));
  CHECK(hf.longrope_list == "short");
  CHECK(gg.longrope_list == "long");
  CHECK(gg.attention_factor == Approx(1.1902380714).epsilon(1e-9));
  CHECK(has_warning(hf, "llama.cpp picks once by context size"));
}

TEST_CASE("ggml has no dynamic NTK and no proportional", "[rope][convention]") {
  auto c = config(64, 10000.0);
  c.convention = RopeConvention::kGgml;
  c.scaling = RopeScaling::kDynamic;
  c.factor = 2.0;
  c.max_position_embeddings = 2048;
  CHECK_THROWS_WITH(compute_frequencies(c), Catch::Contains("--convention ggml has no 'dynamic'"));
}

TEST_CASE("float32 angles at long range are float products t·θ", "[rope][convention]") {
  // transformers: freqs = inv_freq.float() @ position.float(): one float32 product of two floats.
  const auto c32 = config(128, 10000.0, RopePrecision::kF32);
  const auto v32 = rope_pair_values(c32, compute_frequencies(c32), 100000);
  double worst = 0;
  for (std::size_t i = 0; i < 64; ++i) {
    const float theta = 1.0f / std::pow(10000.0f, static_cast<float>(2 * i) / 128.0f);  // HF's float32 inv_freq
    CHECK(v32.angle[i] == static_cast<double>(100000.0f * theta));
    worst = std::max(worst, std::abs(v32.angle[i] - 100000.0 * std::pow(10.0, -static_cast<double>(i) / 16.0)));
  }
  CHECK(worst > 1e-4);  // against the exact angle: about t·ulp (docs/rope.md: up to ~5e-3 rad)
  CHECK(worst < 0.01);
}
