// ggml / llama.cpp RoPE (ggml-cpu ops.cpp `ggml_rope_cache_init`, `rope_yarn`,
// `ggml_rope_yarn_corr_dims`; llama.cpp context setup and convert_hf_to_gguf.py).
// Angles are built by iterating θ ← θ·theta_scale from θ = position, in T (float for f32).
#include "rope_internal.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "posenc/error.hpp"
#include "posenc/rope/gguf_source.hpp"

namespace posenc::rope::detail {
namespace {

template <class T>
T corr_dim(std::int64_t n_dims, std::int64_t n_ctx_orig, T n_rot, T base) {
  // n_dims * logf(n_ctx_orig / (n_rot * 2 * (float)M_PI)) / (2 * logf(base))
  return static_cast<T>(n_dims) * std::log(static_cast<T>(n_ctx_orig) / (n_rot * T(2) * static_cast<T>(kPi))) /
         (T(2) * std::log(base));
}

template <class T>
T get_mscale(T scale, T mscale) {
  return scale <= T(1) ? T(1) : T(0.1) * mscale * std::log(scale) + T(1);
}

/// Per-pair values at one position; `position = 1` gives the effective inverse frequencies.
template <class T>
RopePairValues values_ggml(const RopeConfig& c, const RopeFrequencies& f, std::int64_t position) {
  const auto n = static_cast<std::size_t>(c.rotary_dim / 2);
  RopePairValues v{std::vector<double>(n), std::vector<double>(n), std::vector<double>(n)};
  const T theta_scale = static_cast<T>(f.ggml_theta_scale);
  const T freq_scale = static_cast<T>(f.ggml_freq_scale);
  const T ext = static_cast<T>(f.ggml_ext_factor);
  const T lo = static_cast<T>(f.ggml_corr_dims[0]);
  const T hi = static_cast<T>(f.ggml_corr_dims[1]);
  T mscale = static_cast<T>(f.ggml_attn_factor);
  if (ext != T(0)) mscale *= static_cast<T>(f.ggml_internal_mscale);
  if (!c.apply_attention_factor) mscale = T(1);
  T theta = static_cast<T>(position);
  for (std::size_t i = 0; i < n; ++i) {
    const T ff = f.ggml_freq_factors.empty() ? T(1) : static_cast<T>(f.ggml_freq_factors[i]);
    const T extrap = theta / ff;
    const T interp = freq_scale * extrap;
    T angle = interp;
    if (ext != T(0)) {
      const T y = (static_cast<T>(i) - lo) / std::max(T(0.001), hi - lo);
      const T mix = (T(1) - std::min(T(1), std::max(T(0), y))) * ext;
      angle = interp * (T(1) - mix) + extrap * mix;
    }
    v.angle[i] = static_cast<double>(angle);
    v.cos[i] = static_cast<double>(std::cos(angle) * mscale);
    v.sin[i] = static_cast<double>(std::sin(angle) * mscale);
    theta *= theta_scale;
  }
  return v;
}

/// llama.cpp's YaRN attention factor, before ggml's internal one: yarn_attn_factor =
/// get_mscale(s, mscale)/get_mscale(s, mscale_all_dim) when mscale_all_dim (GGUF
/// yarn_log_multiplier) is set, else get_mscale(s); divided by ggml's internal 1 + 0.1 ln s. It
/// reads no mscale: 1, or for its deepseek2 architecture mscale_all_dim itself when that is not 1.
template <class T>
T ggml_yarn_attn_factor(const RopeConfig& c, T s) {
  T att = truthy(c.mscale_all_dim)
              ? get_mscale(s, static_cast<T>(ggml_mscale(c))) / get_mscale(s, static_cast<T>(*c.mscale_all_dim))
              : get_mscale(s, T(1));
  att *= T(1) / (T(1) + T(0.1) * std::log(s));
  return att;
}

/// Longrope: the stored long or short factors (llama_model::get_rope_factors: long when the
/// context exceeds n_ctx_orig_yarn) and the attention factor √(1 + ln s / ln L).
template <class T>
void ggml_longrope_setup(const RopeConfig& c, RopeFrequencies& f, std::size_t n, std::int64_t n_ctx_orig) {
  const std::int64_t n_ctx = c.seq_len > 0 ? c.seq_len : c.max_position_embeddings;
  const bool use_long = n_ctx > n_ctx_orig;
  f.longrope_list = use_long ? "long" : "short";
  const auto& ext = use_long ? c.long_factor : c.short_factor;
  if (ext.size() != n)
    throw Error(fmt::format("{} must have {} values (rotary_dim/2), got {}",
                            c.label(use_long ? "long-factor" : "short-factor"), n, ext.size()));
  for (double e : ext) f.ggml_freq_factors.push_back(static_cast<double>(static_cast<T>(e)));
  // convert_hf_to_gguf.py: scale = max_position_embeddings / original (not `factor`).
  const double scale = c.max_position_embeddings > 0
                           ? static_cast<double>(c.max_position_embeddings) / static_cast<double>(n_ctx_orig)
                           : c.factor.value_or(1.0);
  f.factor = scale;
  if (scale > 1.0 && n_ctx_orig < 2)
    throw Error(fmt::format("{} = {} leaves longrope's attention factor √(1 + ln s / ln L) undefined: it needs an "
                            "original length ≥ 2",
                            c.label("original-max-position-embeddings"), n_ctx_orig));
  f.ggml_attn_factor =
      scale > 1.0 ? std::sqrt(1.0 + std::log(scale) / std::log(static_cast<double>(n_ctx_orig))) : 1.0;
}

/// What each scaling method sets in ggml's terms (freq_scale, ext_factor, freq factors,
/// attention factor); returns the original context length it uses.
template <class T>
std::int64_t ggml_scaling_setup(const RopeConfig& c, RopeFrequencies& f, std::size_t n) {
  std::int64_t n_ctx_orig = c.original_length();
  switch (c.scaling) {
    case RopeScaling::kNone: break;
    case RopeScaling::kLinear:  // --rope-scale N: freq_scale = 1/N
      f.factor = required_factor(c);
      f.ggml_freq_scale = static_cast<double>(T(1) / static_cast<T>(f.factor));
      break;
    case RopeScaling::kYarn: {
      n_ctx_orig = required_original(c);
      f.factor = yarn_factor(c, f);
      f.ggml_freq_scale = static_cast<double>(T(1) / static_cast<T>(f.factor));
      f.ggml_ext_factor = 1.0;
      f.ggml_attn_factor = static_cast<double>(ggml_yarn_attn_factor<T>(c, T(1) / static_cast<T>(f.ggml_freq_scale)));
      f.ggml_internal_mscale = static_cast<double>(T(1) + T(0.1) * std::log(T(1) / static_cast<T>(f.ggml_freq_scale)));
      if (c.model_type == "deepseek_v4")  // llama.cpp src/models/deepseek4.cpp @00395eb2 dsv4_rope_attn_factor:
        f.ggml_attn_factor = static_cast<double>(T(1) / static_cast<T>(f.ggml_internal_mscale));  // cos/sin unscaled
      break;
    }
    case RopeScaling::kLlama3: {
      // convert_hf_to_gguf.py reads the top-level original_max_position_embeddings, default 8192.
      const auto ctx = c.top_level_original_max_position_embeddings > 0 ? c.top_level_original_max_position_embeddings
                                                                         : std::int64_t{8192};
      f.factor = required_factor(c);
      f.ggml_freq_factors = gguf_llama3_factors(c, ctx);
      f.llama3 = Llama3Bands{};
      f.llama3->original_length = ctx;
      break;
    }
    case RopeScaling::kLongrope:
      n_ctx_orig = required_original(c);
      ggml_longrope_setup<T>(c, f, n, n_ctx_orig);
      break;
    case RopeScaling::kNtk:
    case RopeScaling::kDynamic:
    case RopeScaling::kProportional: break;  // handled by ggml_frequencies
  }
  return n_ctx_orig;
}

/// A GGUF's rope_freqs.weight is used as stored (llama.cpp passes it to ggml_rope_ext), and its
/// rope.scaling.attn_factor multiplies the attention factor (llama-context.cpp); for longrope
/// llama.cpp computes none, the stored one is all there is.
template <class T>
void ggml_stored_factors(const RopeConfig& c, RopeFrequencies& f, std::size_t n) {
  if (!c.gguf_freq_factors.empty() && c.scaling != RopeScaling::kLongrope) {
    if (c.gguf_freq_factors.size() < n)
      throw Error(fmt::format("{}rope_freqs.weight has {} values; ggml needs at least rotary_dim/2 = {}",
                              c.gguf ? c.gguf->path + ": " : std::string(), c.gguf_freq_factors.size(), n));
    f.ggml_freq_factors.clear();
    for (std::size_t i = 0; i < n; ++i) f.ggml_freq_factors.push_back(static_cast<double>(static_cast<T>(c.gguf_freq_factors[i])));
  }
  if (c.gguf_attn_factor) {
    f.ggml_attn_factor = c.scaling == RopeScaling::kLongrope
                             ? static_cast<double>(static_cast<T>(*c.gguf_attn_factor))
                             : static_cast<double>(static_cast<T>(f.ggml_attn_factor) * static_cast<T>(*c.gguf_attn_factor));
  }
}

/// YaRN's ramp between the correction dims (ggml_rope_yarn_corr_dims), when ext_factor is on.
template <class T>
void ggml_ramp_dims(const RopeConfig& c, RopeFrequencies& f, std::int64_t n_ctx_orig, T base) {
  const T beta_fast = static_cast<T>(c.beta_fast.value_or(32.0));
  const T beta_slow = static_cast<T>(c.beta_slow.value_or(1.0));
  if (f.ggml_ext_factor != 0.0) {
    const T lo_raw = corr_dim<T>(c.rotary_dim, n_ctx_orig, beta_fast, base);
    const T hi_raw = corr_dim<T>(c.rotary_dim, n_ctx_orig, beta_slow, base);
    f.ggml_corr_dims[0] = static_cast<double>(std::max(T(0), std::floor(lo_raw)));
    f.ggml_corr_dims[1] = static_cast<double>(std::min(static_cast<T>(c.rotary_dim - 1), std::ceil(hi_raw))) + 0.0;
    f.yarn = YarnRange{static_cast<double>(beta_fast), static_cast<double>(beta_slow), static_cast<double>(lo_raw),
                       static_cast<double>(hi_raw), f.ggml_corr_dims[0], f.ggml_corr_dims[1], true};
  }
}

/// The attention factor the report shows, and how it was derived; deepseek2's logit scale; the
/// YaRN range ggml rounds whatever truncate says.
template <class T>
void ggml_attention_factor(const RopeConfig& c, RopeFrequencies& f) {
  f.attention_factor = f.ggml_attn_factor * (f.ggml_ext_factor != 0.0 ? f.ggml_internal_mscale : 1.0);
  if (f.ggml_ext_factor != 0.0 && c.model_type == "deepseek_v4")
    f.derived.push_back({"attention-factor", fmt::format("{}", f.attention_factor),
                         fmt::format("derived: llama.cpp's deepseek4 graph passes attn_factor 1/(1 + 0.1·ln s) = {}, "
                                     "which ggml's internal 1 + 0.1·ln s cancels (dsv4_rope_attn_factor)",
                                     f.ggml_attn_factor)});
  else if (f.ggml_ext_factor != 0.0)
    f.derived.push_back({"attention-factor", fmt::format("{}", f.attention_factor),
                         fmt::format("derived: llama.cpp attn_factor {} (get_mscale ratio with mscale {}, ÷ (1 + 0.1·ln "
                                     "s)) × ggml's internal 1 + 0.1·ln s = {}",
                                     f.ggml_attn_factor, truthy(c.mscale_all_dim) ? ggml_mscale(c) : 1.0,
                                     f.ggml_internal_mscale)});
  else if (c.scaling == RopeScaling::kLongrope && c.gguf_attn_factor)
    f.derived.push_back({"attention-factor", fmt::format("{}", f.attention_factor),
                         "the GGUF's rope.scaling.attn_factor (llama.cpp computes none for longrope)"});
  else if (c.scaling == RopeScaling::kLongrope)
    f.derived.push_back({"attention-factor", fmt::format("{}", f.attention_factor),
                         fmt::format("derived: √(1 + ln s / ln L) with s = {} = {} (convert_hf_to_gguf.py)",
                                     c.max_position_embeddings > 0 ? "max_position_embeddings / original" : "factor",
                                     f.factor)});
  if (ggml_deepseek2_arch(c)) {
    // llama.cpp's deepseek2 graph (src/models/deepseek2.cpp @ 07bede6a8f329362c72d46a0bc9756b6a12c22eb,
    // [TAG_DEEPSEEK2_YARN_LOG_MUL_FIX], ggml-org/llama.cpp#17945): attn_factor_org = attn_factor·(1 +
    // 0.1·ln(1/freq_scale)); mscale = attn_factor_org·(1 + 0.1·rope_yarn_log_mul·ln(1/freq_scale));
    // kq_scale = mscale²/√d_k. rope_yarn_log_mul is the key ÷ 0.1 (the converter writes
    // 0.1·mscale_all_dim, conversion/deepseek.py), i.e. mscale_all_dim; 0 when absent.
    const T inv_scale = T(1) / static_cast<T>(f.ggml_freq_scale);
    const T log_mul = static_cast<T>(c.mscale_all_dim.value_or(0.0));
    const T org = static_cast<T>(f.ggml_attn_factor) * (T(1) + T(0.1) * std::log(inv_scale));
    const T mscale = org * (T(1) + T(0.1) * log_mul * std::log(inv_scale));
    f.logit_scale = static_cast<double>(mscale * mscale);
    if (f.logit_scale != 1.0)
      f.derived.push_back({"logit-scale", fmt::format("{}", f.logit_scale),
                           fmt::format("derived: llama.cpp deepseek2 kq_scale = mscale²/√d_k, mscale = attn_factor·(1 + "
                                       "0.1·ln s)·(1 + 0.1·mscale_all_dim·ln s) = {} (mscale_all_dim = "
                                       "yarn_log_multiplier ÷ 0.1 = {})",
                                       static_cast<double>(mscale), static_cast<double>(log_mul))});
  }
  // truncate: false has no GGUF key and ggml_rope_yarn_corr_dims always floors and ceils the
  // range: a departure from transformers whenever the raw range is fractional.
  if (f.yarn && c.truncate && !*c.truncate &&
      (f.yarn->low_raw != std::floor(f.yarn->low_raw) || f.yarn->high_raw != std::ceil(f.yarn->high_raw)))
    f.deviations.push_back(fmt::format("ggml always rounds the YaRN correction range (ggml_rope_yarn_corr_dims: "
                                       "[{:.4g}, {:.4g}] → [{}, {}]): truncate: false is not honoured and cannot be "
                                       "stored in a GGUF",
                                       f.yarn->low_raw, f.yarn->high_raw, f.ggml_corr_dims[0], f.ggml_corr_dims[1]));
}

/// Effective inverse frequencies, scaled and not: the angles at position 1.
template <class T>
void ggml_inverse_frequencies(const RopeConfig& c, RopeFrequencies& f) {
  RopeFrequencies unscaled = f;
  unscaled.ggml_freq_scale = 1.0;
  unscaled.ggml_ext_factor = 0.0;
  unscaled.ggml_freq_factors.clear();
  f.inv_freq_original = values_ggml<T>(c, unscaled, 1).angle;
  f.inv_freq = values_ggml<T>(c, f, 1).angle;
}

RopeRegime ggml_regime_of(double blend) {
  return blend == 1.0 ? RopeRegime::kUnchanged : blend == 0.0 ? RopeRegime::kInterpolated : RopeRegime::kBlended;
}

/// llama3 through rope_freqs: each pair classified by its factor (1 unchanged, s divided, else
/// 1/ff = (1−w)/s + w), counted in the bands.
template <class T>
void ggml_llama3_regimes(const RopeConfig& c, RopeFrequencies& f, std::size_t n) {
  f.blend.resize(n);
  f.regime.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double ff = f.ggml_freq_factors[i];
    const double w = (1.0 / ff - 1.0 / f.factor) / (1.0 - 1.0 / f.factor);
    f.blend[i] = ff == 1.0 ? 1.0 : ff == static_cast<double>(static_cast<T>(f.factor)) ? 0.0 : w;
    f.regime[i] = ggml_regime_of(f.blend[i]);
    auto& b = *f.llama3;
    (f.regime[i] == RopeRegime::kUnchanged ? b.unchanged
     : f.regime[i] == RopeRegime::kInterpolated ? b.divided : b.smoothed)++;
  }
  f.llama3->low_freq_wavelen = static_cast<double>(f.llama3->original_length) / c.low_freq_factor;
  f.llama3->high_freq_wavelen = static_cast<double>(f.llama3->original_length) / c.high_freq_factor;
}

/// YaRN: the ramp mix of each pair is the weight of its unscaled frequency.
void ggml_ramp_regimes(RopeFrequencies& f, std::size_t n) {
  f.blend.resize(n);
  f.regime.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double y = (static_cast<double>(i) - f.ggml_corr_dims[0]) /
                     std::max(0.001, f.ggml_corr_dims[1] - f.ggml_corr_dims[0]);
    f.blend[i] = 1.0 - std::clamp(y, 0.0, 1.0);
    f.regime[i] = ggml_regime_of(f.blend[i]);
  }
}

