// A RopeConfig from a model's file (config.json, folder, cached id or GGUF) with the flags on top.
#include "posenc/models/rope_settings.hpp"

#include <fmt/format.h>

#include "posenc/error.hpp"
#include "posenc/formats/gguf.hpp"
#include "posenc/models/layers.hpp"
#include "posenc/models/llama_arch.hpp"
#include "posenc/models/rope_gguf.hpp"
#include "posenc/rope/rope_config.hpp"
#include "hf_scope.hpp"

namespace posenc::models {

void set_llama_arch_facts(RopeConfig& c) {
  // The architecture the converter makes of this model_type, or the GGUF's own.
  const LlamaArch* a = c.gguf ? find_llama_arch(c.gguf->architecture) : llama_arch_for_model_type(c.model_type);
  c.ggml_deepseek2 = a != nullptr && a->name == "deepseek2";
  c.ggml_model_layout.reset();
  c.ggml_layout_note.clear();
  if (c.model_type.empty()) return;
  if (const LlamaArch* m = llama_arch_for_model_type(c.model_type)) {
    if (rope_type_is_half(m->rope)) c.ggml_model_layout = rope::RopeLayout::kHalf;
    c.ggml_layout_note = fmt::format(" (llama.cpp runs model_type {} as architecture {} in {} mode{}{})", c.model_type,
                                     m->name, to_string(m->rope), m->conditional.empty() ? "" : "; ", m->conditional);
  } else {
    c.ggml_layout_note =
        fmt::format(" (model_type {} is not in llama.cpp's architecture table: NORM assumed)", c.model_type);
  }
}

RopeConfig resolve_rope_config(const ParamMap& p, std::string_view config_option) {
  const std::string hf = p.has("hf-config") ? p.text("hf-config") : std::string();
  const std::string gguf = p.has("gguf") ? p.text("gguf") : std::string();
  if (!hf.empty() && !gguf.empty())
    throw Error(fmt::format("{} '{}' and --gguf '{}' are alternatives: give one", config_option, hf, gguf));
  const std::string path = gguf.empty() ? hf : gguf;
  const bool file = !path.empty();
  // A .gguf is recognised by its magic bytes wherever a config file is accepted.
  const bool is_gguf = !gguf.empty() || (file && formats::is_gguf_path(path));
  const std::string option = gguf.empty() ? std::string(config_option) : std::string("--gguf");
  const std::string layer_type = p.has("layer-type") ? p.text("layer-type") : std::string();
  if (!layer_type.empty() && (!file || is_gguf))
    throw Error(fmt::format("--layer-type '{}' needs --hf-config with a config.json", layer_type));
  RopeConfig c;
  const AssumedFamily assumed(p.has("assume-family") ? p.text("assume-family") : std::string());
  if (file && is_gguf) {
    try {
      c = read_gguf_rope_config(path);
    } catch (const Error& e) {  // name the option, as a config.json's errors do
      throw Error(fmt::format("{} {}", option, e.what()));
    }
  } else if (file) {
    // A model id (ORG/NAME) not on disk is looked up in the local Hugging Face cache.
    c = read_layer_type_config(path, layer_type, config_option);
  }
  if (file) c.set_source(is_gguf ? "gguf" : "hf-config", path, fmt::format("flag {}", option));
  set_llama_arch_facts(c);
  rope::apply_rope_flags(c, p, file, is_gguf);
  return c;
}

}  // namespace posenc::models
