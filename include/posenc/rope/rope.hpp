#pragma once
/// Rotary position embedding (RoFormer, Su et al. 2021) and its context-extension methods,
/// computed the way each reference implementation computes them:
///   hf   — Hugging Face transformers `modeling_rope_utils.py` + `LlamaRotaryEmbedding`
///          (float32 inv_freq and angles, half-split layout by default);
///   meta — meta-llama `precompute_freqs_cis` / `apply_scaling` (complex interleaved form);
///   ggml — ggml-cpu `ggml_rope_cache_init` / `rope_yarn` and llama.cpp's setup
///          (iterated float32 theta_scale, always-rounded YaRN correction range);
///   vllm, vllm-0.6, sglang, trtllm, mlx — the serving engines (rope_conventions() names the
///          release and commit each one reproduces; docs/engines.md gives the formulas).
/// θ_i = b^(−2i/d) for pair i of the rotary width d; position t rotates pair i by t·θ_i.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace posenc::rope {

/// Which dimensions form a rotated pair. interleaved: pair i = (2i, 2i+1) (RoFormer, Meta,
/// GPT-J, ggml NORMAL); half: pair i = (i, i + d/2) (GPT-NeoX, Hugging Face `rotate_half`).
enum class RopeLayout { kInterleaved, kHalf };
/// Context-extension method (Hugging Face `rope_type`; "none" is HF's "default", accepted as an alias).
enum class RopeScaling { kNone, kLinear, kNtk, kDynamic, kYarn, kLlama3, kLongrope, kProportional };
/// Whose arithmetic and defaults to reproduce (rope_conventions() describes each).
enum class RopeConvention { kHf, kMeta, kGgml, kVllm, kVllm06, kSglang, kTrtllm, kMlx };

/// One row of the convention registry: the name --convention takes, the implementation and the
/// release/commit it reproduces, and what it does; feeds the CLI choices, help, `posenc list`
/// and docs.
struct RopeConventionInfo {
  std::string_view name;
  std::string_view engine;   ///< "vLLM", "transformers", ...
  std::string_view version;  ///< release and commit reproduced
  std::string_view description;
};
/// Every convention, in enum order.
const std::vector<RopeConventionInfo>& rope_conventions();
const RopeConventionInfo& rope_convention_info(RopeConvention c);
/// True for the serving engines (vllm, vllm-0.6, sglang, trtllm, mlx).
bool is_engine_convention(RopeConvention c);
/// f32 emulates the references' float32 tensor arithmetic; f64 computes the formulas in double.
enum class RopePrecision { kF32, kF64 };

std::string_view to_string(RopeLayout v);
std::string_view to_string(RopeScaling v);
std::string_view to_string(RopeConvention v);
std::string_view to_string(RopePrecision v);
/// Parse a name; throws Error "<what> must be one of a, b or c (got 'x')".
RopeLayout parse_rope_layout(std::string_view s, std::string_view what = "--layout");
RopeScaling parse_rope_scaling(std::string_view s, std::string_view what = "--scaling");
RopeConvention parse_rope_convention(std::string_view s, std::string_view what = "--convention");
RopePrecision parse_rope_precision(std::string_view s, std::string_view what = "--precision");
const std::vector<std::string>& rope_layout_names();
const std::vector<std::string>& rope_scaling_names();
/// The names --scaling accepts: rope_scaling_names() and "default", transformers' rope_type for
/// plain RoPE (an alias of "none").
const std::vector<std::string>& rope_scaling_choices();
const std::vector<std::string>& rope_convention_names();
const std::vector<std::string>& rope_precision_names();

/// One resolved setting and where it came from, for `posenc rope` to print.
struct RopeSetting {
  std::string name;    ///< posenc name, e.g. "base"
  std::string value;   ///< as text
  std::string source;  ///< "flag --base", "config.json rope_theta", "default", "derived: ..."
  /// The config.json field(s) it was read from, quoted (`"rope_theta"`, `"hidden_size" /
  /// "num_attention_heads"`); empty for flags, defaults and values derived from other settings.
  std::string field = {};
};

