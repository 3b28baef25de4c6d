// Inverse frequencies and attention factors of every method, against values computed outside
// posenc: hand computations, closed forms and the double-precision test vectors of
// /work/shared/REFERENCES.md §2.9–2.10 (re-derived with a 20-line Python script).
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "posenc/rope/rope.hpp"
#include "posenc/error.hpp"
#include "posenc/schemes/registry.hpp"
#include "rope_test_util.hpp"

using namespace posenc::encodings;
using namespace posenc::rope;
using namespace posenc::schemes;
using rope_test::config;

TEST_CASE("default RoPE: theta_i = b^(-2i/d)", "[rope]") {
  const auto f = compute_frequencies(config(8, 10000.0));
  REQUIRE(f.pairs() == 4);
  CHECK(f.inv_freq[0] == 1.0);
  CHECK(f.inv_freq[1] == Approx(0.1).epsilon(1e-15));    // 10000^(-2/8)
  CHECK(f.inv_freq[2] == Approx(0.01).epsilon(1e-15));   // 10000^(-4/8)
  CHECK(f.inv_freq[3] == Approx(0.001).epsilon(1e-15));  // 10000^(-6/8)
  CHECK(f.attention_factor == 1.0);
  for (auto r : f.regime) CHECK(r == RopeRegime::kUnchanged);
}

TEST_CASE("f32 is transformers' float32 inv_freq, f64 the closed form", "[rope]") {
  // transformers: 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim)), all
  // float32 — written here as its float operations; in double θ_i = 10000^(-2i/128) = 10^(-i/16).
  const auto f32 = compute_frequencies(config(128, 10000.0, RopePrecision::kF32));
  const auto f64 = compute_frequencies(config(128, 10000.0, RopePrecision::kF64));
  for (std::size_t i = 0; i < 64; ++i) {
    const float want = 1.0f / std::pow(10000.0f, static_cast<float>(2 * i) / 128.0f);
    CHECK(f32.inv_freq[i] == static_cast<double>(want));
    CHECK(f64.inv_freq[i] == Approx(std::pow(10.0, -static_cast<double>(i) / 16.0)).epsilon(1e-14));
  }
}

TEST_CASE("linear divides every frequency by the factor", "[rope]") {
  auto c = config(16, 10000.0);
  c.scaling = RopeScaling::kLinear;
  c.factor = 4.0;
  const auto f = compute_frequencies(c);
  for (std::size_t i = 0; i < 8; ++i) {
    CHECK(f.inv_freq[i] == Approx(std::pow(10000.0, -2.0 * static_cast<double>(i) / 16.0) / 4.0).epsilon(1e-14));
    CHECK(f.regime[i] == RopeRegime::kInterpolated);
  }
}

TEST_CASE("ntk: b' = b * s^(d/(d-2))", "[rope]") {
  auto c = config(128, 10000.0);
  c.scaling = RopeScaling::kNtk;
  c.factor = 8.0;
  const auto f = compute_frequencies(c);
  CHECK(f.base == Approx(82684.622641).epsilon(1e-10));  // REFERENCES §2.9
  CHECK(f.inv_freq[1] == Approx(std::pow(82684.622641, -2.0 / 128.0)).epsilon(1e-10));
  CHECK(f.regime[0] == RopeRegime::kUnchanged);
  CHECK(f.regime[1] == RopeRegime::kRescaled);
}

TEST_CASE("dynamic NTK at a given sequence length", "[rope]") {
  auto c = config(128, 10000.0);
  c.scaling = RopeScaling::kDynamic;
  c.factor = 2.0;
  c.max_position_embeddings = 2048;
  c.seq_len = 4096;
  const auto f = compute_frequencies(c);
  CHECK(f.base == Approx(30527.736749).epsilon(1e-10));  // REFERENCES §2.9
  // b' = 1e4·(2·4096/2048 − 1)^(128/126) = 1e4·3^(64/63), so θ_i = b'^(−2i/128) = 10^(−i/16)·3^(−i/63):
  // θ_1 = 1e4^(−1/64)·3^(−1/63), θ_63 = 10^(−63/16)/3 (by hand, not through the base).
  CHECK(f.inv_freq[0] == 1.0);
  CHECK(f.inv_freq[1] == Approx(std::pow(1e4, -1.0 / 64) * std::pow(3.0, -1.0 / 63)).epsilon(1e-13));
  CHECK(f.inv_freq[1] == Approx(0.8509942913412162).epsilon(1e-13));
  CHECK(f.inv_freq[63] == Approx(std::pow(10.0, -63.0 / 16) / 3).epsilon(1e-13));
  CHECK(f.inv_freq[63] == Approx(3.849273282298194e-05).epsilon(1e-13));
  c.seq_len = 2048;
  CHECK(compute_frequencies(c).base == 10000.0);
  CHECK(compute_frequencies(c).inv_freq[63] == Approx(std::pow(10.0, -63.0 / 16)).epsilon(1e-13));
  c.seq_len = 0;  // at initialisation transformers uses max_position_embeddings
  CHECK(compute_frequencies(c).base == 10000.0);
  c.max_position_embeddings = 0;
  CHECK_THROWS_WITH(compute_frequencies(c), Catch::Contains("--max-position-embeddings"));
}

