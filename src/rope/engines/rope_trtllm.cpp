// TensorRT-LLM (PyTorch backend): RopeParams.from_config (_torch/attention_backend/interface.py,
// stored @000a01de) reads the config with its own defaults (factor 1.0, low 1, high 4,
// original_max_position_embeddings from the top level, then rope_scaling, then 1024, beta 32/1,
// mscale 1.0, mscale_all_dim 0.0; truncate and attention_factor are not read) and builds a
// float2 (cos, sin) table of max_position_embeddings rows with RopeEmbeddingUtils
// (tensorrt_llm/functional.py; numpy float64 powers cast to float32, torch float32 for YaRN).
// Dynamic NTK is recomputed per request in the attention kernels (update_rotary_base_n_scale:
// base·__powf(s·L/M − (s − 1), d/(d−2)) once the KV length L exceeds M).
#include "rope_engine_internal.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "posenc/error.hpp"

namespace posenc::rope::detail::engine {
namespace {

/// `scale / (theta ** (np.arange(0, dim, 2) / dim)).astype(float32)`: the power in float64,
/// cast to float32, the division in float32 (NumPy 2 keeps a Python scalar weak).
template <class T>
std::vector<double> numpy_inv_freq(double base, std::int64_t dim, std::size_t n, double scale) {
  std::vector<double> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const T p = static_cast<T>(std::pow(base, static_cast<double>(2 * i) / static_cast<double>(dim)));
    out[i] = static_cast<double>(static_cast<T>(scale) / p);
  }
  return out;
}

std::int64_t original_or_1024(const RopeConfig& c, RopeFrequencies& f) {
  if (c.original_max_position_embeddings > 0) return c.original_max_position_embeddings;
  f.warnings.push_back("trtllm: no original_max_position_embeddings: RopeParams.from_config uses 1024");
  return 1024;
}

template <class T>
void compute_trtllm(const RopeConfig& c, RopeFrequencies& f) {
  const std::size_t n = pair_count(c);
  const std::int64_t m = c.max_position_embeddings;  // RopeParams.max_positions (0: unknown here)
  for (const auto& s : c.sources)  // rope_params.dim = rotary_dim or rotary_emb_base or ...
    if (s.name == "base" && s.field.find("rotary_emb_base") != std::string::npos && c.rotary_dim == c.head_dim)
      throw Error(fmt::format("{}: TensorRT-LLM's RopeParams.from_config takes rotary_emb_base ({}) as the rotary "
                              "dimension (`rotary_dim or rotary_emb_base or ...`); --convention trtllm cannot model it",
                              c.config_file.empty() ? "config" : c.config_file, c.base));
  const double factor = c.factor.value_or(1.0);
  f.inv_freq_original = numpy_inv_freq<T>(c.base, c.rotary_dim, n, 1.0);
  f.inv_freq = f.inv_freq_original;
  // The table has max_position_embeddings rows; since NVIDIA/TensorRT-LLM#14241 it is capped to
  // max_seq_len and grown on demand (#13662).
  f.cache_len = c.max_model_len > 0 && m > 0 ? std::min(m, c.max_model_len) : m;
  f.cache_grows = true;
  std::string attention_cause, longrope_cause;
  switch (c.scaling) {
    case RopeScaling::kNone: break;
    case RopeScaling::kLinear:
      f.factor = factor;
      f.inv_freq = numpy_inv_freq<T>(c.base, c.rotary_dim, n, 1.0 / factor);
      break;
    case RopeScaling::kDynamic: {
      max_position(c);
      // Kernel: L = the request's KV length (--seq-len); above M the base is updated in float.
      f.factor = factor;
      f.cache_len = 0;
      f.cache_grows = false;
      const std::int64_t len = c.seq_len;
      if (len > m) {
        const T b = static_cast<T>(factor) * static_cast<T>(len) / static_cast<T>(m) - (static_cast<T>(factor) - T(1));
        const T p = static_cast<T>(c.rotary_dim) / static_cast<T>(c.rotary_dim - 2);
        f.base = static_cast<double>(static_cast<T>(c.base) * std::pow(b, p));
      }
      const T base = static_cast<T>(f.base);
      for (std::size_t i = 0; i < n; ++i)  // invFreq = scale / powf(base, zid / (float)dim), scale 1
        f.inv_freq[i] = static_cast<double>(T(1) / std::pow(base, static_cast<T>(2 * i) / static_cast<T>(c.rotary_dim)));
      break;
    }
    case RopeScaling::kYarn: {
      Yarn y;
      y.factor = factor;
      y.original = original_or_1024(c, f);
      y.beta_fast = c.beta_fast.value_or(32.0);
      y.beta_slow = c.beta_slow.value_or(1.0);
      y.truncate = true;  // create_sinusoidal_positions_yarn: floor/ceil always
      torch_yarn<T>(c, f, y);
      const double mscale = c.mscale.value_or(1.0), all = c.mscale_all_dim.value_or(0.0);
      f.attention_factor = yarn_get_mscale(factor, mscale) / yarn_get_mscale(factor, all);
      attention_cause = "TensorRT-LLM takes get_mscale(s, mscale)/get_mscale(s, mscale_all_dim) with defaults 1 and 0 "
                        "and reads no attention_factor";
      if (deepseek_model(c) && all != 0.0) {  // modeling_deepseekv3: softmax_scale × mscale²
        const double sm = yarn_get_mscale(factor, all);
        f.logit_scale = sm * sm;
      }
      if (c.truncate && !*c.truncate)
        f.deviations.push_back("rounds the YaRN correction range: truncate: false is not read (RopeParams)");
      if (c.original_max_position_embeddings <= 0)
        f.deviations.push_back("original context 1024: original_max_position_embeddings absent, RopeParams.from_config falls back to 1024");
      break;
    }
    case RopeScaling::kLlama3: {
      // apply_llama3_scaling over the float32 inv_freq above; RopeParams always passes its own values.
      const std::int64_t original = original_or_1024(c, f);
      if (c.original_max_position_embeddings <= 0)
        f.deviations.push_back("original context 1024: original_max_position_embeddings absent, RopeParams.from_config falls back to 1024");
      llama3_scaling(c, f, factor, c.low_freq_factor, c.high_freq_factor, original);
      break;
    }
    case RopeScaling::kLongrope: {
      max_position(c);
      // create_sinusoidal_positions_long_rope: inv_freq = 1/b^(2i/d) (float32), then ÷ the list
      // chosen once from max_seq_len: long when it is None or exceeds the original length.
      const std::int64_t original = original_or_1024(c, f);
      const bool use_long = c.max_model_len <= 0 || c.max_model_len > original;
      longrope_cause = c.max_model_len <= 0
                           ? std::string("chosen once from max_seq_len (not given: long)")
                           : fmt::format("chosen once from max_seq_len {} {} {}", c.max_model_len,
                                         use_long ? ">" : "≤", original);
      f.longrope_list = use_long ? "long" : "short";
      const auto& ext = use_long ? c.long_factor : c.short_factor;
      const T b = static_cast<T>(c.base);
      for (std::size_t i = 0; i < n; ++i) {
        const T inv = T(1) / std::pow(b, static_cast<T>(2 * i) / static_cast<T>(c.rotary_dim));
        f.inv_freq_original[i] = static_cast<double>(inv);
        f.inv_freq[i] = static_cast<double>(inv / static_cast<T>(ext[i]));
      }
      attention_cause = longrope_length_scale(c, f, m, original);
      f.attention_in_f64 = true;
      f.cache_len = std::max(m, original);
      f.cache_grows = false;
      break;
    }
    default: break;
  }
  compare_with_hf(c, f, attention_cause, longrope_cause);
}

}  // namespace

void trtllm_frequencies(const RopeConfig& c, RopeFrequencies& f) {
  if (c.precision == RopePrecision::kF32) {
    compute_trtllm<float>(c, f);
  } else {
    compute_trtllm<double>(c, f);
  }
}

}  // namespace posenc::rope::detail::engine