/// Every setting that decides a RoPE table. Optional fields are "absent" (as in a config.json
/// that lacks the key); each method then applies its reference's default.
struct RopeConfig {
  std::int64_t head_dim = 64;                   ///< width of one attention head
  std::int64_t rotary_dim = 64;                 ///< rotated width d (even, ≤ head_dim)
  double partial_rotary_factor = 1.0;           ///< rotary_dim = int(head_dim × factor) unless given
  /// The rotated dims are the last rotary_dim of the head, not the first (DeepSeek-V4's
  /// [nope | rope] heads); only the notes say it: frequencies and tables are the same.
  bool rotary_dims_trailing = false;
  /// Dims of the query/key head before the rotated part, for the pair table's labels: MLA's
  /// qk_nope_head_dim (DeepSeek-V2/V3, whose head here is the rotary part q_pe/k_pe alone,
  /// concatenated after the nope part); rotary_dims_trailing adds head_dim − rotary_dim itself.
  std::int64_t rotary_offset = 0;
  /// DeepSeek-V4 (model_type deepseek_v4): which of its two ropes this is, "main" (sliding_attention
  /// layers) or "compress" (the compressed layers); "" for other models. The serving engines build
  /// the two ropes from the file's YaRN settings in their own way (rope_engines_v4.cpp).
  std::string deepseek_v4_rope;
  /// The file's YaRN settings (rope_scaling of type yarn), kept on both DeepSeek-V4 ropes.
  struct FileYarn {
    double factor = 1;
    std::int64_t original = 0;
    std::optional<double> beta_fast, beta_slow;
  };
  std::optional<FileYarn> deepseek_v4_file_yarn;
  double base = 10000.0;                        ///< rope_theta
  RopeLayout layout = RopeLayout::kHalf;
  RopeScaling scaling = RopeScaling::kNone;
  std::optional<double> factor;                 ///< scaling factor s
  std::int64_t original_max_position_embeddings = 0;  ///< L_orig, 0 = absent
  std::int64_t max_position_embeddings = 0;     ///< 0 = absent
  /// Top-level `original_max_position_embeddings` of a config.json (Phi-3 style), 0 = absent.
  /// llama.cpp's converter reads only this one for llama3 (default 8192).
  std::int64_t top_level_original_max_position_embeddings = 0;
  /// false: a setting of the --hf-config file that this method does not read is neither warned
  /// about nor listed as ignored (posenc extrapolate compares methods other than the model's own
  /// on its config); typed flags still are.
  bool warn_unread_config_settings = true;
  std::int64_t seq_len = 0;                     ///< current length (dynamic, longrope), 0 = absent
  /// Context the engine is started with (vLLM --max-model-len, TensorRT-LLM max_seq_len,
  /// llama.cpp -c); 0 = the engine's default.
  std::int64_t max_model_len = 0;
  std::optional<double> beta_fast, beta_slow;   ///< YaRN ramp ends, in rotations
  std::optional<double> mscale, mscale_all_dim; ///< YaRN (DeepSeek) magnitude scales
  std::optional<double> attention_factor;       ///< explicit cos/sin multiplier
  std::optional<bool> truncate;                 ///< YaRN: round the correction range
  double low_freq_factor = 1.0;                 ///< llama3
  double high_freq_factor = 4.0;                ///< llama3
  std::vector<double> short_factor, long_factor;  ///< longrope, rotary_dim/2 each
  RopeConvention convention = RopeConvention::kHf;
  RopePrecision precision = RopePrecision::kF32;
  bool apply_attention_factor = true;           ///< multiply cos/sin by it, as HF does
  std::string model_type;                       ///< config.json model_type ("" = none)
  /// The layout the model's transformers class rotates q/k with (its family's, see
  /// posenc/models/family.hpp); --convention hf uses it. Empty = not known from a model.
  std::optional<RopeLayout> model_layout;
  std::string model_layout_source;              ///< why, for the settings list
  /// The layout of the cos/sin tensor transformers' rotary module returns, when it differs from
  /// model_layout: DeepSeek-V3 and GLM return cat(freqs, freqs) (half) and re-pair q/k instead.
  std::optional<RopeLayout> hf_table_layout;
  /// For --convention ggml, from llama.cpp's architecture table (models::set_llama_arch_facts): the
  /// layout of the rope type llama.cpp runs this model_type with (none: NORM), the why for the
  /// settings list, and whether the architecture is deepseek2 (its YaRN mscale rule).
  std::optional<RopeLayout> ggml_model_layout;
  std::string ggml_layout_note;
  bool ggml_deepseek2 = false;
  std::string config_file;                      ///< the config.json read ("" = flags only), for messages
  std::string config_scope;                     ///< where its model fields are: "" or "text_config."
  std::string config_scaling = "rope_scaling.";  ///< its scaling dict ("rope_parameters.", ...)
  /// Read from a GGUF file (rope_gguf.hpp), for convention ggml: the per-pair divisors of its
  /// rope_freqs.weight tensor (empty = none), and rope.scaling.attn_factor, which llama.cpp
  /// multiplies into the attention factor (for longrope it is the whole factor).
  std::vector<double> gguf_freq_factors;
  std::optional<double> gguf_attn_factor;
  std::shared_ptr<const struct RopeGgufSource> gguf;  ///< the file's header summary, or null
  std::vector<RopeSetting> sources;             ///< resolved values and their origin
  std::vector<std::string> notes;               ///< remarks found while resolving
  /// Problems of the file's settings found while reading it (a rope_scaling key transformers
  /// does not recognise, "type" contradicting "rope_type"): compute_frequencies copies them
  /// to RopeFrequencies::warnings, first.
  std::vector<std::string> file_warnings;

