// Layer types, per-layer-type ropes and NoPE layers (see layers.hpp).
#include "posenc/models/layers.hpp"
#include "posenc/models/rope_settings.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "hf_scope.hpp"
#include "layer_rules.hpp"
#include "posenc/rope/rope_config.hpp"
#include "posenc/error.hpp"
#include "posenc/formats/file.hpp"
#include "posenc/models/config_path.hpp"

namespace posenc::models {
namespace {

using nlohmann::json;
using detail::HfScope;

/// Per-layer-type rope_parameters (transformers 5: {"full_attention": {...}, "sliding_attention": {...}}).
const json* per_type_rope_parameters(const json& cfg) {
  auto it = cfg.find("rope_parameters");
  if (it == cfg.end() || !it->is_object() || it->empty()) return nullptr;
  return std::all_of(it->begin(), it->end(), [](const json& v) { return v.is_object(); }) ? &*it : nullptr;
}

/// Layer i is sliding when (i + 1) % pattern != 0: the rule of Gemma2Config (pattern 2),
/// Gemma3TextConfig (sliding_window_pattern, 6) and Cohere2Config (4) for configs without layer_types.
void derive_pattern(LayerPlan& plan, std::int64_t pattern, const std::string& why) {
  if (plan.num_layers == 0 || pattern < 1) return;
  for (std::int64_t i = 0; i < plan.num_layers; ++i)
    plan.layer_types.push_back((i + 1) % pattern != 0 ? "sliding_attention" : "full_attention");
  plan.layer_types_source = fmt::format("derived: sliding_attention when (layer + 1) % {} != 0 ({})", pattern, why);
}

/// The names transformers' remap_legacy_layer_types gives old layer types (configuration_utils.py).
std::string current_layer_type(const std::string& t) {
  if (t == "conv" || t == "mamba") return "linear_attention";
  if (t == "attention") return "full_attention";
  return t;
}

LayerPlan plan_of(const HfScope& s, const std::string& file) {
  const json& cfg = *s.cfg;
  LayerPlan plan;
  plan.num_layers = detail::layer_count(s, file);
  const std::string type = s.family ? std::string(s.family->model_type) : std::string();
  // NemotronHConfig's attribute_map reads layer_types as layers_block_type.
  const char* key = type == "nemotron_h" && !cfg.contains("layer_types") ? "layers_block_type" : "layer_types";
  auto lt = cfg.find(key);
  if (type == "jamba") {  // JambaConfig.layer_types is a property of attn_layer_period/offset
    detail::derive_family_layer_types(s, plan, file);
  } else if (lt != cfg.end() && lt->is_array() && !lt->empty() &&
             std::all_of(lt->begin(), lt->end(), [](const json& v) { return v.is_string(); })) {
    if (plan.num_layers == 0 && static_cast<std::int64_t>(lt->size()) > detail::kMaxLayers)
      throw Error(fmt::format("{}: \"{}{}\" must hold at most {} entries (got {})", file, s.prefix, key,
                              detail::kMaxLayers, lt->size()));
    const bool remap = type == "qwen3_next" || type == "nemotron_h";  // remap_legacy_layer_types
    for (const auto& v : *lt) plan.layer_types.push_back(remap ? current_layer_type(v.get<std::string>()) : v.get<std::string>());
    plan.layer_types_source = fmt::format("config.json {}{}", s.prefix, key);
    if (plan.num_layers == 0 || type == "nemotron_h") plan.num_layers = static_cast<std::int64_t>(plan.layer_types.size());
    plan.layer_types.resize(static_cast<std::size_t>(plan.num_layers), plan.layer_types.back());
  } else if (type == "gemma2" || type == "gpt_oss") {
    derive_pattern(plan, 2, std::string(s.family->config_class));
  } else if (type == "gemma3_text" || type == "cohere2") {
    derive_pattern(plan, detail::int_field(cfg, "sliding_window_pattern", type == "cohere2" ? 4 : 6),
                   std::string(s.family->config_class));
  } else {
    detail::derive_family_layer_types(s, plan, file);
  }
  if (type == "cohere2") {  // Cohere2Attention rotates only when the layer has a sliding window
    plan.nope_types = {"full_attention"};
    for (std::size_t i = 0; i < plan.layer_types.size(); ++i)
      if (plan.layer_types[i] == "full_attention") plan.no_rope_layers.push_back(static_cast<std::int64_t>(i));
    if (!plan.no_rope_layers.empty())
      plan.no_rope_source = "Cohere2Attention applies RoPE only on sliding-window layers";
  } else if (type == "llama4_text" || type == "smollm3") {
    // `self.use_rope = config.no_rope_layers[layer_idx]`: 1 means the layer USES RoPE.
    auto nr = cfg.find("no_rope_layers");
    if (nr != cfg.end() && nr->is_array() && !nr->empty()) {
      for (std::size_t i = 0; i < nr->size() && static_cast<std::int64_t>(i) < plan.num_layers; ++i)
        if ((*nr)[i].is_number() && (*nr)[i].get<double>() == 0) plan.no_rope_layers.push_back(static_cast<std::int64_t>(i));
      plan.no_rope_source = fmt::format("config.json {}no_rope_layers (0 = no RoPE)", s.prefix);
    } else {
      const std::int64_t every = detail::int_field(cfg, "no_rope_layer_interval", 4);
      for (std::int64_t i = 0; every > 0 && i < plan.num_layers; ++i)
        if ((i + 1) % every == 0) plan.no_rope_layers.push_back(i);
      plan.no_rope_source = fmt::format("derived: no RoPE when (layer + 1) % no_rope_layer_interval ({}) == 0", every);
    }
  } else {
    detail::mark_family_layers(s, plan);
  }
  // A layer type whose every layer is without RoPE is a NoPE type (Muse Glimmer's full layers).
  // Each distinct type once: plan.layer_types has one entry per layer (O(L) types, not O(L^2) work;
  // fuzz_model timed out on a 3840-layer Gemma 3 config).
  std::vector<std::string> seen_types;
  for (const auto& t : plan.layer_types) {
    if (std::find(seen_types.begin(), seen_types.end(), t) != seen_types.end()) continue;
    seen_types.push_back(t);
    if (std::find(plan.nope_types.begin(), plan.nope_types.end(), t) != plan.nope_types.end()) continue;
    const auto layers = layers_of_type(plan, t);
    if (!layers.empty() && std::all_of(layers.begin(), layers.end(), [&](std::int64_t i) {
          return std::binary_search(plan.no_rope_layers.begin(), plan.no_rope_layers.end(), i);
        }))
      plan.nope_types.push_back(t);
  }
  // Rope types: each distinct layer type that rotates, full_attention first.
  const auto listed = [](const std::vector<std::string>& v, const std::string& t) {
    return std::find(v.begin(), v.end(), t) != v.end();
  };
  for (const auto& t : plan.layer_types) {
    if (listed(plan.nope_types, t) || listed(plan.mixer_types, t) || listed(plan.unpositioned_types, t)) continue;
    if (!listed(plan.rope_types, t)) plan.rope_types.push_back(t);
  }
  std::stable_sort(plan.rope_types.begin(), plan.rope_types.end(),
                   [](const std::string& a, const std::string& b) { return a == "full_attention" && b != a; });
  if (type == "deepseek_v4")  // the compress rope of the compressed layers (most of them) is the primary one
    std::stable_partition(plan.rope_types.begin(), plan.rope_types.end(),
                          [](const std::string& t) { return t != "sliding_attention"; });
  if (plan.rope_types.size() < 2 && plan.nope_types.empty() && plan.mixer_types.empty() &&
      plan.unpositioned_types.empty())
    plan.rope_types.clear();  // one kind of layer: nothing per type to tell
  return plan;
}

std::string read_text(const std::string& path, std::string& file, std::string_view option = "--hf-config") {
  file = resolve_config_path(path, option);
  return formats::read_small_file(file, option, formats::kMaxConfigBytes);
}

}  // namespace

LayerPlan parse_layer_plan(const std::string& json_text, const std::string& file) {
  json root = detail::parse_root(json_text, file);
  const HfScope s = detail::prepare_scope(root);
  return plan_of(s, file);
}

LayerPlan read_layer_plan(const std::string& path) {
  std::string file;
  const std::string text = read_text(path, file);
  return parse_layer_plan(text, file);
}

rope::RopeConfig parse_layer_type_config(const std::string& json_text, const std::string& file,
                                              const std::string& requested) {
  json raw;
  try {
    raw = detail::parse_root(json_text, file);
  } catch (const Error&) {
    if (requested.empty()) return models::parse_hf_config(json_text, file);  // its message names line, column, byte
    throw;
  }
  json filled = raw;
  const HfScope s = detail::prepare_scope(filled);
  std::string layer_type = requested;
  if (layer_type.empty()) {
    // The primary rope: the scope read as one config, unless the family builds each layer type's
    // rope by its own rule (ModernBERT's global_rope_theta, Gemma 4's global_head_dim): then the first rope type.
    if (s.family == nullptr || !detail::family_has_type_ropes(s) || !detail::uses_rope(s))
      return models::parse_hf_config(json_text, file);
    const LayerPlan plan = plan_of(s, file);
    if (plan.rope_types.empty()) return models::parse_hf_config(json_text, file);
    layer_type = plan.rope_types.front();
  }
  detail::require_rope(s, file);
  const LayerPlan plan = plan_of(s, file);
  std::vector<std::string> known;
  for (const auto& t : plan.layer_types)
    if (std::find(known.begin(), known.end(), t) == known.end()) known.push_back(t);
  if (known.empty())
    throw Error(fmt::format("--layer-type '{}': every layer of {} rotates alike (the model has no layer types)",
                            layer_type, file));
  if (std::find(known.begin(), known.end(), layer_type) == known.end())
    throw Error(fmt::format("--layer-type must be one of {} for {} (got '{}')", fmt::join(known, ", "), file, layer_type));
  const auto listed = [&](const std::vector<std::string>& v) { return std::find(v.begin(), v.end(), layer_type) != v.end(); };
  if (listed(plan.nope_types) || listed(plan.unpositioned_types))
    throw Error(fmt::format("--layer-type '{}': these layers of {} ({}) carry no position encoding; 'posenc model {}' "
                            "shows them",
                            layer_type, file, s.model_type, file));
  if (listed(plan.mixer_types))
    throw Error(fmt::format("--layer-type '{}': these layers of {} ({}) are not attention ({}); they carry no "
                            "position encoding; 'posenc model {}' shows them",
                            layer_type, file, s.model_type, plan.mixer_source, file));
  json& cfg = detail::scope_of(raw, s.prefix);
  const auto rule = detail::family_type_rope(s, layer_type);
  bool theta_set = false;
  if (const json* per = per_type_rope_parameters(*s.cfg); per != nullptr && per->contains(layer_type)) {
    cfg["rope_parameters"] = (*per)[layer_type];
    // convert_rope_params_to_dict: setdefault("rope_theta", the legacy key or the class's default)
    if (rule && rule->theta && !cfg["rope_parameters"].contains("rope_theta")) {
      cfg["rope_parameters"]["rope_theta"] = *rule->theta;
      theta_set = true;
    }
  } else if (rule && (rule->rope_parameters || !rule->erase.empty())) {
    for (const auto& key : rule->erase) cfg.erase(key);
    if (rule->rope_parameters) cfg["rope_parameters"] = *rule->rope_parameters;
  } else if (rule) {
    if (rule->theta) {
      cfg["rope_theta"] = *rule->theta;
      auto rp = cfg.find("rope_parameters");
      if (rp != cfg.end() && rp->is_object() && rp->contains("rope_theta")) (*rp)["rope_theta"] = *rule->theta;
      theta_set = true;
    }
    if (rule->drop_scaling) {
      cfg.erase("rope_scaling");
      cfg.erase("rope_parameters");
    }
  }
  if (rule && rule->head_dim) cfg["head_dim"] = *rule->head_dim;
  rope::RopeConfig c = models::parse_hf_config(raw.dump(), file);
  c.rotary_dims_trailing = rule && rule->rotary_dims_trailing;
  if (rule) {
    c.deepseek_v4_rope = rule->deepseek_v4_rope;
    c.deepseek_v4_file_yarn = rule->file_yarn;
  }
  if (rule) {
    if (theta_set) c.set_source("base", fmt::format("{}", c.base), rule->theta_source, rule->theta_field);
    if (rule->drop_scaling) c.set_source("scaling", "none", rule->scaling_source);
    if (rule->head_dim) c.set_source("dim", fmt::format("{}", c.head_dim), rule->head_dim_source);
    // Settings read from the entry the class built: named by where the entry's key came from.
    const std::string built = fmt::format("\"{}rope_parameters.", s.prefix);
    for (auto& st : c.sources) {
      if (!st.field.starts_with(built) || st.field.size() < built.size() + 1) continue;
      auto o = rule->key_origin.find(st.field.substr(built.size(), st.field.size() - built.size() - 1));
      if (o == rule->key_origin.end()) continue;
      st.source = o->second.source;
      st.field = o->second.field;
    }
    for (const auto& n : rule->notes) c.notes.push_back(n);
  }
  c.notes.push_back(fmt::format("layer type {}: layers {}", layer_type, layer_ranges(rope_layers_of_type(plan, layer_type))));
  if (requested.empty())
    for (const auto& other : plan.rope_types)
      if (other != layer_type)
        c.notes.push_back(fmt::format("this is the {} rope; the {} layers ({}) rotate with their own: --layer-type {}",
                                      layer_type, other, layer_ranges(rope_layers_of_type(plan, other)), other));
  return c;
}

rope::RopeConfig read_layer_type_config(const std::string& path, const std::string& layer_type,
                                             std::string_view option) {
  std::string file;
  const std::string text = read_text(path, file, option);
  return parse_layer_type_config(text, file, layer_type);
}

std::vector<std::int64_t> layers_of_type(const LayerPlan& plan, const std::string& layer_type) {
  std::vector<std::int64_t> out;
  for (std::int64_t i = 0; i < plan.num_layers; ++i) {
    const auto u = static_cast<std::size_t>(i);
    if (plan.layer_types.empty() || (u < plan.layer_types.size() && plan.layer_types[u] == layer_type)) out.push_back(i);
  }
  return out;
}

std::vector<std::int64_t> rope_layers_of_type(const LayerPlan& plan, const std::string& layer_type) {
  std::vector<std::int64_t> out;
  const auto in = [](const std::vector<std::int64_t>& v, std::int64_t i) { return std::find(v.begin(), v.end(), i) != v.end(); };
  for (auto i : layers_of_type(plan, layer_type))
    if (!in(plan.no_rope_layers, i) && !in(plan.mixer_layers, i) && !in(plan.unpositioned_layers, i)) out.push_back(i);
  return out;
}

std::vector<std::int64_t> rope_layers(const LayerPlan& plan) {
  std::vector<std::int64_t> out;
  std::vector<bool> skip(static_cast<std::size_t>(std::max<std::int64_t>(plan.num_layers, 0)), false);
  for (const auto* v : {&plan.no_rope_layers, &plan.mixer_layers, &plan.unpositioned_layers})
    for (auto i : *v)
      if (i >= 0 && i < plan.num_layers) skip[static_cast<std::size_t>(i)] = true;
  for (std::int64_t i = 0; i < plan.num_layers; ++i)
    if (!skip[static_cast<std::size_t>(i)]) out.push_back(i);
  return out;
}

std::string layer_ranges(const std::vector<std::int64_t>& layers) {
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < layers.size();) {
    std::size_t j = i;
    while (j + 1 < layers.size() && layers[j + 1] == layers[j] + 1) ++j;
    parts.push_back(j == i ? fmt::format("{}", layers[i]) : fmt::format("{}-{}", layers[i], layers[j]));
    i = j + 1;
  }
  return parts.empty() ? std::string("none") : fmt::format("{}", fmt::join(parts, ", "));
}

}  // namespace posenc::models
