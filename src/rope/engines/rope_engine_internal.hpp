#pragma once
// Shared pieces of the serving-engine conventions (rope_engines.cpp, rope_vllm.cpp,
// rope_sglang.cpp, rope_trtllm.cpp, rope_mlx.cpp). Not part of the public API.
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "../rope_internal.hpp"
#include "posenc/rope/rope_report.hpp"

namespace posenc::rope::detail::engine {

/// ceil(x) as a row count: torch.arange(x) over a float x has ceil(x) elements.
std::int64_t rows(double x);

/// The engine's name for messages ("vLLM", ...).
std::string name(const RopeConfig& c);

/// max_position_embeddings, which every engine's model code passes as the cache length;
/// throws Error naming the field when the config has none.
std::int64_t max_position(const RopeConfig& c);

/// The factor from the scaling dict; throws Error "<engine> indexes rope_scaling["factor"]" when
/// absent (engines that index the key instead of defaulting it).
double indexed_factor(const RopeConfig& c);

/// original_max_position_embeddings (top level or in the scaling dict); throws Error when absent.
std::int64_t indexed_original(const RopeConfig& c);

/// True when the engine's model code turns rope_type yarn into DeepSeek's YaRN (deepseek_yarn:
/// mscale ratio without truthiness tests, softmax × get_mscale(s, mscale_all_dim)²).
bool deepseek_model(const RopeConfig& c);

/// YaRN settings as an engine resolved them.
struct Yarn {
  double factor = 1;
  std::int64_t original = 0;
  double beta_fast = 32, beta_slow = 1;
  bool truncate = true;
};

/// The correction range of y as transformers' _compute_yarn_parameters finds it: floor/ceil when
/// y.truncate, clamped to [0, rotary_dim − 1].
YarnRange engine_yarn_range(const RopeConfig& c, const Yarn& y);

/// The inverse frequencies of the YaRN blend as the torch code of vLLM, SGLang and TensorRT-LLM
/// computes them (the same tensor operations as transformers): pos = b^(2j/d) in T, extrapolated
/// 1/pos, interpolated 1/(s·pos), ramp over (j − low)/(high − low) with the range rounded when
/// `truncate`. Fills f.inv_freq, f.inv_freq_original, f.yarn, f.blend, f.regime, f.factor.
template <class T>
void torch_yarn(const RopeConfig& c, RopeFrequencies& f, const Yarn& y);

/// LongRoPE's 1/(factor_i · b^(2i/d)) in T (phi3_long_rope_scaled_rope.py, as transformers).
template <class T>
std::vector<double> longrope_inv_freq(const RopeConfig& c, const std::vector<double>& factors);

/// The per-batch LongRoPE of vLLM 0.6 and SGLang: long_factor once a position exceeds
/// `original` (`torch.any(positions > L)`), else short_factor, whose L-row cache is followed by
/// the long one: position L itself reads the long cache's row 0. Sets inv_freq, the list, the
/// overflow and the cache length; returns the cause text for the list.
template <class T>
std::string batch_longrope(const RopeConfig& c, RopeFrequencies& f, std::int64_t original, std::int64_t m);

/// LongRoPE's scale s = M/L from max_position_embeddings M (`m`) and the original length L, and
/// the attention factor vLLM, SGLang, TensorRT-LLM and MLX-LM derive from it without reading
/// attention_factor: √(1 + ln s / ln L), 1 when s ≤ 1 (phi3's scaling_factor default). Sets
/// f.factor, f.original_length and f.attention_factor; returns the cause text for the factor.
std::string longrope_length_scale(const RopeConfig& c, RopeFrequencies& f, std::int64_t m, std::int64_t original);

/// Linear scaling as vLLM and SGLang build it: t = arange(M·s) / s against the unscaled
/// inv_freq (the positions divided by f.factor, θ held). Sets position_divisor, inv_freq_held,
/// inv_freq (the effective θ/s) and the cache length ceil(M·s) for M = `m`.
void divided_positions(RopeFrequencies& f, std::int64_t m);

/// The "dynamic" NTK of vLLM 0.6 and SGLang: one base for the whole cache of M·s rows,
/// b·((s·M·s/M) − (s − 1))^(d/(d−2)), whatever the length (transformers rescales it at the
/// current length). Sets f.base, inv_freq and the cache length; when transformers' base at
/// --seq-len differs, adds the deviation with `cause` (the engine's file or issue).
template <class T>
void fixed_dynamic_ntk(const RopeConfig& c, RopeFrequencies& f, std::int64_t m, std::string_view cause);

/// transformers' attention factor and LongRoPE list and dynamic base at --seq-len, to name
/// where an engine departs from it. Computed with the hf convention on the same settings;
/// nullopt-like NaN when transformers refuses the settings.
struct HfChoice {
  bool ok = false;
  double attention_factor = 1;
  double base = 0;
  std::string longrope_list;
  std::int64_t original_length = 0;
  std::vector<double> inv_freq;
};
HfChoice hf_choice(const RopeConfig& c);

/// "transformers uses short_factor at --seq-len N" and the like, for deviation messages.
std::string seq_len_text(const RopeConfig& c);

/// The cache's position column at `position` as the engine builds it: arange(rows) in T, read
/// from the long cache's row position − overflow_from past the short one (LongRoPE of vLLM 0.6
/// and SGLang), divided by position_divisor (vLLM/SGLang linear), scaled by position_scale (MLX).
template <class T>
T position_column(const RopeFrequencies& f, std::int64_t position);

/// The inverse frequencies the engine multiplies that column by at `position` (the long list
/// past overflow_from, θ_held for divided positions, else inv_freq).
const std::vector<double>& held_inv_freq(const RopeFrequencies& f, std::int64_t position);

/// One convention's cos/sin table against the reference's (transformers') over positions
/// [0, len): compare_engine_tables fills `diff` as rope::compare_rope(reference, *config, len)
/// would (every field; the same maxima and the same first worst position and pair).
struct TableJob {
  const RopeConfig* config = nullptr;
  const RopeFrequencies* freqs = nullptr;
  std::int64_t len = 0;
  RopeDiff diff;
};

/// Fills each job's diff in one pass over the positions (on the worker threads, merged in
/// position order): the reference's float32 cos/sin are computed once per block of positions
/// and every job is compared with them; a job's float32 angle that has the reference's bits
/// reuses its cos and sin. Returns the reference's own float32-vs-float64 noise over [0, len)
/// (max |Δcos|, |Δsin| against `ref64`'s table, as compare_rope(reference, f64 config, len)).
/// Throws Error as compare_rope does when a job has another number of pairs.
double compare_engine_tables(const RopeConfig& reference, const RopeFrequencies& ref_freqs, const RopeConfig& ref64,
                             const RopeFrequencies& ref64_freqs, std::vector<TableJob>& jobs, std::int64_t len);

/// model_type deepseek_v4: each engine builds its two ropes in the model's own file (rope_engines_v4.cpp).
bool deepseek_v4_model(const RopeConfig& c);
void deepseek_v4_frequencies(const RopeConfig& c, RopeFrequencies& f);

// One entry point per engine.
void vllm_frequencies(const RopeConfig& c, RopeFrequencies& f, bool v06);
void sglang_frequencies(const RopeConfig& c, RopeFrequencies& f);
void trtllm_frequencies(const RopeConfig& c, RopeFrequencies& f);
void mlx_frequencies(const RopeConfig& c, RopeFrequencies& f);

/// Shared deviation checks after an engine computed f: attention factor and LongRoPE list
/// against transformers, cache shorter than the admitted context.
void compare_with_hf(const RopeConfig& c, RopeFrequencies& f, std::string_view attention_cause,
                     std::string_view longrope_cause);

}  // namespace posenc::rope::detail::engine