  /// Original (pre-extension) context: original_max_position_embeddings, else
  /// max_position_embeddings, else 0.
  std::int64_t original_length() const;
  /// How messages name a setting: `PATH: "rope_theta"` when it was read from the config file
  /// (`PATH: "hidden_size" / "num_attention_heads"` for a derived head dim), else "--base".
  std::string label(std::string_view name) const;
  /// The quoted config field `key` inside the scaling dict (`in_scaling`) or at the model
  /// level: `"rope_scaling.factor"`, `"text_config.max_position_embeddings"`.
  std::string field(std::string_view key, bool in_scaling) const;
  /// How messages name a required setting that is absent: with a config file
  /// `PATH: "rope_scaling.original_max_position_embeddings" (or --original-max-position-embeddings)`,
  /// else `--original-max-position-embeddings`.
  std::string absent(std::string_view flag, std::string_view key, bool in_scaling) const;
  /// "rope_type yarn" when the method came from the config file, else "--scaling yarn".
  std::string method_label() const;
  /// Records (or replaces) the value and source of a setting (`field`: see RopeSetting).
  void set_source(std::string name, std::string value, std::string source, std::string field = {});
};

/// What a method does to one pair.
enum class RopeRegime {
  kUnchanged,     ///< θ' = θ (extrapolated / high frequency)
  kInterpolated,  ///< θ' = θ / s (fully position-interpolated)
  kBlended,       ///< between the two (YaRN ramp, llama3 medium band); see blend
  kRescaled,      ///< changed another way (NTK base change, LongRoPE per-pair factor)
  kZero,          ///< θ' = 0 (proportional / p-RoPE tail pair): no rotation
};
std::string_view to_string(RopeRegime r);

/// YaRN correction range over pair indices (corr_dim(β) = d·ln(L/(2πβ))/(2 ln b)).
struct YarnRange {
  double beta_fast = 32, beta_slow = 1;  ///< as used (after HF's `or 32` / `or 1`)
  double low_raw = 0, high_raw = 0;      ///< corr_dim(beta_fast), corr_dim(beta_slow)
  double low = 0, high = 0;              ///< after rounding (if truncating) and clamping
  bool truncated = true;
};

/// Pair counts of the llama3 bands.
struct Llama3Bands {
  int unchanged = 0, smoothed = 0, divided = 0;
  double high_freq_wavelen = 0, low_freq_wavelen = 0;  ///< L/high, L/low
  std::int64_t original_length = 0;
};

