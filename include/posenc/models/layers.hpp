#pragma once
/// Which layers of a model rotate with which RoPE: layer types (Gemma 2/3 sliding and global,
/// Cohere2, gpt-oss), per-layer-type rope settings (Gemma 3's rope_local_base_freq, transformers'
/// per-layer-type rope_parameters) and layers without RoPE (Llama 4 and SmolLM3
/// no_rope_layers, Cohere2's full-attention layers), as the transformers classes build them.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "posenc/rope/rope.hpp"

namespace posenc::models {

struct LayerPlan {
  std::int64_t num_layers = 0;           ///< 0 when the config does not say and the class has no default
  std::vector<std::string> layer_types;  ///< one per layer; empty when every layer is alike
  std::string layer_types_source;        ///< "config.json layer_types", "derived: ..." ("" when empty)
  /// The distinct layer types whose rope differs or that carry none, primary (full_attention)
  /// first; empty when every layer rotates alike.
  std::vector<std::string> rope_types;
  std::vector<std::int64_t> no_rope_layers;  ///< 0-based layers without RoPE
  std::string no_rope_source;                ///< where no_rope_layers came from ("" when none)
  std::vector<std::string> nope_types;       ///< layer types without RoPE (Cohere2: full_attention)
  /// Layers that are not attention (linear attention, short convolution, recurrent block, Mamba,
  /// an MLP-only block): no position signal (Qwen3-Next, Jamba, Nemotron-H, Falcon Mamba).
  std::vector<std::int64_t> mixer_layers;
  std::vector<std::string> mixer_types;  ///< their layer types ("linear_attention", "mamba")
  std::string mixer_source;              ///< which code runs them, and where the rule is
  /// Attention layers with no position signal at all: no RoPE, no table, no bias (Jamba, Nemotron-H).
  std::vector<std::int64_t> unpositioned_layers;
  std::vector<std::string> unpositioned_types;
  std::string unpositioned_source;
};

/// The layers that rotate: every layer but the NoPE, mixer and unpositioned ones (all layers
/// when the plan has no layer count: an empty list then means every layer).
std::vector<std::int64_t> rope_layers(const LayerPlan& plan);

/// The layer plan of a config.json (or model folder). Throws Error like read_hf_config.
LayerPlan read_layer_plan(const std::string& path);
LayerPlan parse_layer_plan(const std::string& json_text, const std::string& file);

/// The RoPE settings of the layers of type `layer_type` ("" = the primary rope, as
/// read_hf_config). Throws Error naming --layer-type and the model's layer types for a type
/// the model does not have, or one whose layers carry no RoPE.
/// `option` names the file in messages ("--hf-config", "--config-a").
rope::RopeConfig read_layer_type_config(const std::string& path, const std::string& layer_type,
                                             std::string_view option = "--hf-config");
rope::RopeConfig parse_layer_type_config(const std::string& json_text, const std::string& file,
                                              const std::string& layer_type);

/// The 0-based layers whose type is `layer_type` (every layer when the plan has no types).
std::vector<std::int64_t> layers_of_type(const LayerPlan& plan, const std::string& layer_type);

/// The layers of `layer_type` that rotate (layers_of_type without NoPE, mixer and unpositioned layers).
std::vector<std::int64_t> rope_layers_of_type(const LayerPlan& plan, const std::string& layer_type);

/// "0-4, 6-10, 12": a sorted index list as ranges.
std::string layer_ranges(const std::vector<std::int64_t>& layers);

}  // namespace posenc::models
