#include "posenc/encodings/llama_arch.hpp"

#include <algorithm>

namespace posenc::encodings {
namespace {

using R = LlamaRopeType;

// Transcribed from ggml-org/llama.cpp @ 00395eb285c7c6821ff372e3ca41dae9da33c2c7:
// src/llama-model.cpp `llama_model_rope_type` (the rope type, in the switch's order) and
// src/llama-arch.cpp `LLM_ARCH_NAMES` (the name). model_type spellings: the transformers
// config classes of the HF model classes that conversion/*.py registers for the architecture
// (only spellings known to exist; empty where none is registered or the class has no config
// of its own).
const std::vector<LlamaArch> kArchs = {
    // these models do not use RoPE
    {"clip", R::kNone, "", ""},
    {"gpt2", R::kNone, "gpt2", "GPT2LMHeadModel"},
    {"gptj", R::kNone, "gptj", ""},  // no converter and no graph: the name only
    {"mpt", R::kNone, "mpt", "MPTForCausalLM"},
    {"refact", R::kNone, "gpt_refact", "GPTRefactForCausalLM"},
    {"bloom", R::kNone, "bloom", "BloomForCausalLM BloomModel"},
    {"mamba", R::kNone, "mamba falcon_mamba", "MambaForCausalLM MambaLMHeadModel FalconMambaForCausalLM"},
    {"mamba2", R::kNone, "mamba2", "Mamba2ForCausalLM"},
    {"jamba", R::kNone, "jamba", "JambaForCausalLM"},
    {"jina-bert-v2", R::kNone, "", "JinaBertModel JinaBertForMaskedLM"},
    {"t5", R::kNone, "t5 mt5 umt5", "T5WithLMHeadModel T5ForConditionalGeneration MT5ForConditionalGeneration UMT5ForConditionalGeneration"},
    {"t5encoder", R::kNone, "", "T5EncoderModel"},
    {"jais", R::kNone, "jais", "JAISLMHeadModel"},
    {"rwkv6", R::kNone, "rwkv6", "Rwkv6ForCausalLM"},
    {"rwkv6qwen2", R::kNone, "", "RWKV6Qwen2ForCausalLM"},
    {"rwkv7", R::kNone, "rwkv7", "Rwkv7ForCausalLM RWKV7ForCausalLM"},
    {"arwkv7", R::kNone, "", ""},
    {"wavtokenizer-dec", R::kNone, "", "WavTokenizerDec"},
    {"nemotron_h", R::kNone, "nemotron_h", "NemotronHForCausalLM"},
    {"nemotron_h_moe", R::kNone, "", ""},
    {"kimi-linear", R::kNone, "kimi_linear", "KimiLinearForCausalLM"},
    // "normal" RoPE: pairs of consecutive head values
    {"llama", R::kNorm, "llama mistral mixtral", "LlamaForCausalLM MistralForCausalLM MixtralForCausalLM"},
    {"llada", R::kNorm, "llada", "LLaDAModelLM"},
    {"llama4", R::kNorm, "llama4 llama4_text", "Llama4ForConditionalGeneration Llama4ForCausalLM"},
    {"deci", R::kNorm, "nemotron-nas", "DeciLMForCausalLM"},
    {"baichuan", R::kNorm, "baichuan", "BaichuanForCausalLM BaiChuanForCausalLM"},
    {"starcoder", R::kNorm, "gpt_bigcode", "GPTBigCodeForCausalLM"},
    {"internlm2", R::kNorm, "internlm2", "InternLM2ForCausalLM"},
    {"minicpm", R::kNorm, "minicpm", "MiniCPMForCausalLM"},
    {"xverse", R::kNorm, "xverse", "XverseForCausalLM"},
    {"command-r", R::kNorm, "cohere", "CohereForCausalLM"},
    {"cohere2", R::kNorm, "cohere2", "Cohere2ForCausalLM"},
    {"cohere2moe", R::kNorm, "", ""},
    {"olmo", R::kNorm, "olmo", "OlmoForCausalLM OLMoForCausalLM"},
    {"arctic", R::kNorm, "arctic", "ArcticForCausalLM"},
    {"deepseek", R::kNorm, "deepseek", "DeepseekForCausalLM"},
    {"deepseek2", R::kNorm, "deepseek_v2 deepseek_v3 kimi_k2 kimi_vl glm4_moe_lite",
     "DeepseekV2ForCausalLM DeepseekV3ForCausalLM KimiVLForConditionalGeneration"},
    {"deepseek2-ocr", R::kNorm, "", ""},
    {"deepseek32", R::kNorm, "", ""},
    {"deepseek4", R::kNorm, "", ""},
    {"plm", R::kNorm, "plm", "PLMForCausalLM"},
    {"chatglm", R::kNorm, "chatglm", "ChatGLMModel ChatGLMForConditionalGeneration"},
    {"granite", R::kNorm, "granite", "GraniteForCausalLM"},
    {"granitemoe", R::kNorm, "granitemoe granitemoeshared", "GraniteMoeForCausalLM GraniteMoeSharedForCausalLM"},
    {"granitehybrid", R::kNorm, "granitemoehybrid bamba", "GraniteMoeHybridForCausalLM BambaForCausalLM"},
    {"chameleon", R::kNorm, "chameleon", "ChameleonForConditionalGeneration ChameleonForCausalLM"},
    {"bailingmoe", R::kNorm, "bailing_moe", "BailingMoeForCausalLM"},
    {"neo-bert", R::kNorm, "neobert", "NeoBERT NeoBERTLMHead NeoBERTForSequenceClassification"},
    {"smollm3", R::kNorm, "smollm3", "SmolLM3ForCausalLM"},
    {"arcee", R::kNorm, "arcee", "ArceeForCausalLM"},
    {"ernie4_5", R::kNorm, "ernie4_5", "Ernie4_5_ForCausalLM Ernie4_5ForCausalLM"},
    {"ernie4_5-moe", R::kNorm, "ernie4_5_moe", "Ernie4_5_MoeForCausalLM"},
    {"mistral3", R::kNorm, "ministral3", ""},
    {"eagle3", R::kNorm, "", ""},
    {"mistral4", R::kNorm, "", ""},
    {"llama-embed", R::kNorm, "", ""},
    {"maincoder", R::kNorm, "", ""},
    {"glm-dsa", R::kNorm, "", ""},
    // NEOX: the pairs of head values are offset by n_rot/2
    {"falcon", R::kNeox, "falcon RefinedWeb RefinedWebModel", "FalconForCausalLM RWForCausalLM"},
    {"falcon-h1", R::kNeox, "falcon_h1", "FalconH1ForCausalLM"},
    {"grok", R::kNeox, "", "GrokForCausalLM Grok1ForCausalLM"},
    {"dbrx", R::kNeox, "dbrx", "DbrxForCausalLM"},
    {"bert", R::kNeox, "bert", "BertModel BertForMaskedLM"},
    {"jina-bert-v3", R::kNeox, "", ""},
    {"modern-bert", R::kNeox, "modernbert", "ModernBertModel ModernBertForMaskedLM"},
    {"nomic-bert", R::kNeox, "nomic_bert", "NomicBertModel"},
    {"nomic-bert-moe", R::kNeox, "", ""},
    {"eurobert", R::kNeox, "eurobert", "EuroBertModel"},
    {"stablelm", R::kNeox, "stablelm stablelm_epoch", "StableLmForCausalLM StableLMEpochForCausalLM"},
    {"bitnet", R::kNeox, "bitnet", "BitnetForCausalLM"},
    {"qwen", R::kNeox, "qwen", "QWenLMHeadModel"},
    {"qwen2", R::kNeox, "qwen2", "Qwen2ForCausalLM Qwen2Model"},
    {"dream", R::kNeox, "dream", "DreamModel"},
    {"qwen2moe", R::kNeox, "qwen2_moe", "Qwen2MoeForCausalLM"},
    {"qwen3", R::kNeox, "qwen3", "Qwen3ForCausalLM"},
    {"qwen3moe", R::kNeox, "qwen3_moe", "Qwen3MoeForCausalLM"},
    {"llada-moe", R::kNeox, "", ""},
    {"rnd1", R::kNeox, "", ""},
    {"olmo2", R::kNeox, "olmo2 olmo3", "Olmo2ForCausalLM Olmo3ForCausalLM"},
    {"olmoe", R::kNeox, "olmoe", "OlmoeForCausalLM"},
    {"phi2", R::kNeox, "phi", "PhiForCausalLM"},
    {"phi3", R::kNeox, "phi3", "Phi3ForCausalLM"},
    {"phimoe", R::kNeox, "phimoe", "PhiMoEForCausalLM"},
    {"plamo", R::kNeox, "plamo", "PlamoForCausalLM"},
    {"plamo2", R::kNeox, "plamo2", "Plamo2ForCausalLM"},
    {"plamo3", R::kNeox, "", ""},
    {"gemma", R::kNeox, "gemma", "GemmaForCausalLM"},
    {"gemma2", R::kNeox, "gemma2", "Gemma2ForCausalLM"},
    {"gemma3", R::kNeox, "gemma3 gemma3_text", "Gemma3ForCausalLM Gemma3ForConditionalGeneration"},
    {"gemma3n", R::kNeox, "gemma3n gemma3n_text", "Gemma3nForConditionalGeneration"},
    {"gemma4", R::kNeox, "", ""},
    {"gemma4-assistant", R::kNeox, "", ""},
    {"gemma-embedding", R::kNeox, "", "Gemma3TextModel"},
    {"starcoder2", R::kNeox, "starcoder2", "Starcoder2ForCausalLM"},
    {"openelm", R::kNeox, "openelm", "OpenELMForCausalLM"},
    {"gptneox", R::kNeox, "gpt_neox", "GPTNeoXForCausalLM"},
    {"codeshell", R::kNeox, "codeshell", "CodeShellForCausalLM"},
    {"orion", R::kNeox, "orion", "OrionForCausalLM"},
    {"nemotron", R::kNeox, "nemotron", "NemotronForCausalLM"},
    {"exaone", R::kNeox, "exaone", "ExaoneForCausalLM"},
    {"exaone4", R::kNeox, "exaone4", "Exaone4ForCausalLM"},
    {"exaone-moe", R::kNeox, "", ""},
    {"minicpm3", R::kNeox, "minicpm3", "MiniCPM3ForCausalLM"},
    {"bailingmoe2", R::kNeox, "", "BailingMoeV2ForCausalLM"},
    {"dots1", R::kNeox, "dots1", "Dots1ForCausalLM"},
    {"hunyuan-moe", R::kNeox, "hunyuan_v1_moe", "HunYuanMoEV1ForCausalLM"},
    {"jais2", R::kNeox, "", ""},
    {"gpt-oss", R::kNeox, "gpt_oss", "GptOssForCausalLM"},
    {"hunyuan-dense", R::kNeox, "hunyuan_v1_dense", "HunYuanDenseV1ForCausalLM"},
    {"hy_v3", R::kNeox, "", ""},
    {"lfm2", R::kNeox, "lfm2", "LFM2ForCausalLM Lfm2ForCausalLM"},
    {"lfm2moe", R::kNeox, "lfm2_moe", "Lfm2MoeForCausalLM"},
    {"smallthinker", R::kNeox, "smallthinker", "SmallThinkerForCausalLM"},
    {"seed_oss", R::kNeox, "seed_oss", "SeedOssForCausalLM"},
    {"grovemoe", R::kNeox, "", "GroveMoeForCausalLM"},
    {"apertus", R::kNeox, "apertus", "ApertusForCausalLM"},
    {"minimax-m2", R::kNeox, "minimax_m2", "MiniMaxM2ForCausalLM"},
    {"cogvlm", R::kNeox, "", "CogVLMForCausalLM"},
    {"pangu-embedded", R::kNeox, "", ""},
    {"afmoe", R::kNeox, "", ""},
    {"laguna", R::kNeox, "", ""},
    {"qwen3next", R::kNeox, "qwen3_next", "Qwen3NextForCausalLM"},
    {"mimo2", R::kNeox, "", ""},
    {"step35", R::kNeox, "", ""},
    {"talkie", R::kNeox, "", ""},
    {"mellum", R::kNeox, "", ""},
    {"dflash", R::kNeox, "", ""},
    // multi-axis RoPE (NEOX-style pairs)
    {"qwen2vl", R::kMrope, "qwen2_vl qwen2_5_vl qwen2_vl_text qwen2_5_vl_text",
     "Qwen2VLModel Qwen2VLForConditionalGeneration Qwen2_5_VLForConditionalGeneration Qwen2_5OmniModel"},
    {"paddleocr", R::kMrope, "", ""},
    {"qwen3vl", R::kImrope, "qwen3_vl qwen3_vl_text", "Qwen3VLForConditionalGeneration"},
    {"qwen3vlmoe", R::kImrope, "qwen3_vl_moe qwen3_vl_moe_text", "Qwen3VLMoeForConditionalGeneration"},
    {"qwen35", R::kImrope, "", ""},
    {"qwen35moe", R::kImrope, "", ""},
    // decided at load time
    {"glm4", R::kNorm, "glm4", "Glm4ForCausalLM Glm4vForConditionalGeneration",
     "MROPE when rope.dimension_sections is set"},
    {"glm4moe", R::kNeox, "glm4_moe", "Glm4MoeForCausalLM", "MROPE when rope.dimension_sections is set"},
    {"hunyuan_vl", R::kNeox, "", "", "MROPE when rope.dimension_sections is set"},
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
    case R::kNone: return "NONE";
    case R::kNorm: return "NORM";
    case R::kNeox: return "NEOX";
    case R::kMrope: return "MROPE";
    case R::kImrope: return "IMROPE";
    case R::kVision: return "VISION";
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

bool rope_type_is_half(LlamaRopeType t) { return t != R::kNone && t != R::kNorm; }

}  // namespace posenc::encodings
