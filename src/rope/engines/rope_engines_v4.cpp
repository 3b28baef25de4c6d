// DeepSeek-V4's two ropes (model_type deepseek_v4) in the serving engines. Each engine builds them in
// its DeepSeek-V4 model file, not through its generic rope factory, so the generic DeepSeek YaRN
// (mscale ratio, softmax × mscale²) does not apply:
//   vLLM         vllm/model_executor/models/deepseek_v4.py @023da1fc (DeepseekV4Attention.__init__): when
//                the file's rope_scaling is not default, rope_type deepseek_yarn on the rope of EVERY layer,
//                over compress_rope_theta on compressed layers and rope_theta on the others, with mscale
//                and mscale_all_dim set to 0 (cos/sin unscaled); softmax scale head_dim^-0.5; the
//                DeepSeek YaRN class builds original × factor cache rows.
//   vLLM 0.6     no DeepSeek-V4 model.
//   SGLang       python/sglang/srt/models/deepseek_v4.py @000328a8 (MQALayer) and
//                layers/deepseek_v4_rope.py @130a4070 (precompute_freqs_cis): YaRN only on compressed
//                layers (original_seq_len 0 on the others), the blend freqs/factor·(1 − smooth) +
//                freqs·smooth, torch.polar of magnitude 1, max_position_embeddings rows.
//   TensorRT-LLM tensorrt_llm/_torch/models/modeling_deepseekv4.py @02586bf0
//                (_deepseek_v4_pos_embd_params): yarn with mscale = mscale_all_dim = 0 on compressed
//                layers ("does not scale the cos/sin amplitudes"), no scaling on the others.
//   MLX-LM       mlx_lm/models/deepseek_v4.py @014a10b2 (DeepseekV4RoPE, V4Attention): rope_scaling only
//                on compressed layers, the same blend as SGLang, cos/sin unscaled, computed per call.
// transformers (DeepseekV4Config @decba1d2) builds the main rope unscaled and the compress rope with
// YaRN and attention_factor 1.
#include "rope_engine_internal.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "posenc/error.hpp"

