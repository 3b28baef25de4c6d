// compute_frequencies: dispatch by convention, shared requirements, per-position values.
#include "posenc/rope/rope.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "posenc/error.hpp"
#include "posenc/fast_math.hpp"
#include "rope_internal.hpp"

namespace posenc::rope {
namespace detail {

std::size_t pair_count(const RopeConfig& c) {
  const auto width = c.scaling == RopeScaling::kProportional ? c.head_dim : c.rotary_dim;
  return static_cast<std::size_t>(width / 2);
}

std::string either(const RopeConfig& c, SettingName a, SettingName b) {
  if (c.config_file.empty()) return fmt::format("--{} (or --{})", a.flag, b.flag);
  return fmt::format("{}: {} or {} (or --{})", c.config_file, c.field(a.key, a.in_scaling), c.field(b.key, b.in_scaling),
                     a.flag);
}

std::string must_exceed(const RopeConfig& c, const char* hi, double hi_value, const char* lo, double lo_value) {
  const std::string a = c.label(hi);
  std::string b = c.label(lo);
  const std::string file = c.config_file + ": ";
  if (!c.config_file.empty() && a.starts_with(file) && b.starts_with(file)) b = b.substr(file.size());
  return fmt::format("{} must be at least {} (got {} and {})", a, b, hi_value, lo_value);
}

std::size_t proportional_angles(const RopeConfig& c) {
  return static_cast<std::size_t>(std::floor(c.partial_rotary_factor * static_cast<double>(c.head_dim) / 2.0));
}

double required_factor(const RopeConfig& c) {
  if (c.factor) return *c.factor;
  throw Error(fmt::format("{} is required for {}", c.absent("factor", "factor", true), c.method_label()));
}

std::int64_t required_original(const RopeConfig& c, bool fallback_to_max) {
  if (c.original_max_position_embeddings > 0) return c.original_max_position_embeddings;
  if (fallback_to_max && c.max_position_embeddings > 0) return c.max_position_embeddings;
  if (!fallback_to_max)  // llama3: the length decides the bands, and implementations default it differently
    throw Error(fmt::format("{} is required for {} (transformers 4.x refuses a config without it; v5 falls back to "
                            "max_position_embeddings, Meta and llama.cpp assume 8192, which give other bands)",
                            c.absent("original-max-position-embeddings", "original_max_position_embeddings", true),
                            c.method_label()));
  throw Error(fmt::format("{} is required for {}",
                          either(c, {"original-max-position-embeddings", "original_max_position_embeddings", true},
                                 {"max-position-embeddings", "max_position_embeddings", false}),
                          c.method_label()));
}

void classify_remaining(RopeFrequencies& f) {
  const std::size_t n = f.pairs();
  f.regime.resize(n, RopeRegime::kRescaled);
  f.blend.resize(n, std::numeric_limits<double>::quiet_NaN());
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isnan(f.blend[i])) continue;  // set by the method
    const double orig = f.inv_freq_original[i];
    const double now = f.inv_freq[i];
    if (now == 0.0) {
      f.regime[i] = RopeRegime::kZero;
    } else if (now == orig) {
      f.regime[i] = RopeRegime::kUnchanged;
      f.blend[i] = 1.0;
    } else if (f.factor != 1.0 && std::abs(now * f.factor - orig) <= 1e-6 * orig) {
      f.regime[i] = RopeRegime::kInterpolated;
      f.blend[i] = 0.0;
    } else {
      f.regime[i] = RopeRegime::kRescaled;
    }
  }
}

}  // namespace detail

double yarn_correction_dim(double n_rot, std::int64_t dim, double base, std::int64_t length) {
  return static_cast<double>(dim) * std::log(static_cast<double>(length) / (n_rot * 2.0 * detail::kPi)) /
         (2.0 * std::log(base));
}

double yarn_get_mscale(double scale, double mscale) {
  if (scale <= 1.0) return 1.0;
  return 0.1 * mscale * std::log(scale) + 1.0;
}

