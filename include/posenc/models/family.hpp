#pragma once
/// The model families posenc knows: for each Hugging Face `model_type` spelling, the
/// transformers config class whose defaults fill fields a config.json leaves out, the layout
/// the model class rotates q/k with, and the position mechanisms the family can use.
/// Read from transformers' configuration_*.py and modeling_*.py (docs/models.md names the
/// release or commit of each).
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace posenc::models {

/// A way a model tells positions apart.
enum class Mechanism {
  kRope,        ///< rotary (RoFormer), per layer type
  kNope,        ///< layers with no position encoding (Llama 4, SmolLM3, Cohere2 full attention)
  kMla,         ///< DeepSeek/MiniCPM3 multi-head latent attention: only a slice of each head rotates
  kMrope,       ///< multimodal RoPE sections (Qwen2-VL, Qwen2.5-VL, Qwen3-VL)
  kAlibi,       ///< linear biases (BLOOM, MPT, Falcon-RW)
  kT5,          ///< T5 relative position buckets
  kDeberta,     ///< DeBERTa relative position buckets
  kLearned,     ///< a trained absolute table (GPT-2, OPT, BERT, RoBERTa, Whisper decoder)
  kSinusoidal,  ///< a fixed sinusoidal table (Marian, M2M100, Whisper encoder)
  kMixer,       ///< a layer that is not attention (linear attention, conv, recurrent, Mamba): no positions
  kNoPositions, ///< attention with no position signal at all (Jamba's and Nemotron-H's attention layers)
  kLearnedGrid, ///< a trained 2-D patch table, with or without a class-token row (ViT, CLIP, SigLIP, DINOv2)
  kConvolutional, ///< a grouped convolution over the sequence (Wav2Vec2, HuBERT): nothing to tabulate
  kAxialRope,   ///< 2-D RoPE over patch rows and columns (Pixtral, DINOv3 vision towers)
};
std::string_view to_string(Mechanism m);

/// How the model class pairs the dimensions it rotates (as transformers' modeling code does).
enum class Rotation {
  kNone,         ///< no rotary embedding
  kHalf,         ///< rotate_half: pair i = (i, i + d/2)
  kInterleaved,  ///< adjacent pairs (2i, 2i+1): Cohere, Cohere2, GLM, GLM-4, Llama 4, GPT-J, DeepSeek
};

/// One field of a config class and its default, as JSON text ("256", "1000000.0", "true").
struct ClassDefault {
  std::string_view key;
  std::string_view json;
};

struct Family {
  std::string_view model_type;    ///< the config class's model_type ("gemma3_text")
  std::string_view aliases;       ///< other spellings that mean it, comma separated ("gemma3")
  std::string_view name;          ///< for people ("Gemma 3")
  std::string_view config_class;  ///< "Gemma3TextConfig"
  std::string_view source;        ///< transformers file(s) read, with commit
  Rotation rotation = Rotation::kNone;
  /// transformers' rotary module returns cos/sin in this layout when it differs from
  /// `rotation` (DeepSeek-V3 and GLM build cat(freqs, freqs) and permute or re-pair q/k);
  /// kNone when the table is laid out as `rotation`.
  Rotation hf_table = Rotation::kNone;
  std::vector<Mechanism> mechanisms;  ///< those the family can use (a config may switch one on)
  std::vector<ClassDefault> defaults;
  std::string_view summary;  ///< one line: what the family uses and where
};

/// Every family, in the order docs/models.md lists them.
const std::vector<Family>& families();

/// The family of a model_type (any spelling in model_type or aliases); nullptr when unknown.
const Family* find_family(std::string_view model_type);

}  // namespace posenc::models
