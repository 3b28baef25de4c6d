#pragma once
// Shared pieces of the RoPE implementation (not part of the public API).
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "posenc/rope/rope.hpp"

namespace posenc::rope::detail {

inline constexpr double kPi = 3.14159265358979323846;

/// HF/Meta inverse frequencies 1/b^(2i/norm), i < count, in T arithmetic:
/// `1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))`.
/// The exponent is float(2i)/float(norm); base is cast to T first (a Python scalar meeting a
/// float32 tensor is used as float32).
template <class T>
std::vector<double> hf_inv_freq(double base, std::int64_t norm, std::size_t count) {
  std::vector<double> out(count);
  const T b = static_cast<T>(base);
  const T n = static_cast<T>(norm);
  for (std::size_t i = 0; i < count; ++i) {
    const T e = static_cast<T>(2 * i) / n;
    out[i] = static_cast<double>(T(1) / std::pow(b, e));
  }
  return out;
}

/// Python truthiness of an optional number (None and 0 are false).
inline bool truthy(const std::optional<double>& v) { return v.has_value() && *v != 0.0; }

/// Number of rotated pairs: rotary_dim/2, or head_dim/2 for proportional (p-RoPE keeps the
/// whole head and zeroes the tail frequencies).
std::size_t pair_count(const RopeConfig& c);

/// p-RoPE's rotating pairs: int(partial_rotary_factor · head_dim // 2) (transformers
/// `_compute_proportional_rope_parameters`); the pairs after them get frequency 0.
std::size_t proportional_angles(const RopeConfig& c);

/// The factor a method uses, or throws Error naming the flag/field when it is required.
double required_factor(const RopeConfig& c);

/// The original context a method uses (L_orig): original_max_position_embeddings, else (when
/// `fallback_to_max`) max_position_embeddings; throws Error naming the field or flag when absent.
std::int64_t required_original(const RopeConfig& c, bool fallback_to_max = true);

/// A required setting absent under either of two names, as messages say it: with a config file
/// `PATH: "a" or "b" (or --flag-a)`, else `--flag-a (or --flag-b)`. Each name is {flag, field key,
/// key is in the scaling dict}.
struct SettingName {
  const char* flag;
  const char* key;
  bool in_scaling;
};
std::string either(const RopeConfig& c, SettingName a, SettingName b);

/// "`hi` must be at least `lo` (got x and y)", naming the file once when both come from it.
std::string must_exceed(const RopeConfig& c, const char* hi, double hi_value, const char* lo, double lo_value);

/// Fills regime and blend for pairs a method did not classify: equal → unchanged,
/// θ/s → interpolated, 0 → zero, anything else → rescaled.
void classify_remaining(RopeFrequencies& f);

// One entry point per convention (rope_hf.cpp, rope_meta.cpp, rope_ggml.cpp) and the methods
// they share (rope_yarn.cpp, rope_llama3.cpp).
void hf_frequencies(const RopeConfig& c, RopeFrequencies& f);
void meta_frequencies(const RopeConfig& c, RopeFrequencies& f);
void ggml_frequencies(const RopeConfig& c, RopeFrequencies& f);
void hf_yarn(const RopeConfig& c, RopeFrequencies& f);
/// YaRN's factor: `factor`, or max_position_embeddings / original_max_position_embeddings
/// (recorded in f.derived); throws Error naming the field or flag when neither is there.
double yarn_factor(const RopeConfig& c, RopeFrequencies& f);
void llama3_scaling(const RopeConfig& c, RopeFrequencies& f, double factor, double low_freq_factor,
                    double high_freq_factor, std::int64_t original);
/// llama.cpp convert_hf_to_gguf.py `rope_freqs` tensor: per-pair divisor of θ for llama3.
std::vector<double> gguf_llama3_factors(const RopeConfig& c, std::int64_t original);

/// The mscale llama.cpp uses for YaRN's attention factor (llama-context.cpp): 1 — it reads only
/// mscale_all_dim from the GGUF — except for the architectures it converts as deepseek2
/// (DeepSeek-V2/V3, Kimi, GLM-4 MoE Lite), where mscale_all_dim ≠ 1 is used as mscale too.
double ggml_mscale(const RopeConfig& c);
/// True for the model_types llama.cpp's converter turns into its deepseek2 architecture.
bool ggml_deepseek2_arch(const RopeConfig& c);

/// ggml's per-position values (rope_ggml.cpp).
RopePairValues ggml_pair_values(const RopeConfig& c, const RopeFrequencies& f, std::int64_t position);

/// The serving engines (rope_engines.cpp dispatching to rope_vllm.cpp, rope_sglang.cpp,
/// rope_trtllm.cpp, rope_mlx.cpp) and their per-position values.
void engine_frequencies(const RopeConfig& c, RopeFrequencies& f);
RopePairValues engine_pair_values(const RopeConfig& c, const RopeFrequencies& f, std::int64_t position);

/// Throws Error when the settings made an inv_freq or the attention factor infinite or NaN
/// (naming the setting); warns when frequencies underflow to 0, e.g. under a scaled base that
/// overflowed to inf (rope_checks.cpp).
void check_values(const RopeConfig& c, RopeFrequencies& f);

/// Settings given explicitly (flag or config field) that the method does not read, each with
/// the methods that do: {"attention-factor", "yarn and longrope do"} (rope_warnings.cpp).
std::vector<std::pair<std::string, std::string>> ignored_settings(const RopeConfig& c);

/// Whether the method reads the setting: "beta-fast" only yarn, "low-freq-factor" only llama3
/// and so on; a setting every method reads (dim, base, ...) is read by all (rope_warnings.cpp).
bool method_reads(RopeScaling scaling, std::string_view setting);

/// Notes on settings that implementations read differently (rope_warnings.cpp).
void add_warnings(const RopeConfig& c, RopeFrequencies& f);

}  // namespace posenc::rope::detail
