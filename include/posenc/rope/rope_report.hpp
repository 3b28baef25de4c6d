#pragma once
/// What a RoPE configuration does to each frequency pair (`posenc rope`), and how two
/// configurations or conventions differ (`posenc rope diff`). Computing only; the CLI formats.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "posenc/rope/rope.hpp"

namespace posenc::rope {

/// One frequency pair.
struct RopePairRow {
  std::size_t index = 0;
  /// The two dimensions it rotates, in the config's layout, counted in the query/key head:
  /// rotary_dim_offset(config) added (the dims before the rotated part).
  std::int64_t dim_a = 0, dim_b = 0;
  double inv_freq_original = 0, inv_freq = 0;
  double wavelength_original = 0, wavelength = 0;  ///< 2π/θ (infinite for θ = 0)
  double turns_original = 0;  ///< full turns within the original context: L_orig·θ/2π (NaN if L_orig unknown)
  double turns_target = 0;    ///< full turns within the target length with the scaled θ'
  RopeRegime regime = RopeRegime::kUnchanged;
  double blend = 1;  ///< weight of the original frequency (NaN where a method does not blend)
};

/// The rope of one layer type of a model (Gemma 3's sliding layers, ...).
struct LayerTypeRope {
  std::string layer_type;            ///< "sliding_attention"
  std::vector<std::int64_t> layers;  ///< 0-based layers of this type
  double base = 0;
  std::string scaling;               ///< rope_type ("none" = transformers' "default")
  double factor = 1;
  double attention_factor = 1;
  std::vector<double> inv_freq;
};

/// Dims of the query/key head before the rotated part: head_dim − rotary_dim when the rotated
/// dims are the last ones (DeepSeek-V4's [nope | rope] heads), else config.rotary_offset (MLA's
/// qk_nope_head_dim), else 0.
std::int64_t rotary_dim_offset(const RopeConfig& c);

/// What the pair table's dims count, when they do not start at the head's dim 0; "" otherwise.
std::string rotary_dims_note(const RopeConfig& c);

struct RopeReport {
  RopeConfig config;
  /// With a model config (filled by posenc/models/model_ropes.hpp): the layer type reported
  /// ("" = the primary rope), every layer type's rope when the types differ (primary first),
  /// and the 0-based layers with no RoPE.
  std::string layer_type;
  std::vector<LayerTypeRope> per_layer_type;
  std::vector<std::int64_t> no_rope_layers;
  RopeFrequencies freqs;
  std::int64_t original_length = 0;  ///< L_orig used for "turns in training" (0 = not set)
  /// --seq-len, else max_position_embeddings, else factor × L_orig, else L_orig (0 = not set);
  /// dynamic: max(--seq-len, max_position_embeddings), where its frequencies are evaluated.
  std::int64_t target_length = 0;
  std::string original_source, target_source;  ///< where each length came from ("" when not set)
  /// longrope: why freqs.longrope_list was chosen ("no --seq-len: ..."); "" for other methods.
  std::string longrope_list_source;
  std::vector<RopePairRow> rows;
  /// Added to every row's dims: rotary_dim_offset(config).
  std::int64_t dim_offset = 0;
  /// Every factor on the attention logits: attention_factor² (q and k are both scaled) × the
  /// engine's extra softmax factor freqs.logit_scale.
  double logit_scale = 1;
  std::size_t never_full_turn = 0;    ///< pairs with fewer than one turn within L_orig
  std::size_t unchanged = 0, interpolated = 0, blended = 0, rescaled = 0, zero = 0;
  /// Bounds of the literature (rope_bounds.hpp), set by add_rope_bounds: the critical dimension
  /// for the training length (original_max_position_embeddings, else max_position_embeddings) and
  /// the smallest base for the context max_position_embeddings, both over the rotary width;
  /// nullopt when the length is not set (or the context is beyond kMaxMinBaseLength).
  std::optional<std::int64_t> critical_dimension;
  std::int64_t critical_dimension_length = 0;
  std::optional<double> min_base;
  std::int64_t min_base_length = 0;
};

/// Fills r.critical_dimension and r.min_base from r.config (a scan of up to about a second at
/// 2^21 positions: `posenc rope` asks for it, other reports do not).
void add_rope_bounds(RopeReport& r);

/// Builds the report (throws Error like compute_frequencies).
RopeReport make_rope_report(const RopeConfig& c);

/// Largest differences between two configurations over positions [0, len).
struct RopeDiff {
  std::size_t pairs = 0;
  double inv_freq_max_abs = 0, inv_freq_max_rel = 0;
  std::size_t inv_freq_worst_pair = 0;
  double attention_a = 1, attention_b = 1;
  double cos_max_abs = 0, sin_max_abs = 0;
  std::int64_t table_worst_position = 0;
  std::size_t table_worst_pair = 0;
  bool same_layout = true;  ///< cos/sin are compared pair by pair, whatever the layouts
  std::vector<double> inv_freq_rel;   ///< per pair: |θa − θb| / max(|θa|, |θb|) (0 when both are 0)
  std::vector<double> table_max_abs;  ///< per pair: max over positions of |Δcos| and |Δsin|

  /// True when inv_freq (relative), attention factor and cos/sin (absolute) are within tol.
  bool within(double tol) const;
};

/// Compares a and b (which must have the same number of pairs) over positions [0, len).
RopeDiff compare_rope(const RopeConfig& a, const RopeConfig& b, std::int64_t len);

}  // namespace posenc::rope
