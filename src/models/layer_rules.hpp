#pragma once
// The per-layer rules of the families whose layers differ (internal): which layers are not
// attention (mixers), which attention layers carry no position signal, and the rope each layer
// type builds, as each transformers config class and model class decide them
// (transformers decba1d2, 5.16.0.dev0; the family's `source` in families.cpp names the files).
#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hf_scope.hpp"
#include "posenc/models/layers.hpp"
#include "posenc/rope/rope.hpp"

namespace posenc::models::detail {

/// The layer types a family derives when the file has no layer_types (Qwen3-Next's
/// full_attention_interval, Jamba's attn_layer_period/offset, Nemotron-H's
/// hybrid_override_pattern, ...); false when the family has no such rule. Sets
/// plan.layer_types, layer_types_source and (for Nemotron-H) num_layers.
bool derive_family_layer_types(const HfScope& s, LayerPlan& plan, const std::string& file);

/// Marks the family's mixer layers, attention layers without positions and NoPE layers in `plan`
/// (its layer_types already read): Qwen3-Next linear_attention, Jamba/Nemotron-H Mamba and
/// attention, EXAONE 4 global NoPE, Muse Glimmer's layer_rope_theta == 0.
void mark_family_layers(const HfScope& s, LayerPlan& plan);

/// How a family builds the rope of one layer type when the file has no per-type
/// rope_parameters entry for it: the fields to set on the scope before reading it as a plain
/// config, and where each came from.
struct TypeRope {
  std::optional<nlohmann::json> theta;  ///< rope_theta of the type (absent: the scope's own)
  std::string theta_source;             ///< "config.json local_rope_theta", "class default (...)"
  std::string theta_field;              ///< the field as quoted in sources ("\"local_rope_theta\"")
  bool drop_scaling = false;            ///< the type is built with rope_type default
  std::string scaling_source;           ///< why, when drop_scaling
  std::optional<std::int64_t> head_dim;  ///< Gemma 4's global_head_dim on full layers
  std::string head_dim_source;
  /// The whole rope_parameters entry the config class builds for the type (DeepSeek-V4's main
  /// and compress): set as the scope's rope_parameters after erasing `erase` (rope_scaling,
  /// legacy keys the class consumes), instead of theta / drop_scaling.
  std::optional<nlohmann::json> rope_parameters;
  std::vector<std::string> erase;
  struct Origin {
    std::string source, field;  ///< "config.json rope_scaling.factor", "\"rope_scaling.factor\""
  };
  /// Where each key of `rope_parameters` came from: a setting read from
  /// "rope_parameters.KEY" is relabelled with it.
  std::map<std::string, Origin> key_origin;
  bool rotary_dims_trailing = false;  ///< DeepSeek-V4 rotates the last rotary_dim dims of each head
  /// DeepSeek-V4: "main" or "compress", and the file's YaRN settings (for the serving engines).
  std::string deepseek_v4_rope;
  std::optional<rope::RopeConfig::FileYarn> file_yarn;
  std::vector<std::string> notes;
};

/// The family's rule for `layer_type`; nullopt when the family builds every rope type from the
/// scope as it is (or has no per-type rule).
std::optional<TypeRope> family_type_rope(const HfScope& s, const std::string& layer_type);

/// DeepSeek-V4 (layer_rules_v4.cpp): its layer types from the legacy compress_ratios or the
/// class's default schedule, and the main / compress rope of each layer type.
bool deepseek_v4_layer_types(const HfScope& s, LayerPlan& plan, const std::string& file);
std::optional<TypeRope> deepseek_v4_type_rope(const HfScope& s, const std::string& layer_type);

/// MiniMax, LFM2 and RecurrentGemma (layer_rules_mixers.cpp): their layer types when the file has
/// none (MiniMaxConfig's alternation, Lfm2Config's full_attn_idxs, RecurrentGemma's block_types),
/// their mixer layers (lightning attention, short convolutions, recurrent blocks) and the one rope of
/// their attention layers (all head_dim dims: the file's rotary_dim / partial_rotary_factor unread).
bool is_mixer_rope_family(const HfScope& s);
bool mixer_family_layer_types(const HfScope& s, LayerPlan& plan, const std::string& file);
void mark_mixer_family_layers(const HfScope& s, LayerPlan& plan);
std::optional<TypeRope> mixer_family_type_rope(const HfScope& s, const std::string& layer_type);

/// True when the family reads each layer type's rope from its own rule (the primary rope of
/// such a model is its first rope type, not the scope read as one plain config).
bool family_has_type_ropes(const HfScope& s);

}  // namespace posenc::models::detail
