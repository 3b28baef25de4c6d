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
      llama_like("qwen2", "", "Qwen2 / Qwen2.5", "Qwen2Config", "models/qwen2/configuration_qwen2.py",
                 {{"hidden_size", "4096"}, {"num_attention_heads", "32"}, {"rope_theta", "10000.0"},
                  {"max_position_embeddings", "32768"}},
                 "RoPE (rotate_half) in every layer, the same on sliding-window layers"),
      llama_like("qwen3", "", "Qwen3", "Qwen3Config", "models/qwen3/configuration_qwen3.py",
                 {{"hidden_size", "4096"}, {"num_attention_heads", "32"}, {"head_dim", "128"}, {"rope_theta", "10000.0"},
                  {"max_position_embeddings", "32768"}},
                 "RoPE (rotate_half) in every layer"),
      {"qwen2_vl", "qwen2_5_vl,qwen2_vl_text,qwen2_5_vl_text", "Qwen2-VL / Qwen2.5-VL", "Qwen2VLTextConfig",
       "models/qwen2_vl/modeling_qwen2_vl.py", R::kHalf, R::kNone, {M::kRope, M::kMrope},
       {{"hidden_size", "8192"}, {"num_attention_heads", "64"}, {"rope_theta", "1000000.0"},
        {"max_position_embeddings", "32768"}},
       "M-RoPE: contiguous sections of the half-layout pairs follow t, h, w"},
      {"qwen3_vl_text", "qwen3_vl", "Qwen3-VL", "Qwen3VLTextConfig",
       "models/qwen3_vl/modeling_qwen3_vl.py", R::kHalf, R::kNone, {M::kRope, M::kMrope},
       {{"hidden_size", "4096"}, {"num_attention_heads", "32"}, {"head_dim", "128"}, {"rope_theta", "500000.0"},
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
      llama_like("phi3", "", "Phi-3 / Phi-3.5 / Phi-4-mini", "Phi3Config", "models/phi3/configuration_phi3.py",
                 {{"hidden_size", "3072"}, {"num_attention_heads", "32"}, {"rope_theta", "10000.0"},
                  {"max_position_embeddings", "4096"}, {"original_max_position_embeddings", "4096"}},
                 "RoPE (rotate_half), LongRoPE short/long factor lists"),
      {"deepseek_v2", "", "DeepSeek-V2", "DeepseekV2Config", "models/deepseek_v2/modeling_deepseek_v2.py",
       R::kInterleaved, R::kNone, {M::kRope, M::kMla},
       {{"hidden_size", "4096"}, {"num_attention_heads", "32"}, {"qk_rope_head_dim", "64"}, {"qk_nope_head_dim", "128"},
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
       {{"hidden_size", "8192"}, {"num_attention_heads", "64"}, {"rope_theta", "500000.0"},
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
      // Learned tables read at zucchini-nlp/transformers (issue 28 item 4): BART at 41d3f466
      // (models/bart/modeling_bart.py, BartLearnedPositionalEmbedding: offset 2 in each stack),
      // GPT-Neo at 16d622f0 (models/gpt_neo/modeling_gpt_neo.py, wpe row t).
      {"bart", "mbart", "BART / mBART", "BartConfig", "models/bart/modeling_bart.py @ 41d3f466", R::kNone, R::kNone,
       {M::kLearned}, {{"max_position_embeddings", "1024"}, {"d_model", "1024"}, {"encoder_attention_heads", "16"}},
       "learned table in the encoder and in the decoder, offset 2 (max_position_embeddings + 2 rows, rows 0-1 unused)"},
      {"gpt_neo", "", "GPT-Neo", "GPTNeoConfig", "models/gpt_neo/modeling_gpt_neo.py @ 16d622f0", R::kNone, R::kNone,
       {M::kLearned}, {{"max_position_embeddings", "2048"}, {"hidden_size", "2048"}, {"num_heads", "16"}},
       "learned absolute table wpe (max_position_embeddings rows)"},
      // Reformer read at huggingface/transformers 20926db3 (models/reformer/modeling_reformer.py:
      // AxialPositionEmbeddings, PositionEmbeddings); defaults from data/families/families.json.
      {"reformer", "", "Reformer", "ReformerConfig", "models/reformer/modeling_reformer.py @ huggingface/transformers 20926db3",
       R::kNone, R::kNone, {M::kLearned},
       {{"axial_pos_embds", "true"}, {"axial_pos_shape", "[64, 64]"}, {"axial_pos_embds_dim", "[64, 192]"},
        {"hidden_size", "256"}, {"max_position_embeddings", "4096"}, {"num_attention_heads", "12"}},
       "axial position table: two trained factors broadcast over axial_pos_shape and concatenated (axial_pos_embds); "
       "else a learned table"},
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
      // Read at huggingface/transformers (issue 28 item 4): DistilBERT at 00b326f4 (Embeddings: row t;
      // sinusoidal_pos_embds fills the table with fixed sinusoids), ELECTRA at 014873b4
      // (ElectraEmbeddings: row t, width embedding_size), Longformer at 010a915c (LongformerEmbeddings:
      // RoBERTa's create_position_ids_from_input_ids, padding_idx = pad_token_id).
      {"distilbert", "", "DistilBERT", "DistilBertConfig", "models/distilbert/modeling_distilbert.py @ huggingface/transformers 00b326f4",
       R::kNone, R::kNone, {M::kLearned},
       {{"max_position_embeddings", "512"}, {"dim", "768"}, {"n_heads", "12"}, {"n_layers", "6"},
        {"sinusoidal_pos_embds", "false"}},
       "learned absolute table (position ids from 0); sinusoidal_pos_embds fills it with fixed sinusoids"},
      {"electra", "", "ELECTRA", "ElectraConfig", "models/electra/modeling_electra.py @ huggingface/transformers 014873b4", R::kNone, R::kNone,
       {M::kLearned},
       {{"max_position_embeddings", "512"}, {"embedding_size", "128"}, {"hidden_size", "256"},
        {"num_attention_heads", "4"}},
       "learned absolute table of width embedding_size (position ids from 0)"},
      {"longformer", "", "Longformer", "LongformerConfig", "models/longformer/modeling_longformer.py @ huggingface/transformers 010a915c",
       R::kNone, R::kNone, {M::kLearned},
       {{"max_position_embeddings", "512"}, {"hidden_size", "768"}, {"num_attention_heads", "12"},
        {"pad_token_id", "1"}},
       "learned absolute table; positions start at padding_idx + 1 (RoBERTa's rule)"},
      {"deberta-v2", "deberta", "DeBERTa / DeBERTa-v2 / v3", "DebertaV2Config", "models/deberta_v2/modeling_deberta_v2.py",
       R::kNone, R::kNone, {M::kDeberta, M::kLearned},
       {{"max_position_embeddings", "512"}, {"hidden_size", "1536"}, {"num_attention_heads", "24"},
        {"relative_attention", "false"}, {"max_relative_positions", "-1"}, {"position_buckets", "-1"},
        {"position_biased_input", "true"}},
       "disentangled relative attention over log buckets; an absolute table only if position_biased_input"},
      // Encoder, speech and vision families (issue 27 item 5), read at transformers decba1d2 (main of
      // 2026-08-19, the commit of data/families/families.json).
      {"mpnet", "", "MPNet", "MPNetConfig", "models/mpnet/modeling_mpnet.py @ decba1d2", R::kNone, R::kNone,
       {M::kT5, M::kLearned},
       {{"max_position_embeddings", "512"}, {"hidden_size", "768"}, {"num_attention_heads", "12"},
        {"num_hidden_layers", "12"}, {"relative_attention_num_buckets", "32"}},
       "T5 bidirectional buckets (32, max_distance 128) shared by every layer, and a learned table from padding_idx + 1"},
      {"esm", "", "ESM-1b / ESM-1v / ESM-2", "EsmConfig", "models/esm/modeling_esm.py @ decba1d2", R::kHalf, R::kNone,
       {M::kLearned, M::kRope},
       {{"max_position_embeddings", "1026"}, {"hidden_size", "768"}, {"num_attention_heads", "12"},
        {"num_hidden_layers", "12"}, {"rope_theta", "10000.0"}, {"position_embedding_type", "\"absolute\""}},
       "position_embedding_type 'absolute' (ESM-1b, ESM-1v): learned table from padding_idx + 1; 'rotary' (ESM-2): "
       "RoPE (rotate_half) in every layer"},
      {"wav2vec2", "", "Wav2Vec2", "Wav2Vec2Config", "models/wav2vec2/modeling_wav2vec2.py @ decba1d2", R::kNone,
       R::kNone, {M::kConvolutional},
       {{"hidden_size", "768"}, {"num_attention_heads", "12"}, {"num_hidden_layers", "12"},
        {"num_conv_pos_embeddings", "128"}, {"num_conv_pos_embedding_groups", "16"}},
       "convolutional positions: a grouped Conv1d (kernel num_conv_pos_embeddings, num_conv_pos_embedding_groups "
       "groups) added before the encoder; nothing to tabulate"},
      {"hubert", "", "HuBERT", "HubertConfig", "models/hubert/modeling_hubert.py @ decba1d2", R::kNone, R::kNone,
       {M::kConvolutional},
       {{"hidden_size", "768"}, {"num_attention_heads", "12"}, {"num_hidden_layers", "12"},
        {"num_conv_pos_embeddings", "128"}, {"num_conv_pos_embedding_groups", "16"}, {"conv_pos_batch_norm", "false"}},
       "convolutional positions as Wav2Vec2 (optionally batch-normed); nothing to tabulate"},
      {"pixtral", "", "Pixtral vision tower", "PixtralVisionConfig", "models/pixtral/modeling_pixtral.py @ decba1d2",
       R::kHalf, R::kNone, {M::kAxialRope},
       {{"hidden_size", "1024"}, {"num_attention_heads", "16"}, {"num_hidden_layers", "24"}, {"image_size", "1024"},
        {"patch_size", "16"}},
       "2-D RoPE over patch rows and columns: one θ ladder, even pairs to rows, odd pairs to columns (rotate_half)"},
      {"dinov3_vit", "", "DINOv3 ViT", "DINOv3ViTConfig", "models/dinov3_vit/modeling_dinov3_vit.py @ decba1d2",
       R::kHalf, R::kNone, {M::kAxialRope},
       {{"hidden_size", "384"}, {"num_attention_heads", "6"}, {"num_hidden_layers", "12"}, {"image_size", "224"},
        {"patch_size", "16"}, {"rope_theta", "100.0"}, {"num_register_tokens", "0"}},
       "2-D RoPE on patch-centre coordinates in [-1, 1] (2π·θ^(-4k/d)); class and register tokens not rotated"},
      {"xglm", "", "XGLM", "XGLMConfig", "models/xglm/modeling_xglm.py @ decba1d2", R::kNone, R::kNone,
       {M::kSinusoidal},
       {{"max_position_embeddings", "2048"}, {"d_model", "1024"}, {"attention_heads", "16"}, {"num_layers", "24"}},
       "fairseq sinusoidal table, [sin | cos], position t in row t + 2 (offset 2)"},
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
      // Hybrid and per-layer families (issue 27 item 3), read at transformers decba1d2 (5.16.0.dev0);
      // the per-layer rules are in layers.cpp.
      {"qwen3_next", "", "Qwen3-Next", "Qwen3NextConfig",
       "models/qwen3_next/configuration_qwen3_next.py, modeling_qwen3_next.py @decba1d2", R::kHalf, R::kNone,
       {M::kRope, M::kMixer},
       {{"head_dim", "256"}, {"hidden_size", "2048"}, {"max_position_embeddings", "32768"},
        {"num_attention_heads", "16"}, {"num_hidden_layers", "48"}, {"partial_rotary_factor", "0.25"}},
       "partial RoPE (rotate_half) on full-attention layers; linear_attention layers (Gated DeltaNet) have no "
       "positions"},
      {"jamba", "", "Jamba", "JambaConfig", "models/jamba/configuration_jamba.py, modeling_jamba.py @decba1d2",
       R::kNone, R::kNone, {M::kMixer, M::kNoPositions},
       {{"hidden_size", "4096"}, {"max_position_embeddings", "262144"}, {"num_attention_heads", "32"},
        {"num_hidden_layers", "32"}, {"attn_layer_period", "8"}, {"attn_layer_offset", "4"}},
       "Mamba mixers; one attention layer in attn_layer_period, with no position encoding"},
      {"nemotron_h", "", "Nemotron-H / Nemotron-3", "NemotronHConfig",
       "models/nemotron_h/configuration_nemotron_h.py, modeling_nemotron_h.py @decba1d2", R::kNone, R::kNone,
       {M::kMixer, M::kNoPositions},
       {{"head_dim", "128"}, {"hidden_size", "4096"}, {"max_position_embeddings", "4096"},
        {"num_attention_heads", "32"}},
       "Mamba2 mixers, MLP/MoE blocks and attention layers with no position encoding (a rope_theta in the file is "
       "read by no code)"},
      {"falcon_mamba", "", "Falcon Mamba", "FalconMambaConfig",
       "models/falcon_mamba/modeling_falcon_mamba.py @decba1d2", R::kNone, R::kNone, {M::kMixer},
       {{"hidden_size", "768"}, {"num_hidden_layers", "32"}}, "Mamba mixers in every layer: no positions at all"},
      {"exaone4", "", "EXAONE 4", "Exaone4Config", "models/exaone4/modeling_exaone4.py @decba1d2", R::kHalf, R::kNone,
       {M::kRope, M::kNope},
       {{"hidden_size", "4096"}, {"max_position_embeddings", "2048"}, {"num_attention_heads", "32"},
        {"num_hidden_layers", "32"}, {"sliding_window_pattern", "4"}},
       "RoPE on sliding layers; with a sliding_window, global (full_attention) layers have no position encoding"},
      {"muse_glimmer_text", "muse_glimmer", "Muse Glimmer", "MuseGlimmerTextConfig",
       "models/muse_glimmer/modeling_muse_glimmer.py @decba1d2", R::kHalf, R::kNone, {M::kRope, M::kNope},
       {{"head_dim", "128"}, {"hidden_size", "6656"}, {"max_position_embeddings", "131072"},
        {"num_attention_heads", "32"}, {"num_hidden_layers", "52"}, {"sliding_window", "2048"}},
       "RoPE (rotate_half) except on layers whose layer_rope_theta is 0 (NoPE)"},
      {"gemma3n_text", "gemma3n", "Gemma 3n", "Gemma3nTextConfig", "models/gemma3n/configuration_gemma3n.py @decba1d2",
       R::kHalf, R::kNone, {M::kRope},
       {{"head_dim", "256"}, {"hidden_size", "2048"}, {"max_position_embeddings", "32768"},
        {"num_attention_heads", "8"}, {"num_hidden_layers", "35"}, {"sliding_window", "512"},
        {"rope_theta", "1000000.0"}, {"rope_local_base_freq", "10000.0"}},
       "two ropes: sliding layers rope_local_base_freq unscaled, full layers rope_theta with rope_scaling"},
      {"mimo_v2_flash", "", "MiMo-V2-Flash", "MiMoV2FlashConfig",
       "models/mimo_v2_flash/configuration_mimo_v2_flash.py @decba1d2", R::kHalf, R::kNone, {M::kRope},
       {{"head_dim", "192"}, {"hidden_size", "4096"}, {"max_position_embeddings", "131072"},
        {"num_attention_heads", "64"}, {"num_hidden_layers", "48"}, {"sliding_window", "128"},
        {"rope_parameters",
         "{\"full_attention\": {\"rope_type\": \"default\", \"rope_theta\": 5000000.0, \"partial_rotary_factor\": "
         "0.334}, \"sliding_attention\": {\"rope_type\": \"default\", \"rope_theta\": 10000.0, "
         "\"partial_rotary_factor\": 0.334}}"}},
       "a rope per layer type: full layers theta 5e6, sliding layers 1e4 (the class's rope_parameters)"},
      {"olmo3", "", "OLMo 3", "Olmo3Config", "models/olmo3/configuration_olmo3.py @decba1d2", R::kHalf, R::kNone,
       {M::kRope},
       {{"rope_theta", "500000.0"}, {"hidden_size", "4096"}, {"max_position_embeddings", "2048"},
        {"num_attention_heads", "32"}, {"num_hidden_layers", "32"}, {"sliding_window", "4096"}},
       "a rope per layer type: rope_scaling (YaRN) on full-attention layers only (transformers >= 5.13)"},
      {"gemma4_text", "gemma4", "Gemma 4", "Gemma4TextConfig", "models/gemma4/configuration_gemma4.py @decba1d2",
       R::kHalf, R::kNone, {M::kRope},
       {{"head_dim", "256"}, {"hidden_size", "2304"}, {"max_position_embeddings", "131072"},
        {"num_attention_heads", "8"}, {"num_hidden_layers", "30"}, {"sliding_window", "512"},
        {"global_head_dim", "512"},
        {"rope_parameters",
         "{\"sliding_attention\": {\"rope_type\": \"default\", \"rope_theta\": 10000.0}, \"full_attention\": "
         "{\"rope_type\": \"proportional\", \"partial_rotary_factor\": 0.25, \"rope_theta\": 1000000.0}}"}},
       "a rope per layer type: full layers rotate over global_head_dim (proportional), sliding layers over head_dim"},
      {"hunyuan_v1_dense", "", "Hunyuan (dense)", "HunYuanDenseV1Config",
       "models/hunyuan_v1_dense/modeling_hunyuan_v1_dense.py @decba1d2", R::kHalf, R::kNone, {M::kRope},
       {{"hidden_size", "4096"}, {"max_position_embeddings", "2048"}, {"num_attention_heads", "32"},
        {"num_hidden_layers", "32"}},
       "RoPE (rotate_half); rope_scaling {type dynamic, alpha} is a fixed base rope_theta * alpha^(d/(d-2))"},
      {"hunyuan_v1_moe", "", "Hunyuan (MoE)", "HunYuanMoEV1Config",
       "models/hunyuan_v1_moe/modeling_hunyuan_v1_moe.py @decba1d2", R::kHalf, R::kNone, {M::kRope},
       {{"hidden_size", "4096"}, {"max_position_embeddings", "2048"}, {"num_attention_heads", "32"},
        {"num_hidden_layers", "32"}},
       "RoPE (rotate_half); rope_scaling {type dynamic, alpha} is a fixed base rope_theta * alpha^(d/(d-2))"},
      {"modernbert", "", "ModernBERT", "ModernBertConfig", "models/modernbert/configuration_modernbert.py @decba1d2",
       R::kHalf, R::kNone, {M::kRope},
       {{"hidden_size", "768"}, {"max_position_embeddings", "8192"}, {"num_attention_heads", "12"},
        {"num_hidden_layers", "22"}, {"global_attn_every_n_layers", "3"}, {"global_rope_theta", "160000.0"},
        {"local_rope_theta", "10000.0"}},
       "a rope per layer type: every global_attn_every_n_layers-th layer global_rope_theta, the others "
       "local_rope_theta (encoder)"},
      {"persimmon", "", "Persimmon", "PersimmonConfig", "models/persimmon/configuration_persimmon.py @decba1d2",
       R::kHalf, R::kNone, {M::kRope},
       {{"hidden_size", "4096"}, {"max_position_embeddings", "16384"}, {"num_attention_heads", "64"},
        {"num_hidden_layers", "36"}, {"partial_rotary_factor", "0.5"}},
       "partial RoPE (rotate_half), partial_rotary_factor 0.5 by default"},
      {"ernie4_5", "", "ERNIE 4.5", "Ernie4_5Config", "models/ernie4_5/modeling_ernie4_5.py @decba1d2",
       R::kInterleaved, R::kNone, {M::kRope},
       {{"rope_theta", "500000.0"}, {"head_dim", "128"}, {"hidden_size", "1024"}, {"max_position_embeddings", "131072"},
        {"num_attention_heads", "16"}, {"num_hidden_layers", "18"}},
       "RoPE on adjacent pairs (x[0::2], x[1::2]; cos/sin repeat_interleave) in every layer"},
      {"ernie4_5_moe", "", "ERNIE 4.5 MoE", "Ernie4_5_MoeConfig",
       "models/ernie4_5_moe/modeling_ernie4_5_moe.py @decba1d2", R::kInterleaved, R::kNone, {M::kRope},
       {{"rope_theta", "500000.0"}, {"hidden_size", "2560"}, {"max_position_embeddings", "131072"},
        {"num_attention_heads", "20"}, {"num_hidden_layers", "28"}},
       "RoPE on adjacent pairs (x[0::2], x[1::2]; cos/sin repeat_interleave) in every layer"},
      {"codegen", "", "CodeGen", "CodeGenConfig", "models/codegen/modeling_codegen.py @decba1d2", R::kInterleaved,
       R::kNone, {M::kRope}, {{"n_positions", "2048"}, {"rotary_dim", "64"}},
       "partial RoPE on rotary_dim dims, adjacent pairs (rotate_every_two)"},
      {"deepseek_v32", "", "DeepSeek-V3.2", "DeepseekV32Config",
       "models/deepseek_v32/modeling_deepseek_v32.py @decba1d2", R::kInterleaved, R::kHalf, {M::kRope, M::kMla},
       {{"hidden_size", "7168"}, {"max_position_embeddings", "163840"}, {"num_attention_heads", "128"},
        {"num_hidden_layers", "61"}, {"qk_rope_head_dim", "64"}},
       "MLA: RoPE on qk_rope_head_dim, adjacent pairs (apply_rotary_pos_emb_interleave)"},
      {"deepseek_v4", "", "DeepSeek-V4", "DeepseekV4Config",
       "models/deepseek_v4/configuration_deepseek_v4.py, modeling_deepseek_v4.py @decba1d2", R::kInterleaved, R::kNone,
       {M::kRope},
       {{"head_dim", "512"}, {"hidden_size", "4096"}, {"max_position_embeddings", "1048576"},
        {"num_attention_heads", "64"}, {"num_hidden_layers", "43"}, {"rope_theta", "10000.0"},
        {"compress_rope_theta", "160000.0"}, {"sliding_window", "128"}},
       "two ropes on the last qk_rope_head_dim (64) dims of each head, adjacent pairs: sliding_attention layers the "
       "main rope (rope_theta, unscaled), compressed layers and their compressors the compress rope "
       "(compress_rope_theta with rope_scaling, attention_factor 1)"},
      // Hybrids whose other layers are mixers without positions (issue 27 item 2), read at decba1d2.
      {"minimax", "", "MiniMax-Text-01 / MiniMax-M1", "MiniMaxConfig",
       "models/minimax/configuration_minimax.py, modeling_minimax.py @decba1d2", R::kHalf, R::kNone,
       {M::kRope, M::kMixer},
       {{"hidden_size", "4096"}, {"num_attention_heads", "32"}, {"num_hidden_layers", "32"},
        {"max_position_embeddings", "131072"}, {"rope_theta", "1000000.0"}},
       "RoPE (rotate_half, all head_dim dims) on full_attention layers; linear_attention layers (lightning "
       "attention) have no positions"},
      {"lfm2", "", "LFM2", "Lfm2Config", "models/lfm2/configuration_lfm2.py, modeling_lfm2.py @decba1d2", R::kHalf,
       R::kNone, {M::kRope, M::kMixer},
       {{"hidden_size", "2560"}, {"num_attention_heads", "32"}, {"num_hidden_layers", "32"},
        {"max_position_embeddings", "128000"}, {"rope_theta", "1000000.0"}},
       "RoPE (rotate_half) on full_attention layers; conv layers (gated short convolutions) have no positions"},
      {"recurrent_gemma", "", "RecurrentGemma", "RecurrentGemmaConfig",
       "models/recurrent_gemma/configuration_recurrent_gemma.py, modeling_recurrent_gemma.py @decba1d2", R::kHalf,
       R::kNone, {M::kRope, M::kMixer},
       {{"hidden_size", "2560"}, {"num_attention_heads", "10"}, {"num_hidden_layers", "26"},
        {"attention_window_size", "2048"}, {"rope_theta", "10000.0"}},
       "RoPE (rotate_half, all head_dim dims at this commit) on local attention blocks; recurrent blocks (RG-LRU) have "
       "no positions"},
      llama_like("minimax_m2", "", "MiniMax-M2", "MiniMaxM2Config",
                 "models/minimax_m2/configuration_minimax_m2.py, modeling_minimax_m2.py @decba1d2",
                 {{"head_dim", "128"}, {"hidden_size", "3072"}, {"num_attention_heads", "48"},
                  {"num_hidden_layers", "62"}, {"max_position_embeddings", "196608"}, {"rope_theta", "5000000.0"}},
                 "RoPE (rotate_half) on head_dim × partial_rotary_factor dims in every layer; a rotary_dim in the "
                 "file is read by no transformers code"),
      // Plain partial RoPE whose config classes default partial_rotary_factor to 0.5
      // (kwargs.setdefault in __post_init__), read at decba1d2 (issue 27, the refused-types list).
      llama_like("glm4_moe", "", "GLM-4.5 / GLM-4.6 / GLM-4.7 (MoE)", "Glm4MoeConfig",
                 "models/glm4_moe/configuration_glm4_moe.py, modeling_glm4_moe.py @decba1d2",
                 {{"hidden_size", "4096"}, {"num_attention_heads", "96"}, {"num_hidden_layers", "46"},
                  {"max_position_embeddings", "131072"}, {"rope_theta", "10000.0"}, {"partial_rotary_factor", "0.5"}},
                 "partial RoPE (rotate_half on the first head_dim × partial_rotary_factor dims, 0.5 by default) in "
                 "every layer"),
      llama_like("nemotron", "", "Nemotron / Minitron", "NemotronConfig",
                 "models/nemotron/configuration_nemotron.py, modeling_nemotron.py @decba1d2",
                 {{"hidden_size", "6144"}, {"num_attention_heads", "48"}, {"num_hidden_layers", "32"},
                  {"max_position_embeddings", "4096"}, {"rope_theta", "10000.0"}, {"partial_rotary_factor", "0.5"}},
                 "partial RoPE (rotate_half on the first head_dim × partial_rotary_factor dims, 0.5 by default) in "
                 "every layer"),
      // MoE variants whose config classes have defaults of their own (issue 27 item 1: the hand
      // table agrees with data/families/families.json), read at transformers decba1d2.
      llama_like("qwen2_moe", "", "Qwen1.5-MoE / Qwen2-MoE", "Qwen2MoeConfig",
                 "models/qwen2_moe/configuration_qwen2_moe.py @decba1d2",
                 {{"hidden_size", "2048"}, {"num_attention_heads", "16"}, {"rope_theta", "10000.0"},
                  {"max_position_embeddings", "32768"}},
                 "RoPE (rotate_half) in every layer, the same on sliding-window layers"),
      llama_like("qwen3_moe", "", "Qwen3-MoE", "Qwen3MoeConfig", "models/qwen3_moe/configuration_qwen3_moe.py @decba1d2",
                 {{"hidden_size", "2048"}, {"num_attention_heads", "32"}, {"rope_theta", "10000.0"},
                  {"max_position_embeddings", "32768"}},
                 "RoPE (rotate_half) in every layer"),
      {"qwen3_vl_moe_text", "qwen3_vl_moe", "Qwen3-VL-MoE", "Qwen3VLMoeTextConfig",
       "models/qwen3_vl_moe/configuration_qwen3_vl_moe.py @decba1d2", R::kHalf, R::kNone, {M::kRope, M::kMrope},
       {{"hidden_size", "2048"}, {"num_attention_heads", "16"}, {"rope_theta", "500000.0"},
        {"max_position_embeddings", "128000"}},
       "interleaved M-RoPE: pairs cycle t, h, w"},
      llama_like("phimoe", "", "Phi-3.5-MoE", "PhimoeConfig", "models/phimoe/configuration_phimoe.py @decba1d2",
                 {{"hidden_size", "4096"}, {"num_attention_heads", "32"}, {"rope_theta", "1000000.0"}},
                 "RoPE (rotate_half), LongRoPE short/long factor lists"),
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
