// llama.cpp's rope type per architecture, and the layout --convention ggml takes from a
// config.json's model_type. Expected values are written by hand from ggml-org/llama.cpp @
// 00395eb285c7c6821ff372e3ca41dae9da33c2c7: src/llama-model.cpp `llama_model_rope_type`
// (LLM_ARCH_* → LLAMA_ROPE_TYPE_*), src/llama-arch.cpp `LLM_ARCH_NAMES` (LLM_ARCH_* → name),
// and the converter's registrations (conversion/*.py: GptOssForCausalLM → MODEL_ARCH.GPT_OSS,
// PhiMoEForCausalLM → PHIMOE, ExaoneForCausalLM → EXAONE, NemotronForCausalLM → NEMOTRON,
// Gemma3ForCausalLM/Gemma3ForConditionalGeneration → GEMMA3, Qwen2VLForConditionalGeneration/
// Qwen2_5_VLForConditionalGeneration → QWEN2VL).
#include "posenc/models/llama_arch.hpp"
#include "posenc/models/rope_settings.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "posenc/rope/rope_config.hpp"
#include "posenc/schemes/registry.hpp"

using namespace posenc::encodings;
using namespace posenc::rope;
using namespace posenc::schemes;
using namespace posenc::models;

namespace {

struct Expect {
  const char* model_type;
  const char* arch;
  const char* rope;
};

// model_type (transformers) → GGUF general.architecture → llama_model_rope_type.
const Expect kExpected[] = {
    {"llama", "llama", "NORM"},          {"mistral", "llama", "NORM"},         {"mixtral", "llama", "NORM"},
    {"deepseek_v3", "deepseek2", "NORM"}, {"deepseek_v2", "deepseek2", "NORM"}, {"cohere", "command-r", "NORM"},
    {"olmo", "olmo", "NORM"},            {"granite", "granite", "NORM"},       {"smollm3", "smollm3", "NORM"},
    {"gpt_bigcode", "starcoder", "NORM"}, {"glm4", "glm4", "NORM"},
    {"gemma3", "gemma3", "NEOX"},        {"gemma3_text", "gemma3", "NEOX"},    {"gemma2", "gemma2", "NEOX"},
    {"gemma", "gemma", "NEOX"},          {"gpt_oss", "gpt-oss", "NEOX"},       {"exaone", "exaone", "NEOX"},
    {"exaone4", "exaone4", "NEOX"},      {"nemotron", "nemotron", "NEOX"},     {"phimoe", "phimoe", "NEOX"},
    {"phi3", "phi3", "NEOX"},            {"phi", "phi2", "NEOX"},              {"olmoe", "olmoe", "NEOX"},
    {"olmo2", "olmo2", "NEOX"},          {"dbrx", "dbrx", "NEOX"},             {"qwen2", "qwen2", "NEOX"},
    {"qwen2_moe", "qwen2moe", "NEOX"},   {"qwen3", "qwen3", "NEOX"},           {"qwen3_moe", "qwen3moe", "NEOX"},
    {"qwen3_next", "qwen3next", "NEOX"}, {"gpt_neox", "gptneox", "NEOX"},      {"stablelm", "stablelm", "NEOX"},
    {"starcoder2", "starcoder2", "NEOX"}, {"falcon", "falcon", "NEOX"},        {"minicpm3", "minicpm3", "NEOX"},
    {"glm4_moe", "glm4moe", "NEOX"},
    {"qwen2_vl", "qwen2vl", "MROPE"},    {"qwen2_5_vl", "qwen2vl", "MROPE"},
    {"qwen3_vl", "qwen3vl", "IMROPE"},   {"qwen3_vl_moe", "qwen3vlmoe", "IMROPE"},
    {"gpt2", "gpt2", "NONE"},            {"bloom", "bloom", "NONE"},           {"mpt", "mpt", "NONE"},
    {"t5", "t5", "NONE"},                {"jamba", "jamba", "NONE"},
};

RopeConfig resolve_text(const std::string& json, const std::string& convention) {
  const auto path = std::filesystem::temp_directory_path() / "posenc_llama_arch_test_config.json";
  std::ofstream(path) << json;
  posenc::ParamMap p(rope_param_specs());
  p.set("hf-config", path.string());
  p.set("convention", convention);
  // model_types llama.cpp maps that posenc's families table has not (exaone, dbrx, ...): read as
  // Llama's, which leaves the known ones alone; the layout under test is llama.cpp's.
  p.set("assume-family", std::string("llama"));
  RopeConfig c = resolve_rope_config(p);
  std::filesystem::remove(path);
  return c;
}

}  // namespace

TEST_CASE("each model_type maps to llama.cpp's architecture and rope type", "[rope][llama_arch]") {
  for (const auto& e : kExpected) {
    INFO(e.model_type);
    const LlamaArch* a = llama_arch_for_model_type(e.model_type);
    REQUIRE(a != nullptr);
    CHECK(a->name == e.arch);
    CHECK(to_string(a->rope) == e.rope);
    REQUIRE(find_llama_arch(e.arch) == a);
  }
  CHECK(llama_arch_for_model_type("no_such_model") == nullptr);
  CHECK(llama_arch_for_model_type("") == nullptr);
  CHECK(find_llama_arch("gemma3_text") == nullptr);  // a model_type, not an architecture
}

TEST_CASE("the architecture table has unique names and model_types", "[rope][llama_arch]") {
  std::set<std::string> names, types;
  for (const auto& a : llama_architectures()) {
    CHECK(names.insert(std::string(a.name)).second);
    std::string_view list = a.model_types;
    while (!list.empty()) {
      const auto sp = list.find(' ');
      INFO(a.name);
      CHECK(types.insert(std::string(list.substr(0, sp))).second);
      if (sp == std::string_view::npos) break;
      list.remove_prefix(sp + 1);
    }
  }
  CHECK(names.size() == 136);  // the case labels of llama_model_rope_type but LLM_ARCH_UNKNOWN
}

TEST_CASE("convention ggml takes the layout from llama.cpp's rope type (issue 15.1)", "[rope][llama_arch]") {
  // Gemma-3 multimodal: the LLM lives in text_config with model_type gemma3_text. llama.cpp
  // runs gemma3 in NEOX mode: pairs (i, i + d/2).
  const auto gemma3 = resolve_text(R"({"model_type": "gemma3", "text_config": {"model_type": "gemma3_text",
      "hidden_size": 2560, "num_attention_heads": 8, "head_dim": 256, "rope_theta": 1000000.0}})", "ggml");
  CHECK(gemma3.layout == RopeLayout::kHalf);
  const auto gemma3_text = resolve_text(R"({"model_type": "gemma3_text", "head_dim": 256})", "ggml");
  CHECK(gemma3_text.layout == RopeLayout::kHalf);
  for (const char* mt : {"gpt_oss", "exaone", "nemotron", "phimoe", "olmoe", "dbrx", "qwen2_vl", "qwen2_5_vl"}) {
    INFO(mt);
    CHECK(resolve_text(std::string(R"({"head_dim": 64, "model_type": ")") + mt + "\"}", "ggml").layout ==
          RopeLayout::kHalf);
  }
  CHECK(resolve_text(R"({"head_dim": 64, "model_type": "llama"})", "ggml").layout == RopeLayout::kInterleaved);
  CHECK(resolve_text(R"({"head_dim": 64, "model_type": "mistral"})", "ggml").layout == RopeLayout::kInterleaved);
  // hf keeps rotate_half whatever the model
  CHECK(resolve_text(R"({"head_dim": 64, "model_type": "llama"})", "hf").layout == RopeLayout::kHalf);
}
