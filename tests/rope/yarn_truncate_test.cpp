// Issue 26 item 17: the YaRN 'truncate' warning fired on every config without the key, also
// where rounding the correction range or not gives the same frequencies. It is said only when
// truncate false would change inv_freq, with how much. Expected values from transformers'
// _compute_yarn_parameters (modeling_rope_utils.py): low = floor(corr_dim(beta_fast)),
// high = ceil(corr_dim(beta_slow)) when truncate (default true), else unrounded; clamped to
// [0, dim − 1]; inv_freq_j = interp·(1 − e) + extrap·e with e = 1 − clamp((j − low)/(high − low)).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <string>

#include "posenc/models/rope_settings.hpp"
#include "posenc/rope/rope_config.hpp"
#include "test_data.hpp"

using namespace posenc::rope;

namespace {

bool truncate_warned(const RopeFrequencies& f) {
  return std::any_of(f.warnings.begin(), f.warnings.end(),
                     [](const std::string& w) { return w.find("'truncate' not set") != std::string::npos; });
}

RopeConfig yarn_flags(double factor, std::int64_t dim, double base, std::int64_t original) {
  RopeConfig c;
  c.head_dim = c.rotary_dim = dim;
  c.base = base;
  c.scaling = RopeScaling::kYarn;
  c.factor = factor;
  c.original_max_position_embeddings = original;
  c.max_position_embeddings = original;
  finalize_rope_config(c);
  return c;
}

}  // namespace

TEST_CASE("yarn: no truncate warning where truncate changes nothing", "[rope][yarn]") {
  // factor 1: interp = extrap, so the ramp (rounded or not) leaves every frequency as it is (up
  // to float32 rounding of interp·(1 − e) + extrap·e: a few ulps, below the 1e-6 threshold).
  CHECK_FALSE(truncate_warned(compute_frequencies(yarn_flags(1.0, 128, 10000.0, 4096))));
  // d = 8, base 2, L = 100: corr_dim(32) = 8 ln(100/(64π))/(2 ln 2) = −4.03 and corr_dim(1) =
  // 8 ln(100/(2π))/(2 ln 2) = 15.97: clamped to [0, 7] whether rounded or not.
  CHECK_FALSE(truncate_warned(compute_frequencies(yarn_flags(4.0, 8, 2.0, 100))));
}

TEST_CASE("yarn: the truncate warning says how much truncate false would change", "[rope][yarn]") {
  // Qwen2.5-7B's documented block (factor 4, original 32768, base 1e6, d 128): corr_dim(32) =
  // 23.596, corr_dim(1) = 39.651; rounded 23 .. 40. inv_freq ∝ 1/4 + 3/4·e, so the relative
  // change at pair j is |e_unrounded − e_rounded|·(3/4)/(1/4 + 3/4·e_rounded): largest at j = 39.
  const RopeConfig c = posenc::models::read_hf_config(posenc::test::data_path("configs/qwen2.5-7b-yarn.json"));
  RopeConfig r = c;
  finalize_rope_config(r);
  const double lu = yarn_correction_dim(32, 128, 1e6, 32768), hu = yarn_correction_dim(1, 128, 1e6, 32768);
  const double lr = std::floor(lu), hr = std::ceil(hu);
  double worst = 0;
  std::size_t at = 0;
  for (std::size_t j = 0; j < 64; ++j) {
    const double x = static_cast<double>(j);
    const double er = 1 - std::clamp((x - lr) / (hr - lr), 0.0, 1.0), eu = 1 - std::clamp((x - lu) / (hu - lu), 0.0, 1.0);
    const double rel = std::abs(eu - er) * 0.75 / (0.25 + 0.75 * er);
    if (rel > worst) worst = rel, at = j;
  }
  CHECK(at == 39);
  const auto f = compute_frequencies(r);
  const std::string want = fmt::format(
      "yarn: 'truncate' not set; transformers rounds the correction range (floor/ceil, default true); unrounded "
      "(gpt-oss sets truncate false; KerasHub and TVM never round) inv_freq would differ by up to {:.3g} relative "
      "(pair {}); ggml always rounds",
      worst, at);
  CHECK(std::count(f.warnings.begin(), f.warnings.end(), want) == 1);
  // An explicit truncate, either way, is not warned about.
  r.truncate = true;
  CHECK_FALSE(truncate_warned(compute_frequencies(r)));
  r.truncate = false;
  CHECK_FALSE(truncate_warned(compute_frequencies(r)));
}
