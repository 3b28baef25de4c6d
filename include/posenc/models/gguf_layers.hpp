#pragma once
/// Which rope each layer of a GGUF file rotates with, as llama.cpp decides it: the
/// sliding-window layers (set_swa_pattern of gemma2, gemma3, cohere2, olmo2, gpt-oss, exaone4)
/// with their base (rope.freq_base_swa or the architecture's default) and scale, the layers
/// without RoPE (llama4 and smollm3 every 4th layer; cohere2 and hybrid exaone4 on their
/// full-attention layers) and the M-RoPE sections. One source for `posenc model FILE.gguf` and
/// the conversion check of `rope diff`.
/// Rules: ggml-org/llama.cpp @ 81ff7abe50b95fb81cc70a6cdba1eb1a02a48f62, load_hparams per
/// architecture and src/models/*.cpp (../shared/reference/gguf.md §2.1, §2.3, §3).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "posenc/rope/rope.hpp"

namespace posenc::formats {
struct GgufFile;
}

namespace posenc::models {

/// The layers of one llama.cpp rope and its settings.
struct GgufLayerRope {
  std::string layer_type;            ///< "" (every layer alike), "full_attention" or "sliding_attention"
  rope::RopeConfig rope;             ///< the full layers': gguf_rope_config's; the sliding layers': base and scale swapped
  std::vector<std::int64_t> layers;  ///< 0-based, without the NoPE layers
};

struct GgufLayers {
  std::int64_t num_layers = 0;               ///< block_count
  std::vector<std::string> layer_types;      ///< one per layer when the architecture has sliding layers, else empty
  std::vector<GgufLayerRope> ropes;          ///< full (or "") first, then sliding_attention
  std::vector<std::int64_t> no_rope_layers;  ///< 0-based layers llama.cpp runs without RoPE
  std::string no_rope_source;                ///< llama.cpp's rule for them ("" when none)
  std::optional<std::int64_t> sliding_window;  ///< attention.sliding_window as stored (nullopt: absent)
  std::int64_t window = 0;                   ///< the window llama.cpp uses (n_swa; gemma2 and exaone4 default 4096)
  std::string sliding_rule;                  ///< how llama.cpp splits the layers ("" when it does not)
  std::string swa_base_source, swa_scale_source;  ///< where the sliding layers' base and scale come from
  /// rope.dimension_sections padded to 4 (nullopt: absent); validated like `posenc model`.
  std::optional<std::vector<std::int64_t>> sections;
};

/// The per-layer ropes of a parsed GGUF header; `c` is its gguf_rope_config (the full-attention
/// rope). Throws Error naming the key for a per-layer key of the wrong type or range.
GgufLayers gguf_layers(const formats::GgufFile& f, const rope::RopeConfig& c);

}  // namespace posenc::models
