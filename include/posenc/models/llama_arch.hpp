#pragma once
/// llama.cpp's architectures (GGUF `general.architecture`), the RoPE type llama.cpp's
/// `llama_model_rope_type` assigns to each, and the Hugging Face `model_type` spellings and
/// model classes that llama.cpp's converter (convert_hf_to_gguf.py, `@ModelBase.register`)
/// turns into it. Source: ggml-org/llama.cpp @ 00395eb285c7c6821ff372e3ca41dae9da33c2c7,
/// src/llama-model.cpp `llama_model_rope_type`, src/llama-arch.cpp `LLM_ARCH_NAMES`.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace posenc::models {

/// `enum llama_rope_type` (include/llama.h): how ggml pairs the rotated dimensions.
///   NONE: no RoPE (learned, ALiBi, T5 buckets, recurrent); NORM: pairs (2i, 2i+1);
///   NEOX: pairs (i, i + n_rot/2); MROPE / IMROPE: multi-axis sections with NEOX-style pairs
///   (IMROPE interleaves the sections); VISION: 2-D vision encoders (mmproj files).
enum class LlamaRopeType { kNone, kNorm, kNeox, kMrope, kImrope, kVision };

std::string_view to_string(LlamaRopeType t);

/// One llama.cpp architecture.
struct LlamaArch {
  std::string_view name;         ///< GGUF general.architecture, e.g. "gemma3"
  LlamaRopeType rope;            ///< llama_model_rope_type (see `conditional`)
  std::string_view model_types;  ///< HF config.json model_type spellings, space-separated
  std::string_view hf_classes;   ///< HF `architectures` the converter registers, space-separated
  /// Non-empty when llama.cpp decides at load time: e.g. glm4 is MROPE when
  /// `rope.dimension_sections` is present, else `rope`.
  std::string_view conditional = {};
};

/// Every architecture of llama.cpp's `llama_model_rope_type` switch, in its order.
const std::vector<LlamaArch>& llama_architectures();

/// The architecture named `gguf_arch` (general.architecture), or nullptr.
const LlamaArch* find_llama_arch(std::string_view gguf_arch);

/// The architecture llama.cpp's converter produces for a config.json `model_type`, or nullptr.
const LlamaArch* llama_arch_for_model_type(std::string_view model_type);

/// The position mechanism llama.cpp's graph (src/models/*.cpp) gives `gguf_arch` with `n_layer`
/// blocks when it is not RoPE, whatever llama_model_rope_type says: "alibi" (bloom, refact,
/// jina-bert-v2, mpt, jais; baichuan with 40 layers, i.e. 13B), "t5" (t5, t5encoder),
/// "learned" (gpt2, starcoder, bert: row t of position_embd.weight added to the embeddings;
/// starcoder's NORM and bert's NEOX rope types are never used by their graphs); "" otherwise.
std::string_view llama_non_rope_position(std::string_view gguf_arch, std::int64_t n_layer);

/// True when the rope type rotates pairs (i, i + n_rot/2) (NEOX, MROPE, IMROPE, VISION).
bool rope_type_is_half(LlamaRopeType t);

}  // namespace posenc::models
