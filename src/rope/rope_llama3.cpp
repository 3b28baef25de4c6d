// Llama 3.1 frequency scaling: transformers `_compute_llama3_parameters`, meta-llama
// `apply_scaling` (same float32 operations) and llama.cpp's converted `rope_freqs` factors.
#include "rope_internal.hpp"

#include <fmt/format.h>

#include <cmath>

#include "posenc/error.hpp"

namespace posenc::rope::detail {
namespace {

/// low == high (Llama 4): the medium band is the single wavelength L/low. A pair exactly there
/// divides 0 (or x) by 0: transformers computes NaN, meta-llama's apply_scaling asserts.
std::string tie(const RopeConfig& c, std::size_t pair, double low, std::int64_t original) {
  return fmt::format("llama3 with equal low and high frequency factors ({}) has no blended band, but pair {}'s "
                     "wavelength is exactly {} / {}, where transformers divides by high_freq_factor - "
                     "low_freq_factor = 0 (NaN) and meta-llama asserts: change {} or {}",
                     low, pair, original, low, c.label("low-freq-factor"), c.label("high-freq-factor"));
}

/// With λ = 2π/θ (float32), λ_lo = L/low, λ_hi = L/high:
/// λ < λ_hi → θ; λ > λ_lo → θ/s; otherwise θ' = (1−w)·θ/s + w·θ, w = (L/λ − low)/(high − low).
/// Both ends of the medium band are inclusive (`~(λ < λ_hi) * ~(λ > λ_lo)`). With low == high
/// every pair is either kept or divided: a hard step.
template <class T>
void bands(const RopeConfig& c, RopeFrequencies& f, double factor, double low, double high, std::int64_t original) {
  const std::size_t n = f.pairs();
  Llama3Bands b;
  b.original_length = original;
  b.low_freq_wavelen = static_cast<double>(original) / low;
  b.high_freq_wavelen = static_cast<double>(original) / high;
  const T lo_wl = static_cast<T>(b.low_freq_wavelen);
  const T hi_wl = static_cast<T>(b.high_freq_wavelen);
  const T s = static_cast<T>(factor);
  f.regime.assign(n, RopeRegime::kUnchanged);
  f.blend.assign(n, 1.0);
  for (std::size_t i = 0; i < n; ++i) {
    const T inv = static_cast<T>(f.inv_freq_original[i]);
    const T wavelen = static_cast<T>(2.0 * kPi) / inv;
    if (wavelen < hi_wl) {
      ++b.unchanged;
      f.inv_freq[i] = static_cast<double>(inv);
    } else if (wavelen > lo_wl) {
      ++b.divided;
      f.inv_freq[i] = static_cast<double>(inv / s);
      f.regime[i] = RopeRegime::kInterpolated;
      f.blend[i] = 0.0;
    } else {
      if (high == low) throw Error(tie(c, i, low, original));
      ++b.smoothed;
      const T w = (static_cast<T>(original) / wavelen - static_cast<T>(low)) / static_cast<T>(high - low);
      f.inv_freq[i] = static_cast<double>((T(1) - w) * inv / s + w * inv);
      f.regime[i] = RopeRegime::kBlended;
      f.blend[i] = static_cast<double>(w);
    }
  }
  f.llama3 = b;
}

template <class T>
std::vector<double> gguf_factors(const RopeConfig& c, std::int64_t original) {
  const auto freqs = hf_inv_freq<T>(c.base, c.rotary_dim, static_cast<std::size_t>(c.rotary_dim / 2));
  const double factor = c.factor.value_or(8.0);
  const double low = c.low_freq_factor;
  const double high = c.high_freq_factor;
  const T lo_wl = static_cast<T>(static_cast<double>(original) / low);
  const T hi_wl = static_cast<T>(static_cast<double>(original) / high);
  std::vector<double> out;
  out.reserve(freqs.size());
  for (double freq : freqs) {
    const T wavelen = static_cast<T>(2.0 * kPi) / static_cast<T>(freq);
    if (wavelen < hi_wl) {
      out.push_back(1.0);
    } else if (wavelen > lo_wl) {
      out.push_back(static_cast<double>(static_cast<T>(factor)));
    } else {
      if (high == low) throw Error(tie(c, out.size(), low, original));
      const T w = (static_cast<T>(original) / wavelen - static_cast<T>(low)) / static_cast<T>(high - low);
      out.push_back(static_cast<double>(T(1) / ((T(1) - w) / static_cast<T>(factor) + w)));
    }
  }
  return out;
}

}  // namespace

void llama3_scaling(const RopeConfig& c, RopeFrequencies& f, double factor, double low_freq_factor,
                    double high_freq_factor, std::int64_t original) {
  if (high_freq_factor < low_freq_factor)
    throw Error(must_exceed(c, "high-freq-factor", high_freq_factor, "low-freq-factor", low_freq_factor));
  f.factor = factor;
  f.original_length = original;
  if (c.precision == RopePrecision::kF32) {
    bands<float>(c, f, factor, low_freq_factor, high_freq_factor, original);
  } else {
    bands<double>(c, f, factor, low_freq_factor, high_freq_factor, original);
  }
}

std::vector<double> gguf_llama3_factors(const RopeConfig& c, std::int64_t original) {
  if (c.high_freq_factor < c.low_freq_factor)
    throw Error(must_exceed(c, "high-freq-factor", c.high_freq_factor, "low-freq-factor", c.low_freq_factor));
  return c.precision == RopePrecision::kF32 ? gguf_factors<float>(c, original) : gguf_factors<double>(c, original);
}

void meta_frequencies(const RopeConfig& c, RopeFrequencies& f) {
  // precompute_freqs_cis: 1/theta^(arange(0, dim, 2)[:dim/2].float()/dim), float32.
  const std::size_t n = pair_count(c);
  f.inv_freq_original = c.precision == RopePrecision::kF32 ? hf_inv_freq<float>(c.base, c.rotary_dim, n)
                                                           : hf_inv_freq<double>(c.base, c.rotary_dim, n);
  f.inv_freq = f.inv_freq_original;
  switch (c.scaling) {
    case RopeScaling::kNone: return;
    case RopeScaling::kLlama3:
      // apply_scaling hard-codes low_freq_factor = 1 and old_context_len = 8192.
      llama3_scaling(c, f, required_factor(c), 1.0, c.high_freq_factor, 8192);
      return;
    default:
      throw Error(fmt::format("--convention meta supports --scaling none or llama3 (meta-llama's reference "
                              "code has no '{}')",
                              to_string(c.scaling)));
  }
}

}  // namespace posenc::rope::detail
