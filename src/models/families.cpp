// The model-family table (see family.hpp). Defaults are the transformers config classes'
// __init__ (or dataclass) defaults for the fields that decide positions; rotation is what
// the modeling file's apply_rotary_pos_emb does. Sources: transformers main at the commits
// named in docs/models.md.
#include "posenc/models/family.hpp"

#include <algorithm>

namespace posenc::models {

std::string_view to_string(Mechanism m) {
  switch (m) {
    case Mechanism::kRope: return "rope";
    case Mechanism::kNope: return "nope";
    case Mechanism::kMla: return "mla";
    case Mechanism::kMrope: return "mrope";
    case Mechanism::kAlibi: return "alibi";
    case Mechanism::kT5: return "t5";
    case Mechanism::kDeberta: return "deberta";
    case Mechanism::kLearned: return "learned";
    case Mechanism::kSinusoidal: return "sinusoidal";
    case Mechanism::kMixer: return "mixer";
    case Mechanism::kNoPositions: return "none";
    case Mechanism::kLearnedGrid: return "learned-grid";
    case Mechanism::kConvolutional: return "convolutional";
    case Mechanism::kAxialRope: return "axial-rope";
  }
  return "?";
}

namespace {

using M = Mechanism;
using R = Rotation;

std::vector<Family> make_families() {
  const auto llama_like = [](std::string_view type, std::string_view aliases, std::string_view name,
                             std::string_view cls, std::string_view src, std::vector<ClassDefault> d,
                             std::string_view summary) {
    return Family{type, aliases, name, cls, src, R::kHalf, R::kNone, {M::kRope}, std::move(d), summary};
  };
  return {
      llama_like("llama", "", "Llama 2 / 3 / 3.1 / 3.2", "LlamaConfig", "models/llama/configuration_llama.py",
                 {{"hidden_size", "4096"}, {"num_attention_heads", "32"}, {"rope_theta", "10000.0"},
                  {"max_position_embeddings", "2048"}},
                 "RoPE (rotate_half) in every layer; llama3 scaling from 3.1"),
      {"llama4_text", "llama4", "Llama 4", "Llama4TextConfig", "models/llama4/configuration_llama4.py", R::kInterleaved,
       R::kNone, {M::kRope, M::kNope},
       {{"hidden_size", "5120"}, {"num_attention_heads", "40"}, {"head_dim", "128"}, {"rope_theta", "500000"},
        {"max_position_embeddings", "131072"}, {"no_rope_layer_interval", "4"}, {"attn_temperature_tuning", "true"},
        {"floor_scale", "8192"}, {"attn_scale", "0.1"}, {"num_hidden_layers", "48"}},
       "RoPE (complex, adjacent pairs) in 3 of 4 layers; NoPE layers with query temperature tuning"},
      llama_like("mistral", "", "Mistral / Mistral-Nemo", "MistralConfig", "models/mistral/configuration_mistral.py",
                 {{"hidden_size", "4096"}, {"num_attention_heads", "32"}, {"rope_theta", "10000.0"},
                  {"max_position_embeddings", "131072"}},
                 "RoPE (rotate_half) in every layer"),
      llama_like("mixtral", "", "Mixtral", "MixtralConfig", "models/mixtral/configuration_mixtral.py",
                 {{"hidden_size", "4096"}, {"num_attention_heads", "32"}, {"rope_theta", "1000000.0"},
                  {"max_position_embeddings", "131072"}},
                 "RoPE (rotate_half) in every layer"),
      llama_like("qwen2", "qwen2_moe", "Qwen2 / Qwen2.5", "Qwen2Config", "models/qwen2/configuration_qwen2.py",
                 {{"hidden_size", "4096"}, {"num_attention_heads", "32"}, {"rope_theta", "10000.0"},
                  {"max_position_embeddings", "32768"}},
                 "RoPE (rotate_half) in every layer, the same on sliding-window layers"),
      llama_like("qwen3", "qwen3_moe", "Qwen3", "Qwen3Config", "models/qwen3/configuration_qwen3.py",
                 {{"hidden_size", "4096"}, {"num_attention_heads", "32"}, {"head_dim", "128"}, {"rope_theta", "10000.0"},
                  {"max_position_embeddings", "32768"}},
                 "RoPE (rotate_half) in every layer"),
      {"qwen2_vl", "qwen2_5_vl,qwen2_vl_text,qwen2_5_vl_text", "Qwen2-VL / Qwen2.5-VL", "Qwen2VLTextConfig",
       "models/qwen2_vl/modeling_qwen2_vl.py", R::kHalf, R::kNone, {M::kRope, M::kMrope},
       {{"hidden_size", "8192"}, {"num_attention_heads", "64"}, {"rope_theta", "1000000.0"},
        {"max_position_embeddings", "32768"}},
       "M-RoPE: contiguous sections of the half-layout pairs follow t, h, w"},
      {"qwen3_vl_text", "qwen3_vl,qwen3_vl_moe,qwen3_vl_moe_text", "Qwen3-VL", "Qwen3VLTextConfig",
       "models/qwen3_vl/modeling_qwen3_vl.py", R::kHalf, R::kNone, {M::kRope, M::kMrope},
       {{"hidden_size", "4096"}, {"num_attention_heads", "32"}, {"head_dim", "128"}, {"rope_theta", "5000000.0"},
        {"max_position_embeddings", "128000"}},
       "interleaved M-RoPE: pairs cycle t, h, w"},
      llama_like("gemma", "", "Gemma", "GemmaConfig", "models/gemma/configuration_gemma.py",
                 {{"hidden_size", "3072"}, {"num_attention_heads", "16"}, {"head_dim", "256"}, {"rope_theta", "10000.0"},
                  {"max_position_embeddings", "8192"}},
                 "RoPE (rotate_half) in every layer"),
      {"gemma2", "", "Gemma 2", "Gemma2Config", "models/gemma2/configuration_gemma2.py", R::kHalf, R::kNone, {M::kRope},
       {{"hidden_size", "2304"}, {"num_attention_heads", "8"}, {"head_dim", "256"}, {"rope_theta", "10000.0"},
        {"max_position_embeddings", "8192"}, {"num_hidden_layers", "26"}, {"sliding_window", "4096"}},
       "RoPE in every layer; sliding and global layers alternate with the same rope"},
      {"gemma3_text", "gemma3", "Gemma 3", "Gemma3TextConfig", "models/gemma3/configuration_gemma3.py", R::kHalf,
       R::kNone, {M::kRope},
       {{"hidden_size", "2304"}, {"num_attention_heads", "8"}, {"head_dim", "256"}, {"rope_theta", "1000000.0"},
        {"max_position_embeddings", "131072"}, {"num_hidden_layers", "26"}, {"rope_local_base_freq", "10000.0"},
        {"sliding_window_pattern", "6"}, {"sliding_window", "4096"}},
       "two ropes: sliding layers base 10000 unscaled, global layers rope_theta with rope_scaling"},
      llama_like("phi", "", "Phi-1 / Phi-2", "PhiConfig", "models/phi/configuration_phi.py",
                 {{"hidden_size", "2048"}, {"num_attention_heads", "32"}, {"partial_rotary_factor", "0.5"},
                  {"rope_theta", "10000.0"}, {"max_position_embeddings", "2048"}},
                 "partial RoPE (rotate_half on the first part of each head)"),
      llama_like("phi3", "phimoe", "Phi-3 / Phi-3.5 / Phi-4-mini", "Phi3Config", "models/phi3/configuration_phi3.py",
                 {{"hidden_size", "3072"}, {"num_attention_heads", "32"}, {"rope_theta", "10000.0"},
                  {"max_position_embeddings", "4096"}, {"original_max_position_embeddings", "4096"}},
                 "RoPE (rotate_half), LongRoPE short/long factor lists"),
      {"deepseek_v2", "", "DeepSeek-V2", "DeepseekV2Config", "models/deepseek_v2/modeling_deepseek_v2.py",
       R::kInterleaved, R::kNone, {M::kRope, M::kMla},
       {{"hidden_size", "5120"}, {"num_attention_heads", "128"}, {"qk_rope_head_dim", "64"}, {"qk_nope_head_dim", "128"},
        {"rope_theta", "10000.0"}, {"max_position_embeddings", "2048"}},
       "MLA: RoPE (complex, adjacent pairs) on qk_rope_head_dim of each head"},
      {"deepseek_v3", "kimi_k2", "DeepSeek-V3", "DeepseekV3Config", "models/deepseek_v3/modeling_deepseek_v3.py",
       R::kInterleaved, R::kHalf, {M::kRope, M::kMla},
       {{"hidden_size", "7168"}, {"num_attention_heads", "128"}, {"qk_rope_head_dim", "64"}, {"qk_nope_head_dim", "128"},
        {"rope_theta", "10000.0"}, {"max_position_embeddings", "4096"}, {"rope_interleave", "true"}},
       "MLA: RoPE on qk_rope_head_dim; adjacent pairs (q/k permuted to half before rotate_half)"},
      {"minicpm3", "", "MiniCPM3", "MiniCPM3Config (remote code)", "openbmb/MiniCPM3-4B modeling_minicpm.py",
       R::kHalf, R::kNone, {M::kRope, M::kMla}, {},
       "MLA: RoPE (rotate_half) on qk_rope_head_dim of each head"},
      llama_like("gpt_neox", "", "GPT-NeoX / Pythia", "GPTNeoXConfig", "models/gpt_neox/configuration_gpt_neox.py",
                 {{"hidden_size", "6144"}, {"num_attention_heads", "64"}, {"rotary_pct", "0.25"},
                  {"rotary_emb_base", "10000"}, {"max_position_embeddings", "2048"}},
                 "partial RoPE (rotary_pct of each head, rotate_half)"),
      {"gptj", "", "GPT-J", "GPTJConfig", "models/gptj/modeling_gptj.py", R::kInterleaved, R::kNone, {M::kRope},
       {{"n_embd", "4096"}, {"n_head", "16"}, {"rotary_dim", "64"}, {"n_positions", "2048"}},
       "partial RoPE on rotary_dim dims, adjacent pairs (rotate_every_two)"},
      {"falcon", "RefinedWeb,RefinedWebModel", "Falcon", "FalconConfig", "models/falcon/modeling_falcon.py", R::kHalf,
       R::kNone, {M::kRope, M::kAlibi},
       {{"hidden_size", "4544"}, {"num_attention_heads", "71"}, {"rope_theta", "10000.0"},
        {"max_position_embeddings", "2048"}, {"alibi", "false"}},
       "RoPE (rotate_half), or ALiBi with slopes rounded to bfloat16 when alibi is true (Falcon-RW)"},
      llama_like("stablelm", "", "StableLM", "StableLmConfig", "models/stablelm/configuration_stablelm.py",
                 {{"hidden_size", "2560"}, {"num_attention_heads", "32"}, {"partial_rotary_factor", "0.25"},
                  {"rope_theta", "10000"}, {"max_position_embeddings", "4096"}},
                 "partial RoPE (rotate_half)"),
      {"cohere", "", "Cohere / Command-R", "CohereConfig", "models/cohere/modeling_cohere.py", R::kInterleaved,
       R::kNone, {M::kRope},
       {{"hidden_size", "8192"}, {"num_attention_heads", "64"}, {"rope_theta", "10000.0"},
        {"max_position_embeddings", "8192"}},
       "RoPE on adjacent pairs (repeat_interleave) in every layer"},
      {"cohere2", "", "Cohere2 / Command-R7B / Command-A", "Cohere2Config", "models/cohere2/modeling_cohere2.py",
       R::kInterleaved, R::kNone, {M::kRope, M::kNope},
       {{"hidden_size", "8192"}, {"num_attention_heads", "64"}, {"rope_theta", "10000.0"},
        {"max_position_embeddings", "8192"}, {"num_hidden_layers", "40"}, {"sliding_window_pattern", "4"},
        {"sliding_window", "4096"}},
       "RoPE (adjacent pairs) on sliding-window layers only; full-attention layers have no position encoding"},
      {"glm", "", "GLM", "GlmConfig", "models/glm/modeling_glm.py", R::kInterleaved, R::kHalf, {M::kRope},
       {{"hidden_size", "4096"}, {"num_attention_heads", "32"}, {"head_dim", "128"}, {"partial_rotary_factor", "0.5"},
        {"rope_theta", "10000.0"}, {"max_position_embeddings", "131072"}},
       "partial RoPE on adjacent pairs (the half cos/sin re-paired by repeat_interleave)"},
      {"glm4", "", "GLM-4", "Glm4Config", "models/glm4/modeling_glm4.py", R::kInterleaved, R::kHalf, {M::kRope},
       {{"hidden_size", "4096"}, {"num_attention_heads", "32"}, {"head_dim", "128"}, {"partial_rotary_factor", "0.5"},
        {"rope_theta", "10000.0"}, {"max_position_embeddings", "131072"}},
       "partial RoPE on adjacent pairs (the half cos/sin re-paired by repeat_interleave)"},
      llama_like("olmo2", "olmo", "OLMo / OLMo-2", "Olmo2Config", "models/olmo2/configuration_olmo2.py",
                 {{"hidden_size", "4096"}, {"num_attention_heads", "32"}, {"rope_theta", "10000.0"},
                  {"max_position_embeddings", "2048"}},
                 "RoPE (rotate_half) in every layer"),
      llama_like("granite", "granitemoe", "Granite", "GraniteConfig", "models/granite/configuration_granite.py",
                 {{"hidden_size", "4096"}, {"num_attention_heads", "32"}, {"rope_theta", "10000.0"},
                  {"max_position_embeddings", "2048"}},
                 "RoPE (rotate_half) in every layer"),
      llama_like("starcoder2", "", "StarCoder2", "Starcoder2Config", "models/starcoder2/configuration_starcoder2.py",
                 {{"hidden_size", "3072"}, {"num_attention_heads", "24"}, {"rope_theta", "10000.0"},
                  {"max_position_embeddings", "4096"}},
                 "RoPE (rotate_half) in every layer"),
      {"gpt_oss", "", "gpt-oss", "GptOssConfig", "models/gpt_oss/modeling_gpt_oss.py", R::kHalf, R::kNone, {M::kRope},
       {{"hidden_size", "2880"}, {"num_attention_heads", "64"}, {"head_dim", "64"}, {"rope_theta", "150000.0"},
        {"max_position_embeddings", "131072"}, {"num_hidden_layers", "36"}},
       "YaRN RoPE (halves by chunk) in every layer; sliding and full layers alternate with the same rope"},
      {"smollm3", "", "SmolLM3", "SmolLM3Config", "models/smollm3/modeling_smollm3.py", R::kHalf, R::kNone,
       {M::kRope, M::kNope},
       {{"hidden_size", "2048"}, {"num_attention_heads", "16"}, {"rope_theta", "2000000.0"},
        {"max_position_embeddings", "32768"}, {"num_hidden_layers", "36"}, {"no_rope_layer_interval", "4"}},
       "RoPE in 3 of 4 layers (no_rope_layers), NoPE in the others"},
      {"bloom", "", "BLOOM", "BloomConfig", "models/bloom/modeling_bloom.py", R::kNone, R::kNone, {M::kAlibi},
       {{"n_head", "8"}, {"hidden_size", "64"}, {"n_layer", "2"}},
       "ALiBi (the paper's slopes, float32) in every layer"},
      {"mpt", "", "MPT", "MptConfig", "models/mpt/modeling_mpt.py", R::kNone, R::kNone, {M::kAlibi},
       {{"n_heads", "16"}, {"d_model", "2048"}, {"max_seq_len", "2048"}, {"n_layers", "24"}},
       "ALiBi with alibi_bias_max (default 8) in every layer"},
      {"gpt2", "", "GPT-2", "GPT2Config", "models/gpt2/modeling_gpt2.py", R::kNone, R::kNone, {M::kLearned},
       {{"n_positions", "1024"}, {"n_embd", "768"}, {"n_head", "12"}},
       "learned absolute table wpe (n_positions rows)"},
      {"gpt_bigcode", "", "GPTBigCode / StarCoder", "GPTBigCodeConfig", "models/gpt_bigcode/modeling_gpt_bigcode.py",
       R::kNone, R::kNone, {M::kLearned}, {{"n_positions", "1024"}, {"n_embd", "768"}, {"n_head", "12"}},
       "learned absolute table wpe (n_positions rows)"},
      {"opt", "", "OPT", "OPTConfig", "models/opt/modeling_opt.py", R::kNone, R::kNone, {M::kLearned},
       {{"max_position_embeddings", "2048"}, {"hidden_size", "768"}, {"num_attention_heads", "12"}},
       "learned absolute table with offset 2 (max_position_embeddings + 2 rows)"},
      // Vision towers (issue 28 item 4): a trained patch grid, row-major (y, x), after a class-token
      // row except SigLIP (SiglipVisionEmbeddings: num_positions = num_patches). Grid side =
      // image_size / patch_size; values in model_grids.cpp.
      {"vit", "", "ViT", "ViTConfig", "models/vit/configuration_vit.py, modeling_vit.py", R::kNone, R::kNone,
       {M::kLearnedGrid}, {{"image_size", "224"}, {"patch_size", "16"}, {"hidden_size", "768"}},
       "trained 2-D grid of (image_size/patch_size)² patch rows after a class-token row"},
      {"dinov2", "", "DINOv2", "Dinov2Config", "models/dinov2/configuration_dinov2.py, modeling_dinov2.py", R::kNone,
       R::kNone, {M::kLearnedGrid}, {{"image_size", "224"}, {"patch_size", "14"}, {"hidden_size", "768"}},
       "trained 2-D grid after a class-token row, bicubically resized to other image sizes"},
      {"clip_vision_model", "", "CLIP vision tower", "CLIPVisionConfig", "models/clip/configuration_clip.py", R::kNone,
       R::kNone, {M::kLearnedGrid}, {{"image_size", "224"}, {"patch_size", "32"}, {"hidden_size", "768"}},
       "trained 2-D grid after a class-token row"},
      {"clip", "clip_text_model", "CLIP", "CLIPTextConfig", "models/clip/configuration_clip.py", R::kNone, R::kNone,
       {M::kLearned, M::kLearnedGrid}, {{"max_position_embeddings", "77"}, {"hidden_size", "512"}},
       "text tower: learned table (77 rows); vision tower (vision_config): trained 2-D grid after a class-token row"},
      {"siglip_vision_model", "", "SigLIP vision tower", "SiglipVisionConfig", "models/siglip/configuration_siglip.py",
       R::kNone, R::kNone, {M::kLearnedGrid}, {{"image_size", "224"}, {"patch_size", "16"}, {"hidden_size", "768"}},
       "trained 2-D grid of patches, no class-token row"},
      {"bert", "", "BERT", "BertConfig", "models/bert/modeling_bert.py", R::kNone, R::kNone, {M::kLearned},
       {{"max_position_embeddings", "512"}, {"hidden_size", "768"}, {"num_attention_heads", "12"},
        {"position_embedding_type", "\"absolute\""}},
       "learned absolute table (position ids from 0)"},
      {"roberta", "xlm-roberta,camembert", "RoBERTa / XLM-R", "RobertaConfig", "models/roberta/modeling_roberta.py",
       R::kNone, R::kNone, {M::kLearned},
       {{"max_position_embeddings", "512"}, {"hidden_size", "768"}, {"num_attention_heads", "12"},
        {"pad_token_id", "1"}, {"position_embedding_type", "\"absolute\""}},
       "learned absolute table; positions start at padding_idx + 1"},
      {"deberta-v2", "deberta", "DeBERTa / DeBERTa-v2 / v3", "DebertaV2Config", "models/deberta_v2/modeling_deberta_v2.py",
       R::kNone, R::kNone, {M::kDeberta, M::kLearned},
       {{"max_position_embeddings", "512"}, {"hidden_size", "1536"}, {"num_attention_heads", "24"},
        {"relative_attention", "false"}, {"max_relative_positions", "-1"}, {"position_buckets", "-1"},
        {"position_biased_input", "true"}},
       "disentangled relative attention over log buckets; an absolute table only if position_biased_input"},
      {"t5", "", "T5 / Flan-T5", "T5Config", "models/t5/modeling_t5.py", R::kNone, R::kNone, {M::kT5},
       {{"relative_attention_num_buckets", "32"}, {"relative_attention_max_distance", "128"}, {"d_model", "512"},
        {"num_heads", "8"}, {"num_layers", "6"}},
       "relative position buckets: encoder bidirectional, decoder causal (bias in the first layer, shared)"},
      // MT5Config and UMT5Config are classes of their own, with defaults num_layers 8 and num_heads 6.
      {"mt5", "", "mT5", "MT5Config", "models/mt5/modeling_mt5.py", R::kNone, R::kNone, {M::kT5},
       {{"relative_attention_num_buckets", "32"}, {"relative_attention_max_distance", "128"}, {"d_model", "512"},
        {"num_heads", "6"}, {"num_layers", "8"}},
       "relative position buckets as T5: encoder bidirectional, decoder causal (bias in the first layer, shared)"},
      {"umt5", "", "UMT5", "UMT5Config", "models/umt5/modeling_umt5.py", R::kNone, R::kNone, {M::kT5},
       {{"relative_attention_num_buckets", "32"}, {"relative_attention_max_distance", "128"}, {"d_model", "512"},
        {"num_heads", "6"}, {"num_layers", "8"}},
       "relative position buckets in every self-attention layer, each its own table: encoder bidirectional, decoder "
       "causal"},
      {"marian", "", "Marian", "MarianConfig", "models/marian/modeling_marian.py", R::kNone, R::kNone,
       {M::kSinusoidal}, {{"max_position_embeddings", "1024"}, {"d_model", "1024"}},
       "sinusoidal table, paper frequencies, [sin | cos], positions from 0"},
      {"m2m_100", "", "M2M100 / NLLB", "M2M100Config", "models/m2m_100/modeling_m2m_100.py", R::kNone, R::kNone,
       {M::kSinusoidal}, {{"max_position_embeddings", "1024"}, {"d_model", "1024"}, {"pad_token_id", "1"}},
       "fairseq sinusoidal table, [sin | cos], positions from padding_idx + 1"},
      {"whisper", "", "Whisper", "WhisperConfig", "models/whisper/modeling_whisper.py", R::kNone, R::kNone,
       {M::kSinusoidal, M::kLearned},
       {{"max_source_positions", "1500"}, {"max_target_positions", "448"}, {"d_model", "384"}},
       "encoder: sinusoidal table (Whisper's sinusoids); decoder: learned table"},
  };
}

}  // namespace

const std::vector<Family>& families() {
  static const std::vector<Family> table = make_families();
  return table;
}

const Family* find_family(std::string_view model_type) {
  if (model_type.empty()) return nullptr;
  for (const auto& f : families()) {
    if (f.model_type == model_type) return &f;
    std::string_view rest = f.aliases;
    while (!rest.empty()) {
      const auto comma = rest.find(',');
      if (rest.substr(0, comma) == model_type) return &f;
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
  }
  return nullptr;
}

}  // namespace posenc::models
