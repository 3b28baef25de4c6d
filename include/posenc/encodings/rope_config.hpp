#pragma once
/// Building a RopeConfig from command-line parameters and a model's Hugging Face config.json.
#include <string>
#include <string_view>

#include "posenc/encodings/registry.hpp"
#include "posenc/encodings/rope.hpp"
#include "posenc/params.hpp"

namespace posenc::encodings {

/// Reads the RoPE settings of a Hugging Face config.json: rope_theta (or GPT-NeoX
/// rotary_emb_base), rope_scaling or rope_parameters (legacy "type" read as "rope_type"),
/// head_dim / qk_rope_head_dim or hidden_size / num_attention_heads, partial_rotary_factor
/// (or GPT-NeoX rotary_pct), max_position_embeddings, original_max_position_embeddings.
/// A missing or wrongly typed field throws Error naming it, e.g.
/// `config.json: "rope_scaling.factor" must be a number (got string)`.
/// The result is not yet validated (see finalize_rope_config). `option` names the flag that gave
/// the path in messages about the file itself (missing, unreadable, too large).
RopeConfig read_hf_config(const std::string& path, std::string_view option = "--hf-config");

/// Same, from JSON text (for tests); `name` labels messages ("config.json").
RopeConfig parse_hf_config(const std::string& json_text, const std::string& name = "config.json");

/// Derives rotary_dim, checks every value (throwing Error naming the flag or field) and
/// adds notes on settings that implementations read differently.
void finalize_rope_config(RopeConfig& c, std::int64_t explicit_rotary_dim = 0);

/// The config for scheme parameters: the file given by `hf-config` (if any) with the flags
/// the user set on top, or the flags and their defaults. `config_option` is the flag that gave
/// the file (`rope diff --config-a`), for messages.
RopeConfig resolve_rope_config(const ParamMap& p, std::string_view config_option = "--hf-config");

/// ParamSpecs of the `rope` scheme (also used by `posenc rope`).
std::vector<ParamSpec> rope_param_specs();

}  // namespace posenc::encodings
