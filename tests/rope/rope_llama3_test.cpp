// llama3 scaling with low_freq_factor == high_freq_factor (Llama 4 Scout publishes 1 and 1):
// transformers accepts it (its validator only warns for high <= low) and every pair is either
// kept or divided; only a pair exactly at the single band wavelength would divide by zero.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <string>

#include "posenc/rope/rope.hpp"
#include "posenc/models/rope_settings.hpp"
#include "posenc/rope/rope_config.hpp"
#include "posenc/error.hpp"
#include "posenc/schemes/registry.hpp"
#include "rope_test_util.hpp"

using namespace posenc::encodings;
using namespace posenc::rope;
using namespace posenc::schemes;
using namespace posenc::models;

namespace {

/// Llama-4-Scout-17B-16E text_config: head_dim 128, rope_theta 500000, rope_scaling
/// {factor 16, low_freq_factor 1, high_freq_factor 1, original_max_position_embeddings 8192}.
RopeConfig scout(RopePrecision p, RopeConvention conv = RopeConvention::kHf) {
  auto c = rope_test::config(128, 500000.0, p);
  c.scaling = RopeScaling::kLlama3;
  c.factor = 16.0;
  c.low_freq_factor = 1.0;
  c.high_freq_factor = 1.0;
  c.original_max_position_embeddings = 8192;
  c.convention = conv;
  return c;
}

}  // namespace

TEST_CASE("llama3 with equal low and high factors: a hard step at wavelength L/low", "[rope][llama3]") {
  for (auto conv : {RopeConvention::kHf, RopeConvention::kMeta, RopeConvention::kGgml})
    for (auto p : {RopePrecision::kF64, RopePrecision::kF32}) {
      CAPTURE(to_string(conv), to_string(p));
      const auto f = compute_frequencies(scout(p, conv));
      // Hand computation in double: θ_i = 500000^(−i/64), λ_i = 2π/θ_i; λ_i < 8192 ⟺
      // i < 64·ln(8192/2π)/ln(500000) = 34.98, so pairs 0..34 keep θ and 35..63 get θ/16.
      // The nearest pair to the step (35, λ = 8218.7) is 0.3 % away: float32 cannot move it.
      // ggml iterates θ_{i+1} = θ_i·θ_scale in float32 (≤ 63 roundings): 1e-5.
      const double tol = p == RopePrecision::kF64 ? 1e-12 : 1e-6;
      std::size_t kept = 0, divided = 0;
      for (std::size_t i = 0; i < 64; ++i) {
        const double theta = std::pow(500000.0, -2.0 * static_cast<double>(i) / 128.0);
        const bool keep = 2 * std::numbers::pi / theta < 8192.0;
        (keep ? kept : divided)++;
        CHECK(f.inv_freq[i] == Approx(keep ? theta : theta / 16.0).epsilon(conv == RopeConvention::kGgml ? 1e-5 : tol));
        CHECK(f.regime[i] == (keep ? RopeRegime::kUnchanged : RopeRegime::kInterpolated));
      }
      CHECK(kept == 35);
      CHECK(divided == 29);
      REQUIRE(f.llama3);
      CHECK(f.llama3->unchanged == 35);
      CHECK(f.llama3->smoothed == 0);
      CHECK(f.llama3->divided == 29);
    }
}

TEST_CASE("llama3 with equal factors is accepted from flags and a config, with a note", "[rope][llama3]") {
  posenc::ParamMap p(rope_param_specs());
  p.set("dim", std::int64_t{128});
  p.set("base", 500000.0);
  p.set("scaling", std::string("llama3"));
  p.set("factor", 16.0);
  p.set("original-max-position-embeddings", std::int64_t{8192});
  p.set("low-freq-factor", 1.0);
  p.set("high-freq-factor", 1.0);
  const auto c = resolve_rope_config(p);  // refused before: "must be greater than"
  bool noted = false;
  for (const auto& n : c.notes) noted = noted || n.find("no blended band") != std::string::npos;
  CHECK(noted);
  CHECK(compute_frequencies(c).llama3->smoothed == 0);
  RopeConfig file = parse_hf_config(R"({"head_dim": 128, "rope_theta": 500000.0, "max_position_embeddings": 10485760,
      "rope_scaling": {"factor": 16.0, "high_freq_factor": 1.0, "low_freq_factor": 1.0,
                       "original_max_position_embeddings": 8192, "rope_type": "llama3"}})");
  finalize_rope_config(file);
  CHECK(compute_frequencies(file).llama3->divided == 29);
  // high < low stays refused: transformers' torch.where order and meta-llama's if-chain then
  // give different bands.
  p.set("low-freq-factor", 2.0);
  CHECK_THROWS_WITH(resolve_rope_config(p), "--high-freq-factor must be at least --low-freq-factor (got 1 and 2)");
}

TEST_CASE("llama3 with equal factors and a pair exactly at L/low is refused", "[rope][llama3]") {
  // Pair 0 has θ = 1, λ = 2π; with L/low = float32(2π) its wavelength sits exactly on the
  // step, where transformers computes (L/λ − low)/(high − low) = 0/0 (NaN) and meta asserts.
  const double wl = static_cast<double>(static_cast<float>(2 * std::numbers::pi));
  for (auto conv : {RopeConvention::kHf, RopeConvention::kGgml}) {
    auto c = scout(RopePrecision::kF32, conv);
    c.low_freq_factor = c.high_freq_factor = 8192.0 / wl;
    CHECK_THROWS_WITH(compute_frequencies(c), Catch::Contains("has no blended band, but pair 0's wavelength is exactly"));
  }
}
