// Hugging Face transformers' RoPE parameter functions (modeling_rope_utils.py), with the
// float32 tensor arithmetic emulated for --precision f32. Python scalars stay double.
#include "rope_internal.hpp"

#include <fmt/format.h>

#include <cmath>

#include "posenc/error.hpp"

namespace posenc::rope::detail {
namespace {

/// HF dynamic NTK (`_compute_dynamic_ntk_parameters`): L = max_position_embeddings,
/// seq = max(seq_len, L), b' = b·(s·seq/L − (s − 1))^(d/(d−2)).
double dynamic_base(const RopeConfig& c, double factor) {
  if (c.max_position_embeddings <= 0)
    throw Error(fmt::format("{} is required for {} (transformers uses max_position_embeddings as the original length)",
                            c.absent("max-position-embeddings", "max_position_embeddings", false), c.method_label()));
  const auto l = static_cast<double>(c.max_position_embeddings);
  const double seq = std::max(static_cast<double>(c.seq_len), l);
  const double d = static_cast<double>(c.rotary_dim);
  return c.base * std::pow(factor * seq / l - (factor - 1.0), d / (d - 2.0));
}

/// Static NTK-aware base (bloc97; x-transformers `base_rescale_factor`): b·s^(d/(d−2)).
double ntk_base(const RopeConfig& c, double factor) {
  const double d = static_cast<double>(c.rotary_dim);
  return c.base * std::pow(factor, d / (d - 2.0));
}

template <class T>
void longrope(const RopeConfig& c, RopeFrequencies& f, std::size_t n) {
  const auto l = required_original(c);
  double factor = 0;
  if (c.factor) {
    factor = *c.factor;
  } else if (c.max_position_embeddings > 0) {
    factor = static_cast<double>(c.max_position_embeddings) / static_cast<double>(l);  // Phi-3 style
    f.derived.push_back({"factor", fmt::format("{}", factor),
                         fmt::format("derived: max_position_embeddings / original = {} / {} (transformers, factor "
                                     "absent)",
                                     c.max_position_embeddings, l)});
  } else {
    throw Error(fmt::format("{} is required for {}",
                            either(c, {"factor", "factor", true}, {"max-position-embeddings", "max_position_embeddings", false}),
                            c.method_label()));
  }
  f.factor = factor;
  f.original_length = l;
  if (!c.attention_factor && factor > 1.0 && l < 2)  // √(1 + ln s / ln L) divides by ln L
    throw Error(fmt::format("{} = {} leaves longrope's attention factor √(1 + ln s / ln L) undefined: it needs an "
                            "original length ≥ 2 (or an explicit attention factor)",
                            c.label("original-max-position-embeddings"), l));
  if (c.attention_factor) {
    f.attention_factor = *c.attention_factor;
  } else {
    f.attention_factor = factor <= 1.0 ? 1.0 : std::sqrt(1.0 + std::log(factor) / std::log(static_cast<double>(l)));
    f.derived.push_back({"attention-factor", fmt::format("{}", f.attention_factor),
                         factor <= 1.0 ? std::string("derived: 1 (factor ≤ 1)")
                                       : fmt::format("derived: √(1 + ln s / ln L) with s = {}, L = {} (LongRoPE)", factor, l)});
  }
  // transformers switches lists by the current length (max position + 1) against L.
  const bool use_long = c.seq_len > 0 && c.seq_len > l;
  f.longrope_list = use_long ? "long" : "short";
  const auto& ext = use_long ? c.long_factor : c.short_factor;
  if (ext.size() != n)
    throw Error(fmt::format("{} must have {} values (rotary_dim/2), got {}",
                            c.label(use_long ? "long-factor" : "short-factor"), n, ext.size()));
  const T b = static_cast<T>(c.base);
  const T d = static_cast<T>(c.rotary_dim);
  for (std::size_t i = 0; i < n; ++i) {
    const T e = static_cast<T>(2 * i) / d;
    f.inv_freq[i] = static_cast<double>(T(1) / (static_cast<T>(ext[i]) * std::pow(b, e)));
  }
}

template <class T>
void proportional(const RopeConfig& c, RopeFrequencies& f) {
  // rope_angles = int(partial_rotary_factor * head_dim // 2); exponent over the whole head_dim.
  // inv_freq_original keeps every pair's unscaled frequency, so the report shows what p-RoPE removed.
  const auto angles = proportional_angles(c);
  const std::size_t n = static_cast<std::size_t>(c.head_dim / 2);
  const double factor = c.factor.value_or(1.0);
  f.factor = factor;
  f.inv_freq_original = hf_inv_freq<T>(c.base, c.head_dim, n);
  f.inv_freq.assign(n, 0.0);
  for (std::size_t i = 0; i < std::min(angles, n); ++i)
    f.inv_freq[i] = static_cast<double>(static_cast<T>(f.inv_freq_original[i]) / static_cast<T>(factor));
}

template <class T>
void compute_hf(const RopeConfig& c, RopeFrequencies& f) {
  const std::size_t n = pair_count(c);
  if (c.scaling == RopeScaling::kProportional) return proportional<T>(c, f);
  f.inv_freq_original = hf_inv_freq<T>(c.base, c.rotary_dim, n);
  f.inv_freq = f.inv_freq_original;
  switch (c.scaling) {
    case RopeScaling::kNone: break;
    case RopeScaling::kLinear: {
      f.factor = required_factor(c);
      for (auto& v : f.inv_freq) v = static_cast<double>(static_cast<T>(v) / static_cast<T>(f.factor));
      break;
    }
    case RopeScaling::kNtk:
    case RopeScaling::kDynamic: {
      f.factor = required_factor(c);
      f.base = c.scaling == RopeScaling::kNtk ? ntk_base(c, f.factor) : dynamic_base(c, f.factor);
      f.inv_freq = hf_inv_freq<T>(f.base, c.rotary_dim, n);
      if (c.scaling == RopeScaling::kDynamic) f.original_length = c.max_position_embeddings;
      break;
    }
    case RopeScaling::kYarn: hf_yarn(c, f); break;
    case RopeScaling::kLlama3:
      llama3_scaling(c, f, required_factor(c), c.low_freq_factor, c.high_freq_factor,
                     required_original(c, /*fallback_to_max=*/false));
      break;
    case RopeScaling::kLongrope: longrope<T>(c, f, n); break;
    case RopeScaling::kProportional: break;
  }
}

}  // namespace

void hf_frequencies(const RopeConfig& c, RopeFrequencies& f) {
  if (c.precision == RopePrecision::kF32) {
    compute_hf<float>(c, f);
  } else {
    compute_hf<double>(c, f);
  }
}

}  // namespace posenc::rope::detail