/// The frequencies a configuration produces, with everything the report explains.
struct RopeFrequencies {
  std::vector<double> inv_freq_original;  ///< unscaled θ_i (pairs = rotary_dim/2)
  std::vector<double> inv_freq;           ///< after scaling
  std::vector<RopeRegime> regime;
  /// Weight of the original frequency in a blend: 1 unchanged, 0 interpolated, in between for
  /// blended pairs; NaN where a method does not blend.
  std::vector<double> blend;
  double attention_factor = 1.0;  ///< multiplies cos and sin; logits scale by its square
  double factor = 1.0;            ///< scaling factor used (1 when none)
  double base = 10000.0;          ///< base used (changed by ntk/dynamic)
  std::int64_t original_length = 0;
  std::optional<YarnRange> yarn;
  std::optional<Llama3Bands> llama3;
  std::string longrope_list;      ///< "short" or "long"
  // ggml's per-position recipe (convention ggml only).
  double ggml_theta_scale = 0;
  double ggml_freq_scale = 1;
  double ggml_ext_factor = 0;
  double ggml_corr_dims[2] = {0, 0};
  double ggml_attn_factor = 1;      ///< attn_factor passed to ggml
  double ggml_internal_mscale = 1;  ///< 1 + 0.1 ln(1/freq_scale) when ext_factor ≠ 0
  std::vector<double> ggml_freq_factors;  ///< per pair, empty = none
  // Serving engines (vllm, sglang, trtllm, mlx); the defaults describe transformers.
  /// Rows of the engine's cos/sin cache; 0 = no cache (cos/sin computed per call).
  std::int64_t cache_len = 0;
  bool cache_grows = false;         ///< the engine extends the cache on demand
  std::int64_t admitted_len = 0;    ///< longest sequence the engine admits (its max_model_len), 0 = not modelled
  double logit_scale = 1.0;         ///< extra factor on the attention logits (DeepSeek's softmax mscale²), 1 = none
  std::string attention_placement = "cos/sin";  ///< where attention_factor is applied
  /// The engine's angle: (position_scale·t / position_divisor)·θ_held in float32 (vLLM/SGLang
  /// linear keep θ and divide the positions; MLX linear multiplies them). inv_freq is then the
  /// effective θ_held·position_scale/position_divisor.
  double position_divisor = 1.0, position_scale = 1.0;
  std::vector<double> inv_freq_held;  ///< θ as the engine holds it (empty = inv_freq)
  bool attention_in_f64 = false;      ///< cos·factor in double, then float (TensorRT-LLM LongRoPE)
  /// LongRoPE's short‖long cache read past its short part (vLLM 0.6, SGLang): a position t ≥
  /// overflow_from indexes the long cache at row t − overflow_from, angle (t − overflow_from)·θ_long.
  std::int64_t overflow_from = 0;
  std::vector<double> overflow_inv_freq;
  /// Where the engine departs from transformers at these lengths, one cause per entry with the
  /// engine's issue where one is known (for `posenc rope engines`).
  std::vector<std::string> deviations;
  std::vector<std::string> warnings;     ///< where implementations read a setting differently
  /// Values the method derived rather than read (the factor from the length ratio, the attention
  /// factor and the rule that gave it, ...), with how: shown with the resolved settings.
  std::vector<RopeSetting> derived;

  std::size_t pairs() const { return inv_freq.size(); }
};

/// Validates `c` and computes its frequencies in its convention and precision.
/// Throws Error for settings a user can fix (naming the flag or config.json field).
RopeFrequencies compute_frequencies(const RopeConfig& c);

/// YaRN's corr_dim(n_rot) = d·ln(L/(2π·n_rot)) / (2·ln b): the (fractional) pair index whose
/// wavelength fits n_rot times into L. Computed in double.
double yarn_correction_dim(double n_rot, std::int64_t dim, double base, std::int64_t length);

/// get_mscale(s, m) = 1 if s ≤ 1 else 0.1·m·ln(s) + 1 (YaRN paper's √(1/t)).
double yarn_get_mscale(double scale, double mscale = 1.0);

/// Per-pair rotation angles, cosines and sines at one position, computed as the convention
/// does (float32 products for hf/meta f32, ggml's iterated theta). cos/sin include the
/// attention factor when `c.apply_attention_factor`.
struct RopePairValues {
  std::vector<double> angle, cos, sin;
};
RopePairValues rope_pair_values(const RopeConfig& c, const RopeFrequencies& f, std::int64_t position);

}  // namespace posenc::rope