template <class T>
void setup(const RopeConfig& c, RopeFrequencies& f) {
  const std::size_t n = static_cast<std::size_t>(c.rotary_dim / 2);
  const T base = static_cast<T>(f.base);
  f.ggml_theta_scale = static_cast<double>(std::pow(base, T(-2) / static_cast<T>(c.rotary_dim)));
  const std::int64_t n_ctx_orig = ggml_scaling_setup<T>(c, f, n);
  ggml_stored_factors<T>(c, f, n);
  f.original_length = n_ctx_orig;
  ggml_ramp_dims<T>(c, f, n_ctx_orig, base);
  ggml_attention_factor<T>(c, f);
  ggml_inverse_frequencies<T>(c, f);
  if (f.llama3) ggml_llama3_regimes<T>(c, f, n);
  if (f.ggml_ext_factor != 0.0) ggml_ramp_regimes(f, n);
}

}  // namespace

bool ggml_deepseek2_arch(const RopeConfig& c) {
  // convert_hf_to_gguf.py DeepseekV2Model (and subclasses): model_arch = MODEL_ARCH.DEEPSEEK2.
  // (models::set_llama_arch_facts reads it from llama.cpp's architecture table)
  return c.ggml_deepseek2;
}

double ggml_mscale(const RopeConfig& c) {
  // [TAG_DEEPSEEK2_YARN_LOG_MUL_FIX]: `if (arch == DEEPSEEK2 && mscale_all_dims != 1.0f) mscale = mscale_all_dims;`
  if (ggml_deepseek2_arch(c) && c.mscale_all_dim && *c.mscale_all_dim != 1.0) return *c.mscale_all_dim;
  return 1.0;
}

