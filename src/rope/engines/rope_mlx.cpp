// MLX-LM (ml-explore/mlx-lm @d78bf58e, mlx_lm/models/rope_utils.py initialize_rope, phi3.py,
// deepseek_v3.py) on MLX's fast.rope kernel (rope.metal): no cache, the angle is computed per
// call as L·inv_freq in float32 with L = scale·(offset + t) and inv_freq = exp2(−(i/(d/2))·log2 b)
// when a base is given, else 1/freqs[i] for the classes that pass their own `freqs`
// (Llama3RoPE, YarnRoPE, SuScaledRoPE). Attention factors multiply q and k before the rotation.
#include "rope_engine_internal.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "posenc/error.hpp"

namespace posenc::rope::detail::engine {
namespace {

/// The kernel's inverse frequencies from a base: base is a float32 argument, log2 on the host.
template <class T>
std::vector<double> kernel_inv_freq(double base, std::int64_t dims, std::size_t n) {
  std::vector<double> out(n);
  const T log2b = std::log2(static_cast<T>(base));
  const T half = static_cast<T>(dims / 2);
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<double>(std::exp2(-(static_cast<T>(i) / half) * log2b));
  return out;
}

/// `base ** (mx.arange(0, dims, 2) / dims)` in float32: the wavelength-like freqs MLX passes.
template <class T>
std::vector<T> freqs(double base, std::int64_t dims, std::size_t n) {
  std::vector<T> out(n);
  for (std::size_t i = 0; i < n; ++i)
    out[i] = std::pow(static_cast<T>(base), static_cast<T>(2 * i) / static_cast<T>(dims));
  return out;
}

template <class T>
std::vector<double> reciprocal(const std::vector<T>& fr) {  // the kernel: 1.0 / freqs[i]
  std::vector<double> out(fr.size());
  for (std::size_t i = 0; i < fr.size(); ++i) out[i] = static_cast<double>(T(1) / fr[i]);
  return out;
}

template <class T>
void from_freqs(RopeFrequencies& f, const std::vector<T>& fr, const std::vector<T>& unscaled) {
  f.inv_freq = reciprocal(fr);
  f.inv_freq_original = reciprocal(unscaled);
}

template <class T>
void yarn(const RopeConfig& c, RopeFrequencies& f, std::string& cause) {
  const std::size_t n = pair_count(c);
  const double s = indexed_factor(c);
  const std::int64_t original = c.original_max_position_embeddings > 0 ? c.original_max_position_embeddings : 4096;
  if (c.original_max_position_embeddings <= 0)
    f.deviations.push_back("original context 4096: original_max_position_embeddings absent, YarnRoPE's default");
  YarnRange r;
  r.beta_fast = c.beta_fast.value_or(32.0);
  r.beta_slow = c.beta_slow.value_or(1.0);
  r.low_raw = yarn_correction_dim(r.beta_fast, c.rotary_dim, c.base, original);
  r.high_raw = yarn_correction_dim(r.beta_slow, c.rotary_dim, c.base, original);
  r.low = std::max(std::floor(r.low_raw), 0.0) + 0.0;  // always rounded: truncate is not read
  r.high = std::min(std::ceil(r.high_raw), static_cast<double>(c.rotary_dim - 1)) + 0.0;
  f.yarn = r;
  f.factor = s;
  f.original_length = original;
  double high = r.high;
  if (r.low == high) high += 0.001;
  const auto extra = freqs<T>(c.base, c.rotary_dim, n);
  std::vector<T> out(n);
  f.blend.assign(n, 1.0);
  f.regime.assign(n, RopeRegime::kUnchanged);
  for (std::size_t j = 0; j < n; ++j) {
    const T ramp = std::clamp((static_cast<T>(j) - static_cast<T>(r.low)) / static_cast<T>(high - r.low), T(0), T(1));
    const T mask = T(1) - ramp;
    const T inter = static_cast<T>(s) * extra[j];
    // (freq_inter·freq_extra) / (freq_inter·mask + freq_extra·(1 − mask)): a wavelength blend.
    out[j] = (inter * extra[j]) / (inter * mask + extra[j] * (T(1) - mask));
    f.blend[j] = static_cast<double>(mask);
    f.regime[j] = mask == T(1) ? RopeRegime::kUnchanged : mask == T(0) ? RopeRegime::kInterpolated : RopeRegime::kBlended;
  }
  from_freqs(f, out, extra);
  const double mscale = c.mscale.value_or(1.0), all = c.mscale_all_dim.value_or(0.0);
  f.attention_factor = yarn_get_mscale(s, mscale) / yarn_get_mscale(s, all);
  cause = "MLX-LM takes get_mscale(s, mscale)/get_mscale(s, mscale_all_dim) with defaults 1 and 0 and reads no "
          "attention_factor (ml-explore/mlx-lm#1507 closed)";
  if (deepseek_model(c) && all != 0.0 && s > 1.0) {  // deepseek_v3.py: self.scale × s²
    const double sm = 0.1 * all * std::log(s) + 1.0;
    f.logit_scale = sm * sm;
  }
  if (c.truncate && !*c.truncate)
    f.deviations.push_back("rounds the YaRN correction range: truncate: false is not read (YarnRoPE)");
}

template <class T>
void llama3(const RopeConfig& c, RopeFrequencies& f) {
  const std::size_t n = pair_count(c);
  const double factor = indexed_factor(c);
  const std::int64_t original = c.original_max_position_embeddings > 0 ? c.original_max_position_embeddings : 8192;
  const T lo_wl = static_cast<T>(static_cast<double>(original) / c.low_freq_factor);
  const T hi_wl = static_cast<T>(static_cast<double>(original) / c.high_freq_factor);
  const T s = static_cast<T>(factor);
  auto fr = freqs<T>(c.base, c.rotary_dim, n);
  const auto unscaled = fr;
  Llama3Bands bands;
  bands.original_length = original;
  bands.low_freq_wavelen = static_cast<double>(original) / c.low_freq_factor;
  bands.high_freq_wavelen = static_cast<double>(original) / c.high_freq_factor;
  f.blend.assign(n, 1.0);
  f.regime.assign(n, RopeRegime::kUnchanged);
  for (std::size_t i = 0; i < n; ++i) {
    const T wl = static_cast<T>(2.0 * kPi) * fr[i];
    const T low_band = wl > lo_wl ? fr[i] * s : fr[i];
    if (wl > hi_wl && wl < lo_wl) {  // strict on both ends, unlike transformers
      const T w = (static_cast<T>(original) / wl - static_cast<T>(c.low_freq_factor)) /
                  static_cast<T>(c.high_freq_factor - c.low_freq_factor);
      fr[i] = low_band / ((T(1) - w) / s + w);
      f.regime[i] = RopeRegime::kBlended;
      f.blend[i] = static_cast<double>(w);
      ++bands.smoothed;
    } else if (wl > lo_wl) {
      fr[i] = low_band;
      f.regime[i] = RopeRegime::kInterpolated;
      f.blend[i] = 0.0;
      ++bands.divided;
    } else {
      ++bands.unchanged;
    }
  }
  from_freqs(f, fr, unscaled);
  f.factor = factor;
  f.original_length = original;
  f.llama3 = bands;
}

template <class T>
void compute_mlx(const RopeConfig& c, RopeFrequencies& f) {
  const std::size_t n = pair_count(c);
  f.inv_freq_original = kernel_inv_freq<T>(c.base, c.rotary_dim, n);
  f.inv_freq = f.inv_freq_original;
  f.cache_len = 0;
  std::string attention_cause, longrope_cause;
  switch (c.scaling) {
    case RopeScaling::kNone: break;
    case RopeScaling::kLinear: {  // nn.RoPE(scale = 1/factor): L = scale·t in the kernel
      f.factor = indexed_factor(c);
      f.position_scale = static_cast<double>(static_cast<T>(1.0 / f.factor));
      f.inv_freq_held = f.inv_freq_original;
      for (auto& v : f.inv_freq) v *= f.position_scale;
      break;
    }
    case RopeScaling::kDynamic: {  // DynamicNTKScalingRoPE (13425df6): every call, L = T + offset
      f.factor = indexed_factor(c);
      const std::int64_t m = max_position(c);
      const double len = static_cast<double>(std::max(c.seq_len, m)), d = static_cast<double>(c.rotary_dim);
      f.base = c.base * std::pow(f.factor * len / static_cast<double>(m) - (f.factor - 1.0), d / (d - 2.0));
      f.inv_freq = kernel_inv_freq<T>(f.base, c.rotary_dim, n);
      break;
    }
    case RopeScaling::kYarn: yarn<T>(c, f, attention_cause); break;
    case RopeScaling::kLlama3: llama3<T>(c, f); break;
    case RopeScaling::kLongrope: {
      // phi3.py builds SuScaledRoPE from the top-level original_max_position_embeddings (default
      // 4096) and max_position_embeddings (default 131072); other models go through
      // initialize_rope, which indexes rope_scaling's key. Always the long list (commit 68f18bae, #707).
      std::int64_t original = 0;
      if (c.model_type == "phi3") {
        original = c.top_level_original_max_position_embeddings > 0 ? c.top_level_original_max_position_embeddings : 4096;
      } else {
        original = indexed_original(c);
      }
      const std::int64_t m = c.max_position_embeddings > 0 ? c.max_position_embeddings : 131072;
      f.longrope_list = "long";
      longrope_cause = "MLX-LM always uses long_factor (ml-explore/mlx-lm#707, commit 68f18bae)";
      const auto base_freqs = freqs<T>(c.base, c.rotary_dim, n);
      std::vector<T> fr(n);
      for (std::size_t i = 0; i < n; ++i) fr[i] = static_cast<T>(c.long_factor[i]) * base_freqs[i];
      from_freqs(f, fr, base_freqs);
      attention_cause = longrope_length_scale(c, f, m, original);
      break;
    }
    default: break;
  }
  f.attention_placement = "q and k, before the rotation";
  compare_with_hf(c, f, attention_cause, longrope_cause);
  f.warnings.push_back("mlx: Apple GPUs evaluate cos/sin with metal::fast::cos/sin and exp2 in hardware; these are "
                       "the same float32 formulas evaluated on the CPU");
}

}  // namespace

void mlx_frequencies(const RopeConfig& c, RopeFrequencies& f) {
  if (c.precision == RopePrecision::kF32) {
    compute_mlx<float>(c, f);
  } else {
    compute_mlx<double>(c, f);
  }
}

}  // namespace posenc::rope::detail::engine