namespace {
RopeConfig llama31(RopePrecision p) {
  auto c = config(128, 500000.0, p);
  c.scaling = RopeScaling::kLlama3;
  c.factor = 8.0;
  c.low_freq_factor = 1.0;
  c.high_freq_factor = 4.0;
  c.original_max_position_embeddings = 8192;
  return c;
}
}  // namespace

TEST_CASE("llama3: Llama-3.1 frequencies and the 29/6/29 split", "[rope]") {
  for (auto p : {RopePrecision::kF64, RopePrecision::kF32}) {
    const auto f = compute_frequencies(llama31(p));
    const double tol = p == RopePrecision::kF64 ? 1e-9 : 1e-6;
    // REFERENCES §2.10 (double precision).
    CHECK(f.inv_freq[0] == Approx(1.0).epsilon(tol));
    CHECK(f.inv_freq[19] == Approx(2.0329105981e-02).epsilon(tol));
    CHECK(f.inv_freq[20] == Approx(1.6560440081e-02).epsilon(tol));
    CHECK(f.inv_freq[25] == Approx(5.9407303757e-03).epsilon(tol));
    CHECK(f.inv_freq[30] == Approx(1.3718935678e-03).epsilon(tol));
    CHECK(f.inv_freq[63] == Approx(3.0689259889e-07).epsilon(tol));
    REQUIRE(f.llama3);
    CHECK(f.llama3->unchanged == 29);
    CHECK(f.llama3->smoothed == 6);
    CHECK(f.llama3->divided == 29);
    CHECK(f.regime[28] == RopeRegime::kUnchanged);
    CHECK(f.regime[29] == RopeRegime::kBlended);
    CHECK(f.regime[34] == RopeRegime::kBlended);
    CHECK(f.regime[35] == RopeRegime::kInterpolated);
  }
}

TEST_CASE("llama3 closed forms: high frequencies unchanged, low ones divided by 8", "[rope]") {
  const auto f = compute_frequencies(llama31(RopePrecision::kF64));
  for (std::size_t i = 0; i < 64; ++i) {
    const double theta = std::pow(500000.0, -2.0 * static_cast<double>(i) / 128.0);
    const double wavelen = 2 * std::numbers::pi / theta;
    if (wavelen < 8192.0 / 4) CHECK(f.inv_freq[i] == Approx(theta).epsilon(1e-12));
    if (wavelen > 8192.0 / 1) CHECK(f.inv_freq[i] == Approx(theta / 8).epsilon(1e-12));
  }
}

TEST_CASE("yarn: gpt-oss-like settings without truncation", "[rope]") {
  for (auto p : {RopePrecision::kF64, RopePrecision::kF32}) {
    auto c = config(64, 150000.0, p);
    c.scaling = RopeScaling::kYarn;
    c.factor = 32.0;
    c.original_max_position_embeddings = 4096;
    c.truncate = false;
    const auto f = compute_frequencies(c);
    const double tol = p == RopePrecision::kF64 ? 1e-9 : 1e-6;
    REQUIRE(f.yarn);
    CHECK(f.yarn->low == Approx(8.092779115512).epsilon(1e-11));  // matches vllm-project/vllm#28244's log
    CHECK(f.yarn->high == Approx(17.398024501589).epsilon(1e-11));
    CHECK(f.attention_factor == Approx(1.346573590280).epsilon(1e-11));
    const std::size_t idx[] = {0, 8, 9, 12, 17, 18, 31};
    const double want[] = {1, 5.0813274815e-02, 3.1705696185e-02, 6.7949594897e-03,
                           1.2931870125e-04, 3.8308812374e-05, 3.0235114281e-07};
    for (std::size_t k = 0; k < 7; ++k) CHECK(f.inv_freq[idx[k]] == Approx(want[k]).epsilon(tol));
    CHECK(f.regime[8] == RopeRegime::kUnchanged);
    CHECK(f.regime[9] == RopeRegime::kBlended);
    CHECK(f.regime[18] == RopeRegime::kInterpolated);
  }
}

