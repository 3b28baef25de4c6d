// Layer types, per-layer-type ropes and NoPE layers (see layers.hpp).
#include "posenc/models/layers.hpp"
#include "posenc/models/rope_settings.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "hf_scope.hpp"
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

LayerPlan plan_of(const HfScope& s, const std::string& file) {
  const json& cfg = *s.cfg;
  LayerPlan plan;
  plan.num_layers = detail::layer_count(s, file);
  const std::string type = s.family ? std::string(s.family->model_type) : std::string();
  auto lt = cfg.find("layer_types");
  if (lt != cfg.end() && lt->is_array() && !lt->empty() &&
      std::all_of(lt->begin(), lt->end(), [](const json& v) { return v.is_string(); })) {
    if (plan.num_layers == 0 && static_cast<std::int64_t>(lt->size()) > detail::kMaxLayers)
      throw Error(fmt::format("{}: \"{}layer_types\" must hold at most {} entries (got {})", file, s.prefix,
                              detail::kMaxLayers, lt->size()));
    for (const auto& v : *lt) plan.layer_types.push_back(v.get<std::string>());
    plan.layer_types_source = fmt::format("config.json {}layer_types", s.prefix);
    if (plan.num_layers == 0) plan.num_layers = static_cast<std::int64_t>(plan.layer_types.size());
    plan.layer_types.resize(static_cast<std::size_t>(plan.num_layers), plan.layer_types.back());
  } else if (type == "gemma2" || type == "gpt_oss") {
    derive_pattern(plan, 2, std::string(s.family->config_class));
  } else if (type == "gemma3_text" || type == "cohere2") {
    derive_pattern(plan, detail::int_field(cfg, "sliding_window_pattern", type == "cohere2" ? 4 : 6),
                   std::string(s.family->config_class));
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
  }
  // Rope types: each distinct layer type that rotates, full_attention first.
  for (const auto& t : plan.layer_types) {
    if (std::find(plan.nope_types.begin(), plan.nope_types.end(), t) != plan.nope_types.end()) continue;
    if (std::find(plan.rope_types.begin(), plan.rope_types.end(), t) == plan.rope_types.end()) plan.rope_types.push_back(t);
  }
  std::stable_sort(plan.rope_types.begin(), plan.rope_types.end(),
                   [](const std::string& a, const std::string& b) { return a == "full_attention" && b != a; });
  if (plan.layer_types.size() > 0 && plan.rope_types.size() + plan.nope_types.size() < 2 && plan.nope_types.empty())
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
                                              const std::string& layer_type) {
  if (layer_type.empty()) return models::parse_hf_config(json_text, file);
  json raw = detail::parse_root(json_text, file);
  json filled = raw;
  const HfScope s = detail::prepare_scope(filled);
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
  if (std::find(plan.nope_types.begin(), plan.nope_types.end(), layer_type) != plan.nope_types.end())
    throw Error(fmt::format("--layer-type '{}': these layers of {} ({}) carry no position encoding; 'posenc model {}' "
                            "shows them",
                            layer_type, file, s.model_type, file));
  json& cfg = detail::scope_of(raw, s.prefix);
  std::string base_source;
  if (const json* per = per_type_rope_parameters(*s.cfg); per != nullptr && per->contains(layer_type)) {
    cfg["rope_parameters"] = (*per)[layer_type];
  } else if (s.family != nullptr && s.family->model_type == "gemma3_text" && layer_type == "sliding_attention") {
    // Gemma3TextModel: rotary_emb_local is built from a copy of the config with
    // rope_theta = rope_local_base_freq and rope_scaling = {"rope_type": "default"}.
    cfg["rope_theta"] = (*s.cfg)["rope_local_base_freq"];
    cfg.erase("rope_scaling");
    cfg.erase("rope_parameters");
    const bool defaulted = std::find(s.defaulted.begin(), s.defaulted.end(), "rope_local_base_freq") != s.defaulted.end();
    base_source = defaulted ? detail::class_default_source(*s.family) + " rope_local_base_freq"
                            : fmt::format("config.json {}rope_local_base_freq", s.prefix);
  }
  rope::RopeConfig c = models::parse_hf_config(raw.dump(), file);
  if (!base_source.empty()) {
    c.set_source("base", fmt::format("{}", c.base), base_source, fmt::format("\"{}rope_local_base_freq\"", s.prefix));
    c.set_source("scaling", "none", "transformers builds the sliding-window rope with rope_type default");
  }
  c.notes.push_back(fmt::format("layer type {}: layers {}", layer_type, layer_ranges(layers_of_type(plan, layer_type))));
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
