#pragma once
// The open files behind a QkModel (qk_weights.hpp): a safetensors checkpoint or a GGUF header,
// and the names of a layer's tensors ("{}" = the layer number).
#include <optional>
#include <string>

#include "posenc/formats/gguf.hpp"
#include "posenc/formats/safetensors.hpp"

namespace posenc::models {

struct QkFiles {
  enum class Kind { kSeparate, kFusedBlocks, kFusedPerHead };
  std::optional<formats::StCheckpoint> st;
  std::optional<formats::GgufFile> gguf;
  Kind kind = Kind::kSeparate;
  std::string prefix;
  std::string q, k;               ///< q and k (fused: q names the fused tensor)
  std::string norm;               ///< input norm gain
  std::string q_norm, k_norm;     ///< per-head q/k norm gains ("" = none)
  std::string q_a, q_a_norm;      ///< MLA with q_lora_rank
  bool gain_plus_one = false;     ///< Gemma's RMSNorm multiplies by 1 + weight
  bool mla = false, mla_lora = false;
  std::int64_t kv_lora_rank = 0;
};

/// Opens a Hugging Face folder (qk_model_hf.cpp) or a GGUF (qk_model_gguf.cpp).
struct QkModel;
QkModel open_hf_qk_model(const std::string& path);
QkModel open_gguf_qk_model(const std::string& path);

}  // namespace posenc::models