TEST_CASE("yarn: truncation rounds the correction range (transformers default)", "[rope]") {
  auto c = config(64, 150000.0);
  c.scaling = RopeScaling::kYarn;
  c.factor = 32.0;
  c.original_max_position_embeddings = 4096;
  const auto f = compute_frequencies(c);
  CHECK(f.yarn->low == 8.0);
  CHECK(f.yarn->high == 18.0);
  CHECK(f.inv_freq[9] == Approx(3.1620752275e-02).epsilon(1e-9));
  CHECK(f.inv_freq[12] == Approx(7.0157139105e-03).epsilon(1e-9));
  CHECK(f.inv_freq[17] == Approx(2.2794779580e-04).epsilon(1e-9));
  CHECK(f.blend[13] == Approx(0.5).epsilon(1e-12));  // ramp (13 − 8)/(18 − 8)
}

TEST_CASE("yarn: the correction dims follow corr_dim(n) = d ln(L/(2 pi n)) / (2 ln b)", "[rope]") {
  // Written out here independently of the library: Llama-2-like d=128, b=1e4, L=4096.
  const auto corr = [](double n) { return 128 * std::log(4096 / (n * 2 * std::numbers::pi)) / (2 * std::log(1e4)); };
  auto c = config(128, 10000.0);
  c.scaling = RopeScaling::kYarn;
  c.factor = 4.0;
  c.original_max_position_embeddings = 4096;
  const auto f = compute_frequencies(c);
  CHECK(f.yarn->low_raw == Approx(corr(32)).epsilon(1e-12));
  CHECK(f.yarn->high_raw == Approx(corr(1)).epsilon(1e-12));
  CHECK(f.yarn->low == 20.0);  // REFERENCES §2.10
  CHECK(f.yarn->high == 46.0);
  CHECK(f.attention_factor == Approx(1.138629436112).epsilon(1e-11));
  CHECK(yarn_correction_dim(32, 128, 1e4, 4096) == Approx(20.944481620636).epsilon(1e-11));
}

TEST_CASE("yarn attention factor: explicit, mscale ratio, Python truthiness", "[rope]") {
  auto c = config(64, 10000.0);
  c.scaling = RopeScaling::kYarn;
  c.factor = 40.0;
  c.original_max_position_embeddings = 4096;
  c.mscale = 1.0;
  c.mscale_all_dim = 1.0;
  CHECK(compute_frequencies(c).attention_factor == 1.0);  // DeepSeek-V3: get_mscale ratio = 1
  c.mscale_all_dim = 0.0;                                 // falsy: falls back to 0.1 ln s + 1
  CHECK(compute_frequencies(c).attention_factor == Approx(1.368887945).epsilon(1e-9));
  c.mscale = 0.707;
  c.mscale_all_dim = 1.0;
  CHECK(compute_frequencies(c).attention_factor ==
        Approx((0.1 * 0.707 * std::log(40.0) + 1) / (0.1 * std::log(40.0) + 1)).epsilon(1e-12));
  c.attention_factor = 1.25;
  CHECK(compute_frequencies(c).attention_factor == 1.25);
}

TEST_CASE("yarn: beta_fast = 0 becomes 32 in transformers", "[rope]") {
  auto c = config(128, 10000.0);
  c.scaling = RopeScaling::kYarn;
  c.factor = 4.0;
  c.original_max_position_embeddings = 4096;
  c.beta_fast = 0.0;
  const auto f = compute_frequencies(c);
  CHECK(f.yarn->beta_fast == 32.0);
  CHECK(f.yarn->low == 20.0);
  bool warned = false;
  for (const auto& w : f.warnings) warned = warned || w.find("beta_fast = 0") != std::string::npos;
  CHECK(warned);
}

TEST_CASE("longrope: attention factor and list choice", "[rope]") {
  auto c = config(8, 10000.0);
  c.scaling = RopeScaling::kLongrope;
  c.original_max_position_embeddings = 4096;
  c.max_position_embeddings = 131072;  // factor = 32 from the ratio
  c.short_factor = {1, 2, 3, 4};
  c.long_factor = {2, 4, 8, 16};
  auto f = compute_frequencies(c);
  CHECK(f.attention_factor == Approx(1.1902380714).epsilon(1e-10));  // REFERENCES §2.10
  CHECK(f.longrope_list == "short");
  CHECK(f.inv_freq[2] == Approx(0.01 / 3).epsilon(1e-14));  // θ_2 / short[2]
  c.seq_len = 4097;
  f = compute_frequencies(c);
  CHECK(f.longrope_list == "long");
  CHECK(f.inv_freq[3] == Approx(0.001 / 16).epsilon(1e-14));
}

