#pragma once
// The part of a config.json that describes the language model, with the family's class
// defaults filled in (internal: nlohmann types stay out of include/posenc).
#include <nlohmann/json.hpp>

#include <cstdint>

#include <string>
#include <vector>

#include "posenc/rope/rope.hpp"
#include "posenc/models/family.hpp"
#include "posenc/models/rope_settings.hpp"

namespace posenc::models::detail {

struct HfScope {
  nlohmann::json* cfg = nullptr;  ///< the model's fields: the root or its text_config
  std::string prefix;             ///< "" or "text_config."
  std::string model_type;         ///< of the scope, else of the root ("" when absent)
  const Family* family = nullptr;  ///< nullptr for a model_type posenc does not know
  bool assumed = false;            ///< family is --assume-family's, not the model_type's
  std::vector<std::string> defaulted;  ///< keys filled from the config class's defaults
  /// Keys the file sets to null that have a class default: transformers keeps None (the dataclass
  /// field and `self.x = x` take the file's value), so the default is not filled in.
  std::vector<std::string> kept_null;
};

/// Parses config.json text: Error "<file>: not valid JSON (...)" or "must be a JSON object".
nlohmann::json parse_root(const std::string& json_text, const std::string& file);

/// The scope object of `root` for a prefix from prepare_scope ("" or "text_config.").
nlohmann::json& scope_of(nlohmann::json& root, const std::string& prefix);

/// An integer field of the scope, or `fallback` when absent or not an integer.
std::int64_t int_field(const nlohmann::json& o, const char* key, std::int64_t fallback = 0);

/// The most layers posenc reads from a config or GGUF (8192, docs/models.md): the deepest real
/// models have a few hundred, and the report lists every layer (a million layers were 48 MB of JSON).
constexpr std::int64_t kMaxLayers = 8192;

/// The layer count: the first of num_hidden_layers, n_layer, num_layers, n_layers that holds an
/// integer, 0 when none does. Error naming the field and [1, kMaxLayers] for a value outside it.
std::int64_t layer_count(const HfScope& s, const std::string& file);

/// Picks the scope (text_config when the root has neither hidden_size nor head_dim) and fills
/// every absent field the family's config class gives a default; a field the file sets to null
/// stays null, as transformers keeps None (listed in kept_null). `root` must be an object.
HfScope prepare_scope(nlohmann::json& root);

/// "class default (Gemma3TextConfig)".
std::string class_default_source(const Family& f);

/// True when the model uses RoPE somewhere (Falcon only without "alibi": true).
bool uses_rope(const HfScope& s);

/// The mechanisms the scope's model uses, in the family's order, with Falcon's switch read.
std::vector<Mechanism> mechanisms_used(const HfScope& s);

/// Throws Error "<file>: model_type 'bloom' (BLOOM) uses alibi, not RoPE: 'posenc model <file>'
/// shows it" for a known model without RoPE, and refuses a model_type posenc does not know
/// (no silent guess), naming --assume-family; a config without model_type is read as it states.
void require_rope(const HfScope& s, const std::string& file);

/// What the family adds to a RoPE config read from the scope: "class default (...)" as the
/// source of every defaulted field, the model class's layout and cos/sin table layout, notes.
void apply_family(const HfScope& s, rope::RopeConfig& c);

}  // namespace posenc::models::detail
