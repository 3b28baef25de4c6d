#pragma once
/// Did a llama.cpp conversion keep a model's positions? Compares a config.json (as transformers
/// reads it) with the GGUF converted from it (as llama.cpp reads it): (a) the keys and frequency
/// tensors llama.cpp's converter should have written for this architecture, and (b) the effect:
/// per-pair inverse frequency and attention factor, transformers' against llama.cpp's, at a
/// context within and one above the original length. Each disagreement is a finding with its
/// likely cause.
#include <cstdint>
#include <string>
#include <vector>

#include "posenc/params.hpp"
#include "posenc/rope/rope.hpp"

namespace posenc::models {

/// Stored frequency-factor tensors (rope_freqs, LongRoPE lists) equal the config's rule when
/// within this many float32 ulps: llama.cpp's converter evaluates the llama3 rule in float32
/// torch, another converter in float64 differs by up to 3 ulps (Llama 3.1, pair 33). A larger
/// difference is a finding when it moves inv_freq by more than --tol, else a note.
inline constexpr int kFactorUlps = 8;

struct GgufFinding {
  std::string what;      ///< short name: "rope.freq_base", "rope_freqs.weight", "inv_freq"
  std::string where;     ///< the key, tensor element or pair and context
  std::string expected;  ///< from the config.json (transformers / the converter's rule)
  std::string found;     ///< in the GGUF (llama.cpp)
  std::string cause;     ///< the likely cause, with its llama.cpp issue when known
  bool error = true;     ///< false: a difference by the converter's design, reported only
};

struct GgufEffect {
  std::int64_t context = 0;        ///< sequence length / llama.cpp -c
  std::size_t pairs = 0;
  double max_rel_inv_freq = 0;     ///< max over pairs of |b - a| / |a|
  std::size_t worst_pair = 0;
  double attention_a = 1, attention_b = 1;  ///< cos/sin multipliers
  /// Extra softmax factors: DeepSeek's mscale² in transformers, llama.cpp deepseek2's kq_scale mscale².
  double logit_a = 1, logit_b = 1;
  std::string list_a, list_b;      ///< LongRoPE list used ("" when none)
};

/// The layers that transformers and llama.cpp run with the same pair of ropes: every layer of
/// the model falls in exactly one group. A side without RoPE on these layers (NoPE) has
/// `rope_a`/`rope_b` false and no numbers.
struct GgufLayerGroup {
  std::string type_a;                 ///< the config's layer type ("" when every layer is alike)
  std::string type_b;                 ///< llama.cpp's: "", "full_attention" or "sliding_attention"
  bool rope_a = true, rope_b = true;  ///< false: no RoPE on these layers on that side
  std::vector<std::int64_t> layers;   ///< 0-based
  double base_a = 0, base_b = 0;
  std::string scaling_a, scaling_b;   ///< "none", "linear", "yarn", ... ("" without RoPE)
  double factor_a = 1, factor_b = 1;
  std::vector<GgufEffect> effects;    ///< both rotate: the effect at the compared contexts
};

struct GgufCheck {
  std::string expected_architecture;  ///< from the config's model_type ("" when unknown)
  std::vector<GgufFinding> findings;
  std::vector<GgufEffect> effects;    ///< the primary (full-attention) rope
  std::int64_t num_layers = 0;        ///< 0 when the per-layer check did not run (no config file)
  std::vector<GgufLayerGroup> layer_groups;
  double tol = 0;
  /// No error finding and every effect within tol.
  bool ok() const;
};

/// `hf`: a config.json resolved with convention hf; `gguf`: a .gguf resolved (gguf set).
/// `max_model_len`: the context above the original length to compare at (0 = the larger of
/// max_position_embeddings and twice the original length). `tol`: relative for inv_freq and the
/// logit scale, absolute for the attention factor. A file llama.cpp refuses to load is a
/// finding; stored factor tensors are compared within kFactorUlps float32 ulps.
/// Then every layer (when `hf` came from a config file): the config's layer plan
/// (models::read_layer_plan: layer types, NoPE layers, per-layer-type ropes) against llama.cpp's
/// (models::gguf_layers: the sliding-window split, rope.freq_base_swa and the SWA scale, NoPE
/// layers) and the M-RoPE sections (mrope_section against rope.dimension_sections): each
/// difference is a finding naming the key, the config field, both values and the layers it
/// affects. `side_a`: the parameters that gave `hf` (rope diff's side a, flags included), so the
/// other layer types resolve with them; null = the config file alone.
GgufCheck check_gguf_conversion(const rope::RopeConfig& hf, const rope::RopeConfig& gguf, std::int64_t max_model_len, double tol,
                                const ParamMap* side_a = nullptr);

}  // namespace posenc::models