TEST_CASE("proportional zeroes the low-frequency tail over the whole head", "[rope]") {
  auto c = config(16, 10000.0);
  c.scaling = RopeScaling::kProportional;
  c.partial_rotary_factor = 0.25;  // rope_angles = int(0.25 * 16 // 2) = 2
  finalize_rope_config(c);
  const auto f = compute_frequencies(c);
  REQUIRE(f.pairs() == 8);
  CHECK(f.inv_freq[1] == Approx(std::pow(10000.0, -2.0 / 16.0)).epsilon(1e-14));  // exponent over head_dim
  CHECK(f.inv_freq[2] == 0.0);
  CHECK(f.regime[7] == RopeRegime::kZero);
  // The unscaled frequencies of the removed pairs stay in inv_freq_original: 10000^(−2i/16) = 10^(−i/2).
  for (std::size_t i = 0; i < 8; ++i)
    CHECK(f.inv_freq_original[i] == Approx(std::pow(10.0, -static_cast<double>(i) / 2)).epsilon(1e-14));
  CHECK(std::count(f.regime.begin(), f.regime.end(), RopeRegime::kZero) == 6);
  CHECK(std::count(f.regime.begin(), f.regime.end(), RopeRegime::kUnchanged) == 2);
}

TEST_CASE("proportional with factor 2: the rotating pairs are divided, the tail stays 0", "[rope]") {
  for (const auto p : {RopePrecision::kF64, RopePrecision::kF32}) {
    auto c = config(16, 10000.0, p);
    c.scaling = RopeScaling::kProportional;
    c.partial_rotary_factor = 0.25;  // rope_angles = int(0.25 · 16 // 2) = 2
    c.factor = 2.0;
    finalize_rope_config(c);
    const auto f = compute_frequencies(c);
    const double tol = p == RopePrecision::kF64 ? 1e-15 : 1e-7;
    REQUIRE(f.pairs() == 8);
    CHECK(f.inv_freq[0] == Approx(0.5).epsilon(tol));                  // 1 / 2
    CHECK(f.inv_freq[1] == Approx(0.15811388300841897).epsilon(tol));  // 10000^(−2/16) / 2 = 10^(−1/2) / 2
    for (std::size_t i = 2; i < 8; ++i) CHECK(f.inv_freq[i] == 0.0);
    CHECK(f.regime[0] == RopeRegime::kInterpolated);
    CHECK(f.regime[2] == RopeRegime::kZero);
  }
}

TEST_CASE("missing required settings name the flag", "[rope]") {
  auto c = config(64, 10000.0);
  c.scaling = RopeScaling::kLinear;
  CHECK_THROWS_WITH(compute_frequencies(c), Catch::Contains("--factor is required for --scaling linear"));
  c.scaling = RopeScaling::kLlama3;
  c.factor = 8.0;
  CHECK_THROWS_WITH(compute_frequencies(c), Catch::Contains("--original-max-position-embeddings"));
  c.base = 0.5;
  CHECK_THROWS_AS(compute_frequencies(c), posenc::Error);
}

TEST_CASE("degenerate original lengths: longrope refuses L = 1, yarn clamps to pair 0", "[rope]") {
  auto c = config(8, 10000.0);
  c.scaling = RopeScaling::kLongrope;
  c.original_max_position_embeddings = 1;  // ln L = 0: √(1 + ln s / ln L) is infinite
  c.max_position_embeddings = 100;
  c.short_factor = c.long_factor = {1, 1, 1, 1};
  CHECK_THROWS_WITH(compute_frequencies(c), Catch::StartsWith("--original-max-position-embeddings = 1 leaves longrope's "
                                                              "attention factor"));
  c.convention = RopeConvention::kGgml;
  CHECK_THROWS_WITH(compute_frequencies(c), Catch::Contains("needs an original length ≥ 2"));
  // yarn at L = 1: corr_dim(1) = 8·ln(1/2π)/(2 ln 1e4) = −0.798 → ceil is 0 (Python int), not −0.
  auto y = config(8, 10000.0);
  y.scaling = RopeScaling::kYarn;
  y.factor = 4.0;
  y.original_max_position_embeddings = 1;
  const auto f = compute_frequencies(y);
  CHECK(f.yarn->high == 0.0);
  CHECK_FALSE(std::signbit(f.yarn->high));
}

TEST_CASE("a scaled base that overflows to inf leaves only pair 0 rotating, with a warning", "[rope]") {
  // Python: 1e300 · (1e300)^(8/6) = inf; inf ** 0 = 1, inf ** x = inf for x > 0, so θ = 1, 0, 0, 0.
  auto c = config(8, 1e300);
  c.scaling = RopeScaling::kNtk;
  c.factor = 1e300;
  const auto f = compute_frequencies(c);
  CHECK(std::isinf(f.base));
  CHECK(f.inv_freq == std::vector<double>{1, 0, 0, 0});
  bool warned = false;
  for (const auto& w : f.warnings)
    warned = warned || w.starts_with("scaled inv_freq of 3 pairs (1 … 3) underflow to 0 in double with the scaled base inf "
                                     "(--base 1e+300, --factor 1e+300)");
  CHECK(warned);
}
