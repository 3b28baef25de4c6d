#include "posenc/models/llama_arch.hpp"

#include <algorithm>

namespace posenc::models {

namespace {

using LR = LlamaRopeType;

// Transcribed from ggml-org/llama.cpp @ 00395eb285c7c6821ff372e3ca41dae9da33c2c7:
// src/llama-model.cpp `llama_model_rope_type` (the rope type, in the switch's order) and
// src/llama-arch.cpp `LLM_ARCH_NAMES` (the name). model_type spellings: the transformers
// config classes of the HF model classes that conversion/*.py registers for the architecture
// (only spellings known to exist; empty where none is registered or the class has no config
// of its own).
const std::vector<LlamaArch> kArchs = {
    // these models do not use RoPE
    {"clip", LR::kNone, "", ""},
    {"gpt2", LR::kNone, "gpt2", "GPT2LMHeadModel"},
    {"gptj", LR::kNone, "gptj", ""},  // no converter and no graph: the name only
    {"mpt", LR::kNone, "mpt", "MPTForCausalLM"},
    {"refact", LR::kNone, "gpt_refact", "GPTRefactForCausalLM"},
    {"bloom", LR::kNone, "bloom", "BloomForCausalLM BloomModel"},
    {"mamba", LR::kNone, "mamba falcon_mamba", "MambaForCausalLM MambaLMHeadModel FalconMambaForCausalLM"},
    {"mamba2", LR::kNone, "mamba2", "Mamba2ForCausalLM"},
    {"jamba", LR::kNone, "jamba", "JambaForCausalLM"},
    {"jina-bert-v2", LR::kNone, "", "JinaBertModel JinaBertForMaskedLM"},
    {"t5", LR::kNone, "t5 mt5 umt5", "T5WithLMHeadModel T5ForConditionalGeneration MT5ForConditionalGeneration UMT5ForConditionalGeneration"},
    {"t5encoder", LR::kNone, "", "T5EncoderModel"},
    {"jais", LR::kNone, "jais", "JAISLMHeadModel"},
    {"rwkv6", LR::kNone, "rwkv6", "Rwkv6ForCausalLM"},
    {"rwkv6qwen2", LR::kNone, "", "RWKV6Qwen2ForCausalLM"},
    {"rwkv7", LR::kNone, "rwkv7", "Rwkv7ForCausalLM RWKV7ForCausalLM"},
    {"arwkv7", LR::kNone, "", ""},
    {"wavtokenizer-dec", LR::kNone, "", "WavTokenizerDec"},
    {"nemotron_h", LR::kNone, "nemotron_h", "NemotronHForCausalLM"},
    {"nemotron_h_moe", LR::kNone, "", ""},
    {"kimi-linear", LR::kNone, "kimi_linear", "KimiLinearForCausalLM"},
    // "normal" RoPE: pairs of consecutive head values
    {"llama", LR::kNorm, "llama mistral mixtral", "LlamaForCausalLM MistralForCausalLM MixtralForCausalLM"},
    {"llada", LR::kNorm, "llada", "LLaDAModelLM"},
    {"llama4", LR::kNorm, "llama4 llama4_text", "Llama4ForConditionalGeneration Llama4ForCausalLM"},
    {"deci", LR::kNorm, "nemotron-nas", "DeciLMForCausalLM"},
    {"baichuan", LR::kNorm, "baichuan", "BaichuanForCausalLM BaiChuanForCausalLM"},
    {"starcoder", LR::kNorm, "gpt_bigcode", "GPTBigCodeForCausalLM"},
    {"internlm2", LR::kNorm, "internlm2", "InternLM2ForCausalLM"},
    {"minicpm", LR::kNorm, "minicpm", "MiniCPMForCausalLM"},
    {"xverse", LR::kNorm, "xverse", "XverseForCausalLM"},
    {"command-r", LR::kNorm, "cohere", "CohereForCausalLM"},
    {"cohere2", LR::kNorm, "cohere2", "Cohere2ForCausalLM"},
    {"cohere2moe", LR::kNorm, "", ""},
    {"olmo", LR::kNorm, "olmo", "OlmoForCausalLM OLMoForCausalLM"},
    {"arctic", LR::kNorm, "arctic", "ArcticForCausalLM"},
    {"deepseek", LR::kNorm, "deepseek", "DeepseekForCausalLM"},
    {"deepseek2", LR::kNorm, "deepseek_v2 deepseek_v3 kimi_k2 kimi_vl glm4_moe_lite",
     "DeepseekV2ForCausalLM DeepseekV3ForCausalLM KimiVLForConditionalGeneration"},
    {"deepseek2-ocr", LR::kNorm, "", ""},
    {"deepseek32", LR::kNorm, "", ""},
    {"deepseek4", LR::kNorm, "", ""},
    {"plm", LR::kNorm, "plm", "PLMForCausalLM"},
    {"chatglm", LR::kNorm, "chatglm", "ChatGLMModel ChatGLMForConditionalGeneration"},
    {"granite", LR::kNorm, "granite", "GraniteForCausalLM"},
    {"granitemoe", LR::kNorm, "granitemoe granitemoeshared", "GraniteMoeForCausalLM GraniteMoeSharedForCausalLM"},
    {"granitehybrid", LR::kNorm, "granitemoehybrid bamba", "GraniteMoeHybridForCausalLM BambaForCausalLM"},
    {"chameleon", LR::kNorm, "chameleon", "ChameleonForConditionalGeneration ChameleonForCausalLM"},
    {"bailingmoe", LR::kNorm, "bailing_moe", "BailingMoeForCausalLM"},
    {"neo-bert", LR::kNorm, "neobert", "NeoBERT NeoBERTLMHead NeoBERTForSequenceClassification"},
    {"smollm3", LR::kNorm, "smollm3", "SmolLM3ForCausalLM"},
    {"arcee", LR::kNorm, "arcee", "ArceeForCausalLM"},
    {"ernie4_5", LR::kNorm, "ernie4_5", "Ernie4_5_ForCausalLM Ernie4_5ForCausalLM"},
    {"ernie4_5-moe", LR::kNorm, "ernie4_5_moe", "Ernie4_5_MoeForCausalLM"},
    {"mistral3", LR::kNorm, "ministral3", ""},
    {"eagle3", LR::kNorm, "", ""},
    {"mistral4", LR::kNorm, "", ""},
    {"llama-embed", LR::kNorm, "", ""},
    {"maincoder", LR::kNorm, "", ""},
    {"glm-dsa", LR::kNorm, "", ""},
    // NEOX: the pairs of head values are offset by n_rot/2
    {"falcon", LR::kNeox, "falcon RefinedWeb RefinedWebModel", "FalconForCausalLM RWForCausalLM"},
    {"falcon-h1", LR::kNeox, "falcon_h1", "FalconH1ForCausalLM"},
    {"grok", LR::kNeox, "", "GrokForCausalLM Grok1ForCausalLM"},
    {"dbrx", LR::kNeox, "dbrx", "DbrxForCausalLM"},
    {"bert", LR::kNeox, "bert", "BertModel BertForMaskedLM"},
    {"jina-bert-v3", LR::kNeox, "", ""},
    {"modern-bert", LR::kNeox, "modernbert", "ModernBertModel ModernBertForMaskedLM"},
    {"nomic-bert", LR::kNeox, "nomic_bert", "NomicBertModel"},
    {"nomic-bert-moe", LR::kNeox, "", ""},
    {"eurobert", LR::kNeox, "eurobert", "EuroBertModel"},
    {"stablelm", LR::kNeox, "stablelm stablelm_epoch", "StableLmForCausalLM StableLMEpochForCausalLM"},
    {"bitnet", LR::kNeox, "bitnet", "BitnetForCausalLM"},
    {"qwen", LR::kNeox, "qwen", "QWenLMHeadModel"},
    {"qwen2", LR::kNeox, "qwen2", "Qwen2ForCausalLM Qwen2Model"},
    {"dream", LR::kNeox, "dream", "DreamModel"},
    {"qwen2moe", LR::kNeox, "qwen2_moe", "Qwen2MoeForCausalLM"},
    {"qwen3", LR::kNeox, "qwen3", "Qwen3ForCausalLM"},
    {"qwen3moe", LR::kNeox, "qwen3_moe", "Qwen3MoeForCausalLM"},
    {"llada-moe", LR::kNeox, "", ""},
    {"rnd1", LR::kNeox, "", ""},
    {"olmo2", LR::kNeox, "olmo2 olmo3", "Olmo2ForCausalLM Olmo3ForCausalLM"},
    {"olmoe", LR::kNeox, "olmoe", "OlmoeForCausalLM"},
    {"phi2", LR::kNeox, "phi", "PhiForCausalLM"},
    {"phi3", LR::kNeox, "phi3", "Phi3ForCausalLM"},
    {"phimoe", LR::kNeox, "phimoe", "PhiMoEForCausalLM"},
    {"plamo", LR::kNeox, "plamo", "PlamoForCausalLM"},
    {"plamo2", LR::kNeox, "plamo2", "Plamo2ForCausalLM"},
    {"plamo3", LR::kNeox, "", ""},
    {"gemma", LR::kNeox, "gemma", "GemmaForCausalLM"},
    {"gemma2", LR::kNeox, "gemma2", "Gemma2ForCausalLM"},
    {"gemma3", LR::kNeox, "gemma3 gemma3_text", "Gemma3ForCausalLM Gemma3ForConditionalGeneration"},
    {"gemma3n", LR::kNeox, "gemma3n gemma3n_text", "Gemma3nForConditionalGeneration"},
    {"gemma4", LR::kNeox, "", ""},
    {"gemma4-assistant", LR::kNeox, "", ""},
    {"gemma-embedding", LR::kNeox, "", "Gemma3TextModel"},
    {"starcoder2", LR::kNeox, "starcoder2", "Starcoder2ForCausalLM"},
    {"openelm", LR::kNeox, "openelm", "OpenELMForCausalLM"},
    {"gptneox", LR::kNeox, "gpt_neox", "GPTNeoXForCausalLM"},
    {"codeshell", LR::kNeox, "codeshell", "CodeShellForCausalLM"},
    {"orion", LR::kNeox, "orion", "OrionForCausalLM"},
    {"nemotron", LR::kNeox, "nemotron", "NemotronForCausalLM"},
    {"exaone", LR::kNeox, "exaone", "ExaoneForCausalLM"},
    {"exaone4", LR::kNeox, "exaone4", "Exaone4ForCausalLM"},
    {"exaone-moe", LR::kNeox, "", ""},
    {"minicpm3", LR::kNeox, "minicpm3", "MiniCPM3ForCausalLM"},
    {"bailingmoe2", LR::kNeox, "", "BailingMoeV2ForCausalLM"},
    {"dots1", LR::kNeox, "dots1", "Dots1ForCausalLM"},
    {"hunyuan-moe", LR::kNeox, "hunyuan_v1_moe", "HunYuanMoEV1ForCausalLM"},
    {"jais2", LR::kNeox, "", ""},
    {"gpt-oss", LR::kNeox, "gpt_oss", "GptOssForCausalLM"},
    {"hunyuan-dense", LR::kNeox, "hunyuan_v1_dense", "HunYuanDenseV1ForCausalLM"},
    {"hy_v3", LR::kNeox, "", ""},
    {"lfm2", LR::kNeox, "lfm2", "LFM2ForCausalLM Lfm2ForCausalLM"},
    {"lfm2moe", LR::kNeox, "lfm2_moe", "Lfm2MoeForCausalLM"},
    {"smallthinker", LR::kNeox, "smallthinker", "SmallThinkerForCausalLM"},
    {"seed_oss", LR::kNeox, "seed_oss", "SeedOssForCausalLM"},
    {"grovemoe", LR::kNeox, "", "GroveMoeForCausalLM"},
    {"apertus", LR::kNeox, "apertus", "ApertusForCausalLM"},
    {"minimax-m2", LR::kNeox, "minimax_m2", "MiniMaxM2ForCausalLM"},
    {"cogvlm", LR::kNeox, "", "CogVLMForCausalLM"},
    {"pangu-embedded", LR::kNeox, "", ""},
    {"afmoe", LR::kNeox, "", ""},
    {"laguna", LR::kNeox, "", ""},
    {"qwen3next", LR::kNeox, "qwen3_next", "Qwen3NextForCausalLM"},
    {"mimo2", LR::kNeox, "", ""},
    {"step35", LR::kNeox, "", ""},
    {"talkie", LR::kNeox, "", ""},
    {"mellum", LR::kNeox, "", ""},
    {"dflash", LR::kNeox, "", ""},
    // multi-axis RoPE (NEOX-style pairs)
    {"qwen2vl", LR::kMrope, "qwen2_vl qwen2_5_vl qwen2_vl_text qwen2_5_vl_text",
     "Qwen2VLModel Qwen2VLForConditionalGeneration Qwen2_5_VLForConditionalGeneration Qwen2_5OmniModel"},
    {"paddleocr", LR::kMrope, "", ""},
    {"qwen3vl", LR::kImrope, "qwen3_vl qwen3_vl_text", "Qwen3VLForConditionalGeneration"},
    {"qwen3vlmoe", LR::kImrope, "qwen3_vl_moe qwen3_vl_moe_text", "Qwen3VLMoeForConditionalGeneration"},
    {"qwen35", LR::kImrope, "", ""},
    {"qwen35moe", LR::kImrope, "", ""},
    // decided at load time
    {"glm4", LR::kNorm, "glm4", "Glm4ForCausalLM Glm4vForConditionalGeneration",
     "MROPE when rope.dimension_sections is set"},
    {"glm4moe", LR::kNeox, "glm4_moe", "Glm4MoeForCausalLM", "MROPE when rope.dimension_sections is set"},
    {"hunyuan_vl", LR::kNeox, "", "", "MROPE when rope.dimension_sections is set"},
};

bool has_word(std::string_view list, std::string_view word) {
  while (!list.empty()) {
    const auto sp = list.find(' ');
    if (list.substr(0, sp) == word) return true;
    if (sp == std::string_view::npos) break;
    list.remove_prefix(sp + 1);
  }
  return false;
}

}  // namespace

std::string_view to_string(LlamaRopeType t) {
  switch (t) {
    case LR::kNone: return "NONE";
    case LR::kNorm: return "NORM";
    case LR::kNeox: return "NEOX";
    case LR::kMrope: return "MROPE";
    case LR::kImrope: return "IMROPE";
    case LR::kVision: return "VISION";
  }
  return "NONE";
}

const std::vector<LlamaArch>& llama_architectures() { return kArchs; }

const LlamaArch* find_llama_arch(std::string_view gguf_arch) {
  const auto it = std::find_if(kArchs.begin(), kArchs.end(), [&](const LlamaArch& a) { return a.name == gguf_arch; });
  return it == kArchs.end() ? nullptr : &*it;
}

const LlamaArch* llama_arch_for_model_type(std::string_view model_type) {
  if (model_type.empty()) return nullptr;
  const auto it = std::find_if(kArchs.begin(), kArchs.end(),
                               [&](const LlamaArch& a) { return has_word(a.model_types, model_type); });
  return it == kArchs.end() ? nullptr : &*it;
}

std::string_view llama_non_rope_position(std::string_view gguf_arch, std::int64_t n_layer) {
  // src/models/{bloom,refact,bert,mpt,jais}.cpp: ALiBi; baichuan.cpp: ALiBi for LLM_TYPE_13B
  // (40 layers), RoPE for 7B; t5.cpp: relative buckets; gpt2.cpp, starcoder.cpp, bert.cpp
  // (LLM_ARCH_BERT only): ggml_get_rows(pos_embd, inp_pos) and no ggml_rope_ext.
  for (std::string_view a : {"bloom", "refact", "jina-bert-v2", "mpt", "jais"})
    if (gguf_arch == a) return "alibi";
  if (gguf_arch == "baichuan" && n_layer == 40) return "alibi";
  if (gguf_arch == "t5" || gguf_arch == "t5encoder") return "t5";
  if (gguf_arch == "gpt2" || gguf_arch == "starcoder" || gguf_arch == "bert") return "learned";
  return "";
}

bool rope_type_is_half(LlamaRopeType t) { return t != LR::kNone && t != LR::kNorm; }

}  // namespace posenc::models
