// The serving-engine conventions: dispatch, the pieces vLLM, SGLang, TensorRT-LLM and MLX-LM
// share, the comparison with transformers' choices, and the per-position values.
#include "rope_engine_internal.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "posenc/error.hpp"
#include "posenc/fast_math.hpp"

namespace posenc::rope::detail {
namespace engine {

std::int64_t rows(double x) { return static_cast<std::int64_t>(std::ceil(x)); }

std::string name(const RopeConfig& c) { return std::string(rope_convention_info(c.convention).engine); }

std::int64_t max_position(const RopeConfig& c) {
  if (c.max_position_embeddings > 0) return c.max_position_embeddings;
  throw Error(fmt::format("{} is required for --convention {}: {}'s model code sizes its cos/sin cache (and "
                          "LongRoPE's attention factor) from config.max_position_embeddings",
                          c.absent("max-position-embeddings", "max_position_embeddings", false), to_string(c.convention),
                          name(c)));
}

double indexed_factor(const RopeConfig& c) {
  if (c.factor) return *c.factor;
  throw Error(fmt::format("{} is required for --convention {} {}: {} indexes rope_scaling[\"factor\"] (a KeyError "
                          "when it is absent)",
                          c.absent("factor", "factor", true), to_string(c.convention), c.method_label(), name(c)));
}

std::int64_t indexed_original(const RopeConfig& c) {
  if (c.original_max_position_embeddings > 0) return c.original_max_position_embeddings;
  throw Error(fmt::format("{} is required for --convention {} {}: {} indexes "
                          "rope_scaling[\"original_max_position_embeddings\"] (a KeyError when it is absent)",
                          c.absent("original-max-position-embeddings", "original_max_position_embeddings", true),
                          to_string(c.convention), c.method_label(), name(c)));
}

bool deepseek_model(const RopeConfig& c) {
  return c.model_type.rfind("deepseek", 0) == 0 || c.model_type == "kimi_k2";
}

YarnRange engine_yarn_range(const RopeConfig& c, const Yarn& y) {
  YarnRange r;
  r.beta_fast = y.beta_fast;
  r.beta_slow = y.beta_slow;
  r.truncated = y.truncate;
  r.low_raw = yarn_correction_dim(y.beta_fast, c.rotary_dim, c.base, y.original);
  r.high_raw = yarn_correction_dim(y.beta_slow, c.rotary_dim, c.base, y.original);
  r.low = y.truncate ? std::floor(r.low_raw) : r.low_raw;
  r.high = y.truncate ? std::ceil(r.high_raw) : r.high_raw;
  r.low = std::max(r.low, 0.0) + 0.0;
  r.high = std::min(r.high, static_cast<double>(c.rotary_dim - 1)) + 0.0;  // clamp at d−1 as the engines do
  return r;
}

template <class T>
void torch_yarn(const RopeConfig& c, RopeFrequencies& f, const Yarn& y) {
  const std::size_t n = pair_count(c);
  const YarnRange r = engine_yarn_range(c, y);
  f.yarn = r;
  f.factor = y.factor;
  f.original_length = y.original;
  double high = r.high;
  if (r.low == high) high += 0.001;
  const T lo = static_cast<T>(r.low), span = static_cast<T>(high - r.low);
  const T b = static_cast<T>(c.base), d = static_cast<T>(c.rotary_dim), s = static_cast<T>(y.factor);
  f.inv_freq.assign(n, 0.0);
  f.inv_freq_original.assign(n, 0.0);
  f.blend.assign(n, 1.0);
  f.regime.assign(n, RopeRegime::kUnchanged);
  for (std::size_t j = 0; j < n; ++j) {
    const T ramp = std::clamp((static_cast<T>(j) - lo) / span, T(0), T(1));
    const T pos = std::pow(b, static_cast<T>(2 * j) / d);
    const T extrap = T(1) / pos, interp = T(1) / (s * pos);
    const T mask = T(1) - ramp;  // × extrapolation_factor 1
    f.inv_freq[j] = static_cast<double>(interp * (T(1) - mask) + extrap * mask);
    f.inv_freq_original[j] = static_cast<double>(extrap);
    f.blend[j] = static_cast<double>(mask);
    f.regime[j] = mask == T(1) ? RopeRegime::kUnchanged : mask == T(0) ? RopeRegime::kInterpolated : RopeRegime::kBlended;
  }
}
template void torch_yarn<float>(const RopeConfig&, RopeFrequencies&, const Yarn&);
template void torch_yarn<double>(const RopeConfig&, RopeFrequencies&, const Yarn&);

template <class T>
std::vector<double> longrope_inv_freq(const RopeConfig& c, const std::vector<double>& factors) {
  const T b = static_cast<T>(c.base), d = static_cast<T>(c.rotary_dim);
  std::vector<double> out(factors.size());
  for (std::size_t i = 0; i < factors.size(); ++i)
    out[i] = static_cast<double>(T(1) / (static_cast<T>(factors[i]) * std::pow(b, static_cast<T>(2 * i) / d)));
  return out;
}
template std::vector<double> longrope_inv_freq<float>(const RopeConfig&, const std::vector<double>&);
template std::vector<double> longrope_inv_freq<double>(const RopeConfig&, const std::vector<double>&);

template <class T>
std::string batch_longrope(const RopeConfig& c, RopeFrequencies& f, std::int64_t original, std::int64_t m) {
  const bool use_long = c.seq_len - 1 > original;
  f.longrope_list = use_long ? "long" : "short";
  f.inv_freq = longrope_inv_freq<T>(c, use_long ? c.long_factor : c.short_factor);
  f.cache_len = use_long ? m : original + m;  // short ‖ long, one index space
  if (!use_long) {
    f.overflow_from = original;
    f.overflow_inv_freq = longrope_inv_freq<T>(c, c.long_factor);
    if (c.seq_len - 1 == original)
      f.deviations.push_back(fmt::format("position {} (the last of --seq-len {}) reads row 0 of the long cache: angle "
                                         "0, cos 1, sin 0 (no offset until a position exceeds {})",
                                         original, c.seq_len, original));
  }
  return fmt::format("{} switches the whole batch only when a position exceeds {} (`torch.any(positions > L)`)",
                     name(c), original);
}
template std::string batch_longrope<float>(const RopeConfig&, RopeFrequencies&, std::int64_t, std::int64_t);
template std::string batch_longrope<double>(const RopeConfig&, RopeFrequencies&, std::int64_t, std::int64_t);

std::string longrope_length_scale(const RopeConfig& c, RopeFrequencies& f, std::int64_t m, std::int64_t original) {
  const double scale = static_cast<double>(m) / static_cast<double>(original);
  f.factor = scale;
  f.original_length = original;
  f.attention_factor = scale <= 1.0 ? 1.0 : std::sqrt(1.0 + std::log(scale) / std::log(static_cast<double>(original)));
  return fmt::format("{} derives it from max_position_embeddings / original and reads no attention_factor", name(c));
}

void divided_positions(RopeFrequencies& f, std::int64_t m) {
  f.position_divisor = f.factor;
  f.inv_freq_held = f.inv_freq_original;
  for (auto& v : f.inv_freq) v /= f.factor;
  f.cache_len = rows(static_cast<double>(m) * f.factor);
}

template <class T>
void fixed_dynamic_ntk(const RopeConfig& c, RopeFrequencies& f, std::int64_t m, std::string_view cause) {
  const double s = f.factor, d = static_cast<double>(c.rotary_dim);
  const double max_len = static_cast<double>(m) * s;
  f.base = c.base * std::pow(s * max_len / static_cast<double>(m) - (s - 1.0), d / (d - 2.0));
  f.inv_freq = hf_inv_freq<T>(f.base, c.rotary_dim, f.inv_freq.size());
  f.cache_len = rows(max_len);
  if (const HfChoice hf = hf_choice(c); hf.ok && hf.base != f.base)
    f.deviations.push_back(fmt::format("dynamic NTK at the fixed base {:.6g} for every length where transformers uses "
                                       "{:.6g} {} ({})",
                                       f.base, hf.base, seq_len_text(c), cause));
}
template void fixed_dynamic_ntk<float>(const RopeConfig&, RopeFrequencies&, std::int64_t, std::string_view);
template void fixed_dynamic_ntk<double>(const RopeConfig&, RopeFrequencies&, std::int64_t, std::string_view);

HfChoice hf_choice(const RopeConfig& c) {
  RopeConfig h = c;
  h.convention = RopeConvention::kHf;
  HfChoice out;
  try {
    const auto f = compute_frequencies(h);
    out.ok = true;
    out.attention_factor = f.attention_factor;
    out.base = f.base;
    out.longrope_list = f.longrope_list;
    out.original_length = f.original_length;
    out.inv_freq = f.inv_freq;
  } catch (const Error&) {
  }
  return out;
}

std::string seq_len_text(const RopeConfig& c) {
  return c.seq_len > 0 ? fmt::format("at --seq-len {}", c.seq_len) : std::string("without --seq-len");
}

void compare_with_hf(const RopeConfig& c, RopeFrequencies& f, std::string_view attention_cause,
                     std::string_view longrope_cause) {
  const HfChoice hf = hf_choice(c);
  if (hf.ok && std::abs(hf.attention_factor - f.attention_factor) > 1e-9 * std::abs(hf.attention_factor))
    f.deviations.push_back(fmt::format("attention factor {:.6g} where transformers uses {:.6g}{}{}", f.attention_factor,
                                       hf.attention_factor, attention_cause.empty() ? "" : ": ", attention_cause));
  if (hf.ok && !f.longrope_list.empty() && f.longrope_list != hf.longrope_list)
    f.deviations.push_back(fmt::format("{}_factor where transformers uses {}_factor {}{}{}", f.longrope_list,
                                       hf.longrope_list, seq_len_text(c), longrope_cause.empty() ? "" : ": ",
                                       longrope_cause));
  if (hf.ok && f.longrope_list.empty() && hf.original_length > 0 && f.original_length > 0 &&
      hf.original_length != f.original_length && (f.yarn || f.llama3) &&
      std::none_of(f.deviations.begin(), f.deviations.end(),
                   [](const std::string& d) { return d.find("original_max_position_embeddings") != std::string::npos; }))
    f.deviations.push_back(fmt::format("original context {} where transformers uses {}", f.original_length,
                                       hf.original_length));
  if (f.cache_len > 0 && !f.cache_grows && f.admitted_len > f.cache_len)
    f.deviations.push_back(fmt::format("cos/sin cache of {} rows while the engine admits {} tokens: positions ≥ {} "
                                       "fall outside it",
                                       f.cache_len, f.admitted_len, f.cache_len));
}

template <class T>
T position_column(const RopeFrequencies& f, std::int64_t position) {
  const bool overflow = f.overflow_from > 0 && position >= f.overflow_from;
  T t = static_cast<T>(overflow ? position - f.overflow_from : position);
  if (f.position_divisor != 1.0) t = t / static_cast<T>(f.position_divisor);
  if (f.position_scale != 1.0) t = static_cast<T>(f.position_scale) * t;
  return t;
}
template float position_column<float>(const RopeFrequencies&, std::int64_t);
template double position_column<double>(const RopeFrequencies&, std::int64_t);

const std::vector<double>& held_inv_freq(const RopeFrequencies& f, std::int64_t position) {
  const bool overflow = f.overflow_from > 0 && position >= f.overflow_from;
  return overflow ? f.overflow_inv_freq : f.inv_freq_held.empty() ? f.inv_freq : f.inv_freq_held;
}

}  // namespace engine

void engine_frequencies(const RopeConfig& c, RopeFrequencies& f) {
  if (c.scaling == RopeScaling::kNtk || c.scaling == RopeScaling::kProportional)
    throw Error(fmt::format("--convention {} models rope_type default, linear, dynamic, yarn, llama3 and longrope "
                            "(got '{}')",
                            to_string(c.convention), to_string(c.scaling)));
  // GLM-4.7-Flash runs DeepSeek-V3's attention in transformers; what each engine's glm4_moe_lite model does
  // with a scaled rope (DeepSeek's YaRN or the generic one) was not read.
  if (c.model_type == "glm4_moe_lite" && c.scaling != RopeScaling::kNone)
    throw Error(fmt::format("posenc has not read {}'s GLM-4.7-Flash (glm4_moe_lite) model for a scaled rope ({}); "
                            "--convention hf gives transformers' values",
                            engine::name(c), c.method_label()));
  if (engine::deepseek_v4_model(c)) {
    engine::deepseek_v4_frequencies(c, f);
    return;
  }
  switch (c.convention) {
    case RopeConvention::kVllm: engine::vllm_frequencies(c, f, false); break;
    case RopeConvention::kVllm06: engine::vllm_frequencies(c, f, true); break;
    case RopeConvention::kSglang: engine::sglang_frequencies(c, f); break;
    case RopeConvention::kTrtllm: engine::trtllm_frequencies(c, f); break;
    case RopeConvention::kMlx: engine::mlx_frequencies(c, f); break;
    default: break;
  }
}

namespace {

template <class T>
RopePairValues values_engines(const RopeConfig& c, const RopeFrequencies& f, std::int64_t position) {
  const std::size_t n = f.pairs();
  RopePairValues v{std::vector<double>(n), std::vector<double>(n), std::vector<double>(n)};
  const T t = engine::position_column<T>(f, position);
  const auto& held = engine::held_inv_freq(f, position);
  const double att = c.apply_attention_factor ? f.attention_factor : 1.0;
  // float32: cos and sin of the float angle taken in double and rounded, a chunk at a time
  // (sincos_f32_exact: the same bits as std::cos/std::sin, vectorised).
  constexpr std::size_t kChunk = 256;
  float angles[kChunk], coss[kChunk], sins[kChunk];
  for (std::size_t i = 0; i < n; ++i) {
    const T angle = t * static_cast<T>(held[i]);
    T cs, sn;
    if constexpr (std::is_same_v<T, float>) {
      if (i % kChunk == 0) {
        const std::size_t m = std::min(kChunk, n - i);
        for (std::size_t j = 0; j < m; ++j) angles[j] = t * static_cast<T>(held[i + j]);
        sincos_f32_exact(angles, m, sins, coss);
      }
      cs = coss[i % kChunk];
      sn = sins[i % kChunk];
    } else {
      cs = std::cos(angle);
      sn = std::sin(angle);
    }
    v.angle[i] = static_cast<double>(angle);
    if (f.attention_in_f64) {  // numpy: float32 cos times a float64 scalar, cast back at the end
      v.cos[i] = static_cast<double>(static_cast<T>(static_cast<double>(cs) * att));
      v.sin[i] = static_cast<double>(static_cast<T>(static_cast<double>(sn) * att));
    } else {
      v.cos[i] = static_cast<double>(cs * static_cast<T>(att));
      v.sin[i] = static_cast<double>(sn * static_cast<T>(att));
    }
  }
  return v;
}

}  // namespace

RopePairValues engine_pair_values(const RopeConfig& c, const RopeFrequencies& f, std::int64_t position) {
  return c.precision == RopePrecision::kF32 ? values_engines<float>(c, f, position) : values_engines<double>(c, f, position);
}

}  // namespace posenc::rope::detail