RopeFrequencies compute_frequencies(const RopeConfig& c) {
  if (c.head_dim < 2 || c.rotary_dim < 2 || c.rotary_dim % 2 != 0 || c.rotary_dim > c.head_dim)
    throw Error(fmt::format("rotary dimension must be even and within [2, {}] (got {})", c.head_dim, c.rotary_dim));
  if (!(c.base > 1.0) || !std::isfinite(c.base))
    throw Error(fmt::format("{} must be a finite number > 1 (got {})", c.label("base"), c.base));
  RopeFrequencies f;
  f.base = c.base;
  f.original_length = c.original_length();
  switch (c.convention) {
    case RopeConvention::kHf: detail::hf_frequencies(c, f); break;
    case RopeConvention::kMeta: detail::meta_frequencies(c, f); break;
    case RopeConvention::kGgml: detail::ggml_frequencies(c, f); break;
    default: detail::engine_frequencies(c, f); break;
  }
  if (c.convention == RopeConvention::kHf && c.scaling == RopeScaling::kYarn &&
      (c.model_type == "deepseek_v2" || c.model_type == "deepseek_v3" || c.model_type == "deepseek_v32" ||
       c.model_type == "kimi_k2" || c.model_type == "glm4_moe_lite") &&
      detail::truthy(c.mscale_all_dim)) {
    // modeling_deepseek_v3.py: `if mscale_all_dim: self.scaling *= mscale²`, mscale = get_mscale(s, mscale_all_dim).
    // Kimi-K2 (model_type kimi_k2) runs on DeepSeek-V3's code; DeepSeek-V3.2's attention does the same
    // (modeling_deepseek_v32.py @decba1d2), and so does GLM-4.7-Flash's (modeling_glm4_moe_lite.py
    // yarn_apply_mscale @decba1d2).
    const double m = yarn_get_mscale(f.factor, *c.mscale_all_dim);
    f.logit_scale = m * m;
  }
  detail::classify_remaining(f);
  detail::check_values(c, f);
  detail::add_warnings(c, f);
  return f;
}

RopePairValues rope_pair_values(const RopeConfig& c, const RopeFrequencies& f, std::int64_t position) {
  if (c.convention == RopeConvention::kGgml) return detail::ggml_pair_values(c, f, position);
  if (is_engine_convention(c.convention)) return detail::engine_pair_values(c, f, position);
  const std::size_t n = f.pairs();
  RopePairValues v{std::vector<double>(n), std::vector<double>(n), std::vector<double>(n)};
  const double att = c.apply_attention_factor ? f.attention_factor : 1.0;
  if (c.precision == RopePrecision::kF32) {
    // HF: freqs = inv_freq.float() @ position_ids.float() (a float32 product), then
    // cos(emb) * attention_scaling in float32. Meta: torch.outer(t, freqs) in float32.
    // cos and sin of the float32 angle are taken in double and rounded (sincos_f32_exact: the
    // same bits as std::cos/std::sin, vectorised).
    const float t = static_cast<float>(position);
    const float a = static_cast<float>(att);
    constexpr std::size_t kChunk = 256;
    float angle[kChunk], cs[kChunk], sn[kChunk];
    for (std::size_t first = 0; first < n; first += kChunk) {
      const std::size_t m = std::min(kChunk, n - first);
      for (std::size_t i = 0; i < m; ++i) angle[i] = t * static_cast<float>(f.inv_freq[first + i]);
      sincos_f32_exact(angle, m, sn, cs);
      for (std::size_t i = 0; i < m; ++i) {
        v.angle[first + i] = angle[i];
        v.cos[first + i] = static_cast<float>(cs[i] * a);
        v.sin[first + i] = static_cast<float>(sn[i] * a);
      }
    }
  } else {
    const double t = static_cast<double>(position);
    for (std::size_t i = 0; i < n; ++i) {
      v.angle[i] = t * f.inv_freq[i];
      v.cos[i] = std::cos(v.angle[i]) * att;
      v.sin[i] = std::sin(v.angle[i]) * att;
    }
  }
  return v;
}

}  // namespace posenc::rope
