// YaRN as Hugging Face transformers computes it (`_compute_yarn_parameters`, current main):
// NTK-by-parts ramp over the pair index between the correction dims, attention factor from
// get_mscale. Tensor steps in T (float32 for --precision f32), Python scalars in double.
#include "rope_internal.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "posenc/error.hpp"

namespace posenc::rope::detail {

/// factor = rope_parameters["factor"], or (transformers main, `if factor is None`)
/// max_position_embeddings / original_max_position_embeddings; the derivation is recorded.
double yarn_factor(const RopeConfig& c, RopeFrequencies& f) {
  if (c.factor) return *c.factor;
  if (c.max_position_embeddings > 0 && c.original_max_position_embeddings > 0) {
    const double ratio = static_cast<double>(c.max_position_embeddings) / static_cast<double>(c.original_max_position_embeddings);
    f.derived.push_back({"factor", fmt::format("{}", ratio),
                         fmt::format("derived: max_position_embeddings / original_max_position_embeddings = {} / {} "
                                     "(transformers, factor absent)",
                                     c.max_position_embeddings, c.original_max_position_embeddings)});
    return ratio;
  }
  throw Error(fmt::format("{} is required for {} (without it transformers uses max_position_embeddings / "
                          "original_max_position_embeddings, which needs both)",
                          c.absent("factor", "factor", true), c.method_label()));
}

namespace {

double yarn_attention(const RopeConfig& c, RopeFrequencies& f) {
  if (c.attention_factor) return *c.attention_factor;
  const double s = f.factor;
  // `if mscale and mscale_all_dim:` — Python truthiness, so 0 or absent falls back.
  if (truthy(c.mscale) && truthy(c.mscale_all_dim)) {
    const double a = yarn_get_mscale(s, *c.mscale) / yarn_get_mscale(s, *c.mscale_all_dim);
    f.derived.push_back({"attention-factor", fmt::format("{}", a),
                         fmt::format("derived: get_mscale(s, mscale) / get_mscale(s, mscale_all_dim) = "
                                     "get_mscale({}, {}) / get_mscale({}, {})",
                                     s, *c.mscale, s, *c.mscale_all_dim)});
    return a;
  }
  const double a = yarn_get_mscale(s);
  f.derived.push_back({"attention-factor", fmt::format("{}", a),
                       s <= 1.0 ? std::string("derived: 1 (factor ≤ 1)")
                                : fmt::format("derived: 0.1·ln(s) + 1 with s = {} (YaRN; no attention_factor, no "
                                              "mscale pair)",
                                              s)});
  return a;
}

template <class T>
void blend(const RopeConfig& c, RopeFrequencies& f, const YarnRange& r) {
  const std::size_t n = f.pairs();
  double high = r.high;
  if (r.low == high) high += 0.001;  // "Prevent singularity"
  // (arange(d/2, float32) − low) / (high − low): the Python difference first, then cast.
  const T lo = static_cast<T>(r.low);
  const T span = static_cast<T>(high - r.low);
  const T b = static_cast<T>(c.base);
  const T d = static_cast<T>(c.rotary_dim);
  const T s = static_cast<T>(f.factor);
  f.blend.assign(n, 1.0);
  f.regime.assign(n, RopeRegime::kUnchanged);
  for (std::size_t j = 0; j < n; ++j) {
    const T ramp = std::clamp((static_cast<T>(j) - lo) / span, T(0), T(1));
    const T pos = std::pow(b, static_cast<T>(2 * j) / d);
    const T extrap = T(1) / pos;
    const T interp = T(1) / (s * pos);
    const T e = T(1) - ramp;  // inv_freq_extrapolation_factor
    f.inv_freq[j] = static_cast<double>(interp * (T(1) - e) + extrap * e);
    f.blend[j] = static_cast<double>(e);
    f.regime[j] = e == T(1) ? RopeRegime::kUnchanged : e == T(0) ? RopeRegime::kInterpolated : RopeRegime::kBlended;
  }
}

}  // namespace

void hf_yarn(const RopeConfig& c, RopeFrequencies& f) {
  const auto original = required_original(c);
  f.original_length = original;
  f.factor = yarn_factor(c, f);
  if (!(f.factor > 0.0)) throw Error(fmt::format("{} must be > 0 (got {})", c.label("factor"), f.factor));
  f.attention_factor = yarn_attention(c, f);
  YarnRange r;
  // `rope_parameters.get("beta_fast") or 32`: an explicit 0 becomes the default too.
  r.beta_fast = truthy(c.beta_fast) ? *c.beta_fast : 32.0;
  r.beta_slow = truthy(c.beta_slow) ? *c.beta_slow : 1.0;
  r.truncated = c.truncate.value_or(true);
  r.low_raw = yarn_correction_dim(r.beta_fast, c.rotary_dim, c.base, original);
  r.high_raw = yarn_correction_dim(r.beta_slow, c.rotary_dim, c.base, original);
  r.low = r.truncated ? std::floor(r.low_raw) : r.low_raw;
  r.high = r.truncated ? std::ceil(r.high_raw) : r.high_raw;
  r.low = std::max(r.low, 0.0);
  r.high = std::min(r.high, static_cast<double>(c.rotary_dim - 1));  // note: d−1, not d/2−1
  r.low += 0.0, r.high += 0.0;  // ceil(−0.8) is −0: Python's int is 0
  f.yarn = r;
  if (c.precision == RopePrecision::kF32) {
    blend<float>(c, f, r);
  } else {
    blend<double>(c, f, r);
  }
}

}  // namespace posenc::rope::detail