namespace posenc::rope::detail::engine {

bool deepseek_v4_model(const RopeConfig& c) { return c.model_type == "deepseek_v4"; }

namespace {

/// SGLang's precompute_freqs_cis and MLX-LM's DeepseekV4RoPE: freqs = 1/b^(2j/d) in T, then
/// freqs/s·(1 − smooth) + freqs·smooth with smooth = 1 − clamp((j − low)/(high − low), 0, 1) over the
/// rounded range (floor, ceil, clamped to [0, d − 1]).
template <class T>
void v4_blend(const RopeConfig& c, RopeFrequencies& f, const Yarn& y) {
  const std::size_t n = pair_count(c);
  const YarnRange r = engine_yarn_range(c, y);  // y.truncate: file_yarn rounds, as these engines do
  f.yarn = r;
  f.factor = y.factor;
  f.original_length = y.original;
  double high = r.high;
  if (r.low == high) high += 0.001;
  const T b = static_cast<T>(c.base), d = static_cast<T>(c.rotary_dim), s = static_cast<T>(y.factor);
  f.inv_freq.assign(n, 0.0);
  f.inv_freq_original.assign(n, 0.0);
  f.blend.assign(n, 1.0);
  f.regime.assign(n, RopeRegime::kUnchanged);
  for (std::size_t j = 0; j < n; ++j) {
    const T freq = T(1) / std::pow(b, static_cast<T>(2 * j) / d);
    const T smooth = T(1) - std::clamp((static_cast<T>(j) - static_cast<T>(r.low)) / static_cast<T>(high - r.low), T(0), T(1));
    f.inv_freq[j] = static_cast<double>(freq / s * (T(1) - smooth) + freq * smooth);
    f.inv_freq_original[j] = static_cast<double>(freq);
    f.blend[j] = static_cast<double>(smooth);
    f.regime[j] = smooth == T(1) ? RopeRegime::kUnchanged : smooth == T(0) ? RopeRegime::kInterpolated : RopeRegime::kBlended;
  }
}

Yarn file_yarn(const RopeConfig::FileYarn& y) {
  Yarn out;
  out.factor = y.factor;
  out.original = y.original;
  out.beta_fast = y.beta_fast.value_or(32.0);
  out.beta_slow = y.beta_slow.value_or(1.0);
  out.truncate = true;
  return out;
}

/// The compress rope's YaRN as the engines read it from the config (rope_scaling of the compress rope).
Yarn compress_yarn(const RopeConfig& c) {
  Yarn y;
  y.factor = indexed_factor(c);
  y.original = indexed_original(c);
  y.beta_fast = c.beta_fast.value_or(32.0);
  y.beta_slow = c.beta_slow.value_or(1.0);
  y.truncate = true;  // every engine's DeepSeek-V4 code rounds the range (floor / ceil)
  return y;
}

template <class T>
void compute_v4(const RopeConfig& c, RopeFrequencies& f) {
  if (c.convention == RopeConvention::kVllm06)
    throw Error("vLLM 0.6 has no DeepSeek-V4 model (model_type deepseek_v4): --convention vllm is the vLLM "
                "that runs it");
  if (c.scaling != RopeScaling::kNone && c.scaling != RopeScaling::kYarn)
    throw Error(fmt::format("{}'s DeepSeek-V4 model builds YaRN or unscaled ropes only (got {})", name(c),
                            c.method_label()));
  const std::size_t n = pair_count(c);
  const std::int64_t m = c.max_position_embeddings;
  f.inv_freq_original = hf_inv_freq<T>(c.base, c.rotary_dim, n);
  f.inv_freq = f.inv_freq_original;
  f.attention_factor = 1.0;  // no engine scales DeepSeek-V4's cos/sin (mscale 0 or none)
  f.logit_scale = 1.0;       // softmax scale head_dim^-0.5 in every engine
  const bool yarn = c.scaling == RopeScaling::kYarn;
  switch (c.convention) {
    case RopeConvention::kVllm: {
      // One rope_parameters dict for every layer: deepseek_yarn whenever the file's rope_scaling is yarn.
      if (yarn) {
        const Yarn y = compress_yarn(c);
        torch_yarn<T>(c, f, y);
        f.cache_len = rows(static_cast<double>(y.original) * y.factor);
      } else if (c.deepseek_v4_rope == "main" && c.deepseek_v4_file_yarn) {
        const Yarn y = file_yarn(*c.deepseek_v4_file_yarn);
        torch_yarn<T>(c, f, y);
        f.cache_len = rows(static_cast<double>(y.original) * y.factor);
        f.deviations.push_back(fmt::format(
            "YaRN (factor {}, original {}) over rope_theta {} on these sliding_attention layers too, where "
            "transformers, SGLang, TensorRT-LLM and MLX-LM leave the main rope unscaled: deepseek_v4.py @023da1fc "
            "sets rope_type deepseek_yarn on every layer's rope",
            y.factor, y.original, c.base));
      } else {
        f.cache_len = m;
      }
      break;
    }
    case RopeConvention::kSglang:
      // precompute_freqs_cis(seqlen = max_position_embeddings): a fixed table, YaRN on compressed layers only.
      if (yarn) v4_blend<T>(c, f, compress_yarn(c));
      f.cache_len = m;
      break;
    case RopeConvention::kTrtllm:
      if (yarn) torch_yarn<T>(c, f, compress_yarn(c));  // RopeParams yarn, mscale = mscale_all_dim = 0
      break;
    case RopeConvention::kMlx:
      if (yarn) v4_blend<T>(c, f, compress_yarn(c));  // computed per call: no cache
      break;
    default: break;
  }
  compare_with_hf(c, f, "", "");
  if (!yarn)  // transformers' main rope has no original context: "original context ... where transformers uses" is noise
    std::erase_if(f.deviations, [](const std::string& d) { return d.starts_with("original context "); });
}

}  // namespace

void deepseek_v4_frequencies(const RopeConfig& c, RopeFrequencies& f) {
  if (c.precision == RopePrecision::kF32) {
    compute_v4<float>(c, f);
  } else {
    compute_v4<double>(c, f);
  }
}

}  // namespace posenc::rope::detail::engine
