// SGLang's rotary embeddings (python/sglang/srt/layers/rotary_embedding/): get_rope
// (factory.py @108c36c0) fills missing keys with a warning (_get_rope_param: factor 1.0,
// original_max_position_embeddings = max_position, llama3 low 1 / high 4); the float32 cos/sin
// cache (base.py @0099dee6, kept float32 on CUDA/HIP/XPU) is built once; YaRN in yarn.py
// @0b1fd02d, LongRoPE, llama3, dynamic NTK and DeepSeek YaRN in rope_variant.py @0b1fd02d.
#include "rope_engine_internal.hpp"

#include <fmt/format.h>

#include <cmath>

#include "posenc/error.hpp"

namespace posenc::rope::detail::engine {
namespace {

/// _get_rope_param: the value, or the default with the warning SGLang logs.
double param(const RopeConfig& c, RopeFrequencies& f, const std::optional<double>& v, const char* key, double fallback) {
  if (v) return *v;
  f.warnings.push_back(fmt::format("sglang: rope_scaling (type={}) has no '{}': SGLang defaults it to {} with a "
                                   "warning",
                                   to_string(c.scaling), key, fallback));
  return fallback;
}

std::int64_t original_or_max(const RopeConfig& c, RopeFrequencies& f, std::int64_t m) {
  if (c.original_max_position_embeddings > 0) return c.original_max_position_embeddings;
  f.warnings.push_back(fmt::format("sglang: no original_max_position_embeddings: SGLang uses max_position {} with a "
                                   "warning",
                                   m));
  return m;
}

template <class T>
void compute_sglang(const RopeConfig& c, RopeFrequencies& f) {
  const std::size_t n = pair_count(c);
  const std::int64_t m = c.max_position_embeddings;  // the cache length (0: unknown here)
  f.inv_freq_original = hf_inv_freq<T>(c.base, c.rotary_dim, n);
  f.inv_freq = f.inv_freq_original;
  f.cache_len = m;
  std::string attention_cause, longrope_cause;
  switch (c.scaling) {
    case RopeScaling::kNone:
      f.cache_grows = true;  // RotaryEmbedding._ensure_cos_sin_cache_length
      break;
    case RopeScaling::kLinear: {
      f.factor = param(c, f, c.factor, "factor", 1.0);  // base.py: t = arange(M·s) / s, as vLLM
      divided_positions(f, m);
      break;
    }
    case RopeScaling::kDynamic: {
      max_position(c);
      f.factor = param(c, f, c.factor, "factor", 1.0);
      fixed_dynamic_ntk<T>(c, f, m, "rope_variant.py: the length is always M·s");
      break;
    }
    case RopeScaling::kYarn: {
      Yarn y;
      y.factor = param(c, f, c.factor, "factor", 1.0);
      y.original = c.original_max_position_embeddings > 0 ? c.original_max_position_embeddings
                                                          : original_or_max(c, f, max_position(c));
      y.beta_fast = c.beta_fast.value_or(32.0);
      y.beta_slow = c.beta_slow.value_or(1.0);
      const bool deepseek = deepseek_model(c);
      y.truncate = deepseek ? true : c.truncate.value_or(true);  // sgl-project/sglang#14270
      torch_yarn<T>(c, f, y);
      f.cache_len = rows(static_cast<double>(y.original) * y.factor);
      if (deepseek) {
        const double mscale = c.mscale.value_or(1.0), all = c.mscale_all_dim.value_or(0.0);
        f.attention_factor = yarn_get_mscale(y.factor, mscale) / yarn_get_mscale(y.factor, all);
        const double sm = yarn_get_mscale(y.factor, all);
        f.logit_scale = sm * sm;
        attention_cause = "deepseek_yarn takes the mscale ratio without transformers' truthiness test";
      } else if (c.mscale && c.mscale_all_dim) {  // `is not None`, not truthiness
        f.attention_factor = yarn_get_mscale(y.factor, *c.mscale) / yarn_get_mscale(y.factor, *c.mscale_all_dim);
        attention_cause = "SGLang tests `mscale is not None`, transformers tests truthiness (mscale_all_dim 0)";
      } else {
        f.attention_factor = yarn_get_mscale(y.factor);
        attention_cause = "SGLang's YaRN reads no attention_factor";
      }
      if (c.truncate && !*c.truncate && y.truncate)
        f.deviations.push_back("rounds the YaRN correction range: truncate: false is not read by deepseek_yarn");
      break;
    }
    case RopeScaling::kLlama3: {
      const double factor = param(c, f, c.factor, "factor", 1.0);
      const std::int64_t original = c.original_max_position_embeddings > 0 ? c.original_max_position_embeddings
                                                                           : original_or_max(c, f, max_position(c));
      llama3_scaling(c, f, factor, c.low_freq_factor, c.high_freq_factor, original);
      break;
    }
    case RopeScaling::kLongrope: {
      max_position(c);
      const std::int64_t original = original_or_max(c, f, m);
      longrope_cause = batch_longrope<T>(c, f, original, m);
      attention_cause = longrope_length_scale(c, f, m, original);
      break;
    }
    default: break;
  }
  compare_with_hf(c, f, attention_cause, longrope_cause);
}

}  // namespace

void sglang_frequencies(const RopeConfig& c, RopeFrequencies& f) {
  if (c.precision == RopePrecision::kF32) {
    compute_sglang<float>(c, f);
  } else {
    compute_sglang<double>(c, f);
  }
}

}  // namespace posenc::rope::detail::engine
