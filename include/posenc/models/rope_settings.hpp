#pragma once
/// A RopeConfig from a model: its Hugging Face config.json, a folder holding one, a model id in
/// the local Hugging Face cache, or a llama.cpp .gguf, with the command-line flags on top.
#include <string>
#include <string_view>

#include "posenc/params.hpp"
#include "posenc/rope/rope.hpp"

namespace posenc::models {

using rope::RopeConfig;

/// Reads the RoPE settings of a Hugging Face config.json: rope_theta (or GPT-NeoX
/// rotary_emb_base), rope_scaling or rope_parameters (legacy "type" read as "rope_type"),
/// head_dim / qk_rope_head_dim or hidden_size / num_attention_heads, partial_rotary_factor
/// (or GPT-NeoX rotary_pct), max_position_embeddings, original_max_position_embeddings.
/// A missing or wrongly typed field throws Error naming it, e.g.
/// `config.json: "rope_scaling.factor" must be a number (got string)`.
/// The result is not yet validated (see rope::finalize_rope_config). `option` names the flag that
/// gave the path in messages about the file itself (missing, unreadable, too large).
RopeConfig read_hf_config(const std::string& path, std::string_view option = "--hf-config");

/// Same, from JSON text (for tests); `name` labels messages ("config.json").
RopeConfig parse_hf_config(const std::string& json_text, const std::string& name = "config.json");

/// The config for scheme parameters: the file given by `hf-config` or `gguf` (if any) with the
/// flags the user set on top, or the flags and their defaults. `config_option` is the flag that
/// gave the file (`rope diff --config-a`), for messages.
RopeConfig resolve_rope_config(const ParamMap& p, std::string_view config_option = "--hf-config");

/// While alive (on this thread), config readers take a model_type posenc does not know as
/// `family`, a model_type of the families table (--assume-family), instead of refusing it; ""
/// changes nothing. Throws Error naming --assume-family for a family posenc does not know.
class AssumedFamily {
 public:
  explicit AssumedFamily(const std::string& family);
  ~AssumedFamily();
  AssumedFamily(const AssumedFamily&) = delete;
  AssumedFamily& operator=(const AssumedFamily&) = delete;

 private:
  std::string previous_;
};

/// What llama.cpp's architecture table says of the config's model_type or GGUF architecture,
/// recorded for --convention ggml (its default layout and the deepseek2 YaRN rule).
void set_llama_arch_facts(RopeConfig& c);

}  // namespace posenc::models
