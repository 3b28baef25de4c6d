// Picking a config.json's model fields and filling the class defaults (see hf_scope.hpp).
#include "hf_scope.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "posenc/error.hpp"
#include "posenc/models/transformers_families.hpp"
#include "posenc/text.hpp"
#include "posenc/formats/json_text.hpp"

namespace posenc::models::detail {

using nlohmann::json;

namespace {

bool present(const json& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && !it->is_null();
}

std::string text_field(const json& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

json parse_root(const std::string& json_text, const std::string& file) {
  json root;
  try {
    root = json::parse(formats::python_json_literals(json_text));  // NaN, Infinity as Python writes them
  } catch (const json::exception& e) {  // parse_error, and out_of_range for numbers like 1e400
    std::string what = e.what();
    std::replace(what.begin(), what.end(), '\n', ' ');
    throw Error(fmt::format("{}: not valid JSON ({})", file, what));
  }
  if (!root.is_object()) throw Error(fmt::format("{}: must be a JSON object", file));
  return root;
}

json& scope_of(json& root, const std::string& prefix) { return prefix.empty() ? root : root["text_config"]; }

std::int64_t int_field(const json& o, const char* key, std::int64_t fallback) {
  auto it = o.find(key);
  return it != o.end() && it->is_number_integer() ? it->get<std::int64_t>() : fallback;
}

std::int64_t layer_count(const HfScope& s, const std::string& file) {
  for (const char* key : {"num_hidden_layers", "n_layer", "num_layers", "n_layers"}) {
    auto it = s.cfg->find(key);
    if (it == s.cfg->end() || !it->is_number_integer()) continue;
    // A negative value held in an unsigned JSON number reads as huge; compare as written.
    const bool in_range = it->is_number_unsigned() ? it->get<std::uint64_t>() <= std::uint64_t(kMaxLayers)
                                                   : it->get<std::int64_t>() <= kMaxLayers;
    if (!in_range || it->get<std::int64_t>() < 1)
      throw Error(fmt::format("{}: \"{}{}\" must be an integer within [1, {}] (got {})", file, s.prefix, key, kMaxLayers,
                              it->dump()));
    return it->get<std::int64_t>();
  }
  return 0;
}

thread_local std::string t_assumed_family;  // models::AssumedFamily

}  // namespace posenc::models::detail

namespace posenc::models {

AssumedFamily::AssumedFamily(const std::string& family) : previous_(detail::t_assumed_family) {
  if (!family.empty() && find_family(family) == nullptr) {
    std::vector<std::string> names;
    for (const auto& f : families()) names.emplace_back(f.model_type);
    throw Error(fmt::format("--assume-family '{}' is not a family posenc knows{}; give a model_type of docs/models.md "
                            "(e.g. llama: RoPE, rotate_half, every layer)",
                            family, did_you_mean(family, names)));
  }
  detail::t_assumed_family = family;
}

AssumedFamily::~AssumedFamily() { detail::t_assumed_family = previous_; }

}  // namespace posenc::models

namespace posenc::models::detail {

HfScope prepare_scope(json& root) {
  HfScope s;
  s.cfg = &root;
  if (!present(root, "hidden_size") && !present(root, "head_dim") && root.contains("text_config") &&
      root["text_config"].is_object()) {
    s.cfg = &root["text_config"];  // multimodal wrappers keep the language model here
    s.prefix = "text_config.";
  }
  s.model_type = text_field(*s.cfg, "model_type");
  if (s.model_type.empty()) s.model_type = text_field(root, "model_type");
  s.family = find_family(s.model_type);
  if (s.family == nullptr && !t_assumed_family.empty() && !s.model_type.empty()) {
    s.family = find_family(t_assumed_family);
    s.assumed = true;
  }
  if (s.family == nullptr) return s;
  for (const auto& d : s.family->defaults) {
    const std::string key(d.key);
    if (present(*s.cfg, key.c_str())) continue;
    if (s.cfg->contains(key)) {  // "key": null: PretrainedConfig keeps None, not the class default
      s.kept_null.push_back(key);
      continue;
    }
    (*s.cfg)[key] = json::parse(d.json);
    s.defaulted.push_back(key);
  }
  return s;
}

std::string class_default_source(const Family& f) { return fmt::format("class default ({})", f.config_class); }

std::vector<Mechanism> mechanisms_used(const HfScope& s) {
  if (s.family == nullptr) return {};
  std::vector<Mechanism> out = s.family->mechanisms;
  if (s.family->model_type == "falcon") {
    auto it = s.cfg->find("alibi");
    const bool alibi = it != s.cfg->end() && it->is_boolean() && it->get<bool>();
    out = {alibi ? Mechanism::kAlibi : Mechanism::kRope};
  }
  if (s.family->model_type == "esm") {  // EsmEmbeddings / EsmModel: a table for 'absolute', RoPE for 'rotary'
    auto it = s.cfg->find("position_embedding_type");
    const std::string t = it != s.cfg->end() && it->is_string() ? it->get<std::string>() : "absolute";
    if (t != "absolute" && t != "rotary")
      throw Error(fmt::format("\"{}position_embedding_type\" must be 'absolute' (a learned table) or 'rotary' (RoPE) "
                              "for ESM, the two EsmModel reads (got {})",
                              s.prefix, it->dump()));
    out = {t == "rotary" ? Mechanism::kRope : Mechanism::kLearned};
  }
  return out;
}

bool uses_rope(const HfScope& s) {
  const auto m = mechanisms_used(s);
  return std::find(m.begin(), m.end(), Mechanism::kRope) != m.end();
}

void require_rope(const HfScope& s, const std::string& file) {
  if (s.family == nullptr && !s.model_type.empty())
    throw Error(fmt::format("{}: model_type '{}' is not one posenc knows, so it cannot tell whether, where and how the "
                            "model rotates (it does not guess; {}); read it as a known family with --assume-family "
                            "FAMILY (e.g. llama: RoPE, rotate_half, every layer), or give the RoPE settings as flags "
                            "without --hf-config; 'posenc model {}' shows what the file states",
                            file, s.model_type, transformers_family_note(s.model_type), file));
  if (s.family == nullptr || uses_rope(s)) return;
  std::vector<std::string_view> names;
  for (auto m : mechanisms_used(s))
    names.push_back(m == Mechanism::kMixer         ? "non-attention mixer layers (no positions)"
                    : m == Mechanism::kNoPositions ? "attention without positions"
                                                   : to_string(m));
  throw Error(fmt::format("{}: model_type '{}' ({}) uses {}, not RoPE: 'posenc model {}' shows it", file,
                          s.model_type, s.family->name, fmt::join(names, " and "), file));
}

}  // namespace posenc::models::detail
