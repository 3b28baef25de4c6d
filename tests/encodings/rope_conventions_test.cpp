// The hf, meta and ggml conventions: where they agree (to float32 rounding) and where they
// differ by design (REFERENCES §2.2, §2.3, §3).
#include <catch2/catch.hpp>
#include <cmath>

#include "posenc/encodings/rope.hpp"
#include "posenc/error.hpp"
#include "rope_test_util.hpp"

using namespace posenc::encodings;
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
double max_rel(const std::vector<double>& a, const std::vector<double>& b) {
  REQUIRE(a.size() == b.size());
  REQUIRE(!a.empty());
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(rel(a[i], b[i])));
  return m;
}
bool has_warning(const RopeFrequencies& f, const std::string& part) {
  for (const auto& w : f.warnings)
    if (w.find(part) != std::string::npos) return true;
  return false;
}
}  // namespace

TEST_CASE("meta's apply_scaling equals transformers' llama3 on Llama-3.1", "[rope][convention]") {
  auto c = config(128, 500000.0, RopePrecision::kF32);
  c.scaling = RopeScaling::kLlama3;
  c.factor = 8.0;
  c.original_max_position_embeddings = 8192;
  const auto hf = compute_frequencies(c);
  const auto meta = compute_frequencies(with(c, RopeConvention::kMeta));
  CHECK(meta.inv_freq == hf.inv_freq);
  CHECK(meta.llama3->smoothed == 6);
}

TEST_CASE("meta has no yarn", "[rope][convention]") {
  CHECK_THROWS_WITH(compute_frequencies(with(yarn_llama2(RopePrecision::kF32), RopeConvention::kMeta)),
                    Catch::Contains("--convention meta supports --scaling none or llama3"));
}

TEST_CASE("ggml's iterated float32 theta_scale drifts slightly from pow", "[rope][convention]") {
  const auto c = config(128, 10000.0, RopePrecision::kF32);
  const auto hf = compute_frequencies(c);
  const auto gg = compute_frequencies(with(c, RopeConvention::kGgml));
  const double d = max_rel(gg.inv_freq, hf.inv_freq);
  CHECK(d > 0.0);   // 63 float32 multiplications accumulate rounding
  CHECK(d < 1e-5);  // but stay small
  // In double the two recipes agree to rounding.
  const auto c64 = config(128, 10000.0, RopePrecision::kF64);
  CHECK(max_rel(compute_frequencies(with(c64, RopeConvention::kGgml)).inv_freq, compute_frequencies(c64).inv_freq) <
        1e-13);
}

TEST_CASE("ggml angles start from the position and multiply by theta_scale", "[rope][convention]") {
  const auto c = with(config(64, 10000.0, RopePrecision::kF64), RopeConvention::kGgml);
  const auto f = compute_frequencies(c);
  const auto v = rope_pair_values(c, f, 1000);
  for (std::size_t i = 0; i < f.pairs(); ++i)
    CHECK(v.angle[i] == Approx(1000.0 * std::pow(10000.0, -2.0 * static_cast<double>(i) / 64.0)).epsilon(1e-12));
}

TEST_CASE("ggml yarn matches transformers' after llama.cpp cancels ggml's internal mscale", "[rope][convention]") {
  const auto c = yarn_llama2(RopePrecision::kF32);
  const auto hf = compute_frequencies(c);
  const auto gg = compute_frequencies(with(c, RopeConvention::kGgml));
  REQUIRE(gg.yarn);
  CHECK(gg.yarn->low == 20.0);
  CHECK(gg.yarn->high == 46.0);
  CHECK(gg.ggml_internal_mscale == Approx(1 + 0.1 * std::log(4.0)).epsilon(1e-6));
  CHECK(gg.attention_factor == Approx(hf.attention_factor).epsilon(1e-6));
  CHECK(max_rel(gg.inv_freq, hf.inv_freq) < 1e-5);
  CHECK(has_warning(gg, "1+0.1·ln(1/freq_scale)"));
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

TEST_CASE("ggml's 0.001 guard is max(0.001, hi - lo), transformers adds 0.001 only when equal",
          "[rope][convention]") {
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

TEST_CASE("ggml llama3 rope_freqs factors reproduce transformers' frequencies", "[rope][convention]") {
  auto c = config(128, 500000.0, RopePrecision::kF32);
  c.scaling = RopeScaling::kLlama3;
  c.factor = 8.0;
  c.original_max_position_embeddings = 8192;
  const auto hf = compute_frequencies(c);
  const auto gg = compute_frequencies(with(c, RopeConvention::kGgml));
  CHECK(max_rel(gg.inv_freq, hf.inv_freq) < 1e-5);
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

TEST_CASE("float32 angles at long range differ from double by about t·ulp", "[rope][convention]") {
  const auto c32 = config(128, 10000.0, RopePrecision::kF32);
  const auto c64 = config(128, 10000.0, RopePrecision::kF64);
  const auto v32 = rope_pair_values(c32, compute_frequencies(c32), 100000);
  const auto v64 = rope_pair_values(c64, compute_frequencies(c64), 100000);
  CHECK(v32.angle[0] == 100000.0);  // θ_0 = 1 exactly
  double worst = 0;
  for (std::size_t i = 0; i < 64; ++i) worst = std::max(worst, std::abs(v32.angle[i] - v64.angle[i]));
  CHECK(worst > 1e-4);
  CHECK(worst < 0.05);
}