void ggml_frequencies(const RopeConfig& c, RopeFrequencies& f) {
  if (c.scaling == RopeScaling::kDynamic || c.scaling == RopeScaling::kProportional)
    throw Error(fmt::format("--convention ggml has no '{}' scaling (llama.cpp implements none, linear, yarn, "
                            "llama3 via rope_freqs and longrope; NTK only as a raised --rope-freq-base)",
                            to_string(c.scaling)));
  if (c.scaling == RopeScaling::kNtk) {
    f.factor = required_factor(c);
    const double d = static_cast<double>(c.rotary_dim);
    f.base = c.base * std::pow(f.factor, d / (d - 2.0));  // what a user passes as --rope-freq-base
  }
  if (c.precision == RopePrecision::kF32) {
    setup<float>(c, f);
  } else {
    setup<double>(c, f);
  }
  if (c.scaling == RopeScaling::kNtk) {  // report against the model's own base
    RopeConfig plain = c;
    plain.scaling = RopeScaling::kNone;
    RopeFrequencies g;
    g.base = c.base;
    if (c.precision == RopePrecision::kF32) setup<float>(plain, g); else setup<double>(plain, g);
    f.inv_freq_original = g.inv_freq;
  }
}

RopePairValues ggml_pair_values(const RopeConfig& c, const RopeFrequencies& f, std::int64_t position) {
  return c.precision == RopePrecision::kF32 ? values_ggml<float>(c, f, position) : values_ggml<double>(c, f, position);
}

}  // namespace posenc::rope::detail
