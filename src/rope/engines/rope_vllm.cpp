// vLLM's rotary embeddings (vllm/model_executor/layers/rotary_embedding/): get_rope
// (__init__.py @07b12f1b) maps rope_parameters onto one class per rope_type; each builds a
// float32 cos/sin cache once at start (base.py @072d10a0) that positions index.
//   vllm:     current main: LongRoPE list fixed by max_model_len (phi3_long_rope_scaled_rope.py
//             @63c2b7ab, #27431), dynamic NTK unscaled (#41277), YaRN honours truncate.
//   vllm-0.6: before those changes: LongRoPE per batch (rotary_embedding.py @d3a24513), dynamic
//             NTK at b·(s²−s+1)^(d/(d−2)) (dynamic_ntk_scaling_rope.py @50feac95), YaRN range
//             always rounded (common.py @1593f0c1).
#include "rope_engine_internal.hpp"

#include <fmt/format.h>

#include <cmath>

#include "posenc/error.hpp"

namespace posenc::rope::detail::engine {
namespace {

/// vLLM's default max_model_len (config.py _get_and_verify_max_len, as quoted in
/// vllm-project/vllm#55910): max_position_embeddings, scaled by the factor for every rope_type
/// but longrope and llama3 (yarn: original_max_position_embeddings × factor).
std::int64_t default_max_model_len(const RopeConfig& c, std::int64_t m) {
  if (!c.factor || c.scaling == RopeScaling::kNone || c.scaling == RopeScaling::kLongrope ||
      c.scaling == RopeScaling::kLlama3)
    return m;
  if (c.scaling == RopeScaling::kYarn && c.original_max_position_embeddings > 0)
    return rows(static_cast<double>(c.original_max_position_embeddings) * *c.factor);
  return rows(static_cast<double>(m) * *c.factor);
}

template <class T>
void compute_vllm(const RopeConfig& c, RopeFrequencies& f, bool v06) {
  const std::size_t n = pair_count(c);
  // The model files pass config.max_position_embeddings as the cache length (0: unknown here).
  const std::int64_t m = c.max_position_embeddings;
  f.inv_freq_original = hf_inv_freq<T>(c.base, c.rotary_dim, n);
  f.inv_freq = f.inv_freq_original;
  f.cache_len = m;
  f.admitted_len = c.max_model_len > 0 ? c.max_model_len : default_max_model_len(c, m);
  std::string attention_cause, longrope_cause;
  switch (c.scaling) {
    case RopeScaling::kNone: break;
    case RopeScaling::kLinear: {
      // linear_scaling_rope.py: t = arange(M·s) / s against the unscaled inv_freq.
      f.factor = indexed_factor(c);
      divided_positions(f, m);
      break;
    }
    case RopeScaling::kDynamic: {
      max_position(c);
      f.factor = indexed_factor(c);
      if (v06) {
        // max_len = M·s; base·((s·max_len/M) − (s − 1))^(d/(d−2)): the length is always M·s.
        fixed_dynamic_ntk<T>(c, f, m, "vllm-project/vllm#3488, #5093: static, not dynamic");
      } else {
        // #41277: base·(s·max_position/max_trained_positions − (s − 1))^(d/(d−2)) with both
        // lengths max_position_embeddings for decoder models: the base is unchanged.
        f.cache_len = m;
        if (const HfChoice hf = hf_choice(c); hf.ok && hf.base != f.base)
          f.deviations.push_back(fmt::format("no NTK scaling (base {:.6g}) where transformers uses base {:.6g} {} "
                                             "(vllm-project/vllm#41236, #41277)",
                                             f.base, hf.base, seq_len_text(c)));
      }
      break;
    }
    case RopeScaling::kYarn: {
      Yarn y;
      y.factor = indexed_factor(c);
      y.original = indexed_original(c);
      y.beta_fast = c.beta_fast.value_or(32.0);
      y.beta_slow = c.beta_slow.value_or(1.0);
      const bool deepseek = deepseek_model(c);
      // Current YaRNScalingRotaryEmbedding takes truncate (vllm-project/vllm#28244); the
      // DeepSeek class and older vLLM always round the range.
      y.truncate = (v06 || deepseek) ? true : c.truncate.value_or(true);
      torch_yarn<T>(c, f, y);
      f.cache_len = rows(static_cast<double>(y.original) * y.factor);
      if (deepseek) {
        // deepseek_v2.py rewrites yarn to deepseek_yarn: mscale 1 and mscale_all_dim 0 by default,
        // no truthiness test; the softmax scale gets get_mscale(s, mscale_all_dim)².
        const double mscale = c.mscale.value_or(1.0), all = c.mscale_all_dim.value_or(0.0);
        f.attention_factor = yarn_get_mscale(y.factor, mscale) / yarn_get_mscale(y.factor, all);
        const double sm = yarn_get_mscale(y.factor, all);
        f.logit_scale = sm * sm;
        attention_cause = "deepseek_yarn takes get_mscale(s, mscale)/get_mscale(s, mscale_all_dim) without "
                          "transformers' truthiness test";
      } else {
        f.attention_factor = yarn_get_mscale(y.factor);  // × attn_factor (1): mscale keys are not forwarded
        attention_cause = "vLLM's YaRN drops mscale, mscale_all_dim and attention_factor "
                          "(vllm-project/vllm#48621)";
      }
      if (c.truncate && !*c.truncate && y.truncate)
        f.deviations.push_back("rounds the YaRN correction range: truncate: false is not read here");
      break;
    }
    case RopeScaling::kLlama3: {
      const std::int64_t original = indexed_original(c);
      llama3_scaling(c, f, indexed_factor(c), c.low_freq_factor, c.high_freq_factor, original);
      break;
    }
    case RopeScaling::kLongrope: {
      max_position(c);
      const std::int64_t original = indexed_original(c);
      if (v06) {
        longrope_cause = batch_longrope<T>(c, f, original, m) + " (vllm-project/vllm#6283)";
      } else {
        const bool use_long = f.admitted_len > original;
        longrope_cause = fmt::format("chosen once from max_model_len {} {} {} (vllm-project/vllm#27431)",
                                     f.admitted_len, use_long ? ">" : "≤", original);
        f.longrope_list = use_long ? "long" : "short";
        f.inv_freq = longrope_inv_freq<T>(c, use_long ? c.long_factor : c.short_factor);
        f.cache_len = use_long ? m : original;  // positions index the long part with an offset of L
      }
      attention_cause = longrope_length_scale(c, f, m, original);
      break;
    }
    default: break;
  }
  compare_with_hf(c, f, attention_cause, longrope_cause);
  if (c.scaling == RopeScaling::kDynamic && !v06 && f.admitted_len > f.cache_len && !f.deviations.empty())
    f.deviations.back() += " (vllm-project/vllm#55910)";
  f.warnings.push_back(fmt::format("{}: the cos/sin cache is cast to the model dtype (bf16/fp16) at start; these "
                                   "values are its float32 source",
                                   to_string(c.convention)));
}

}  // namespace

void vllm_frequencies(const RopeConfig& c, RopeFrequencies& f, bool v06) {
  if (c.precision == RopePrecision::kF32) {
    compute_vllm<float>(c, f, v06);
  } else {
    compute_vllm<double>(c, f, v06);
  }
}

}  // namespace posenc::rope::detail::engine
