// Every layer type's rope for `posenc rope --hf-config` (see model_ropes.hpp).
#include "posenc/models/model_ropes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include "posenc/models/rope_settings.hpp"

#include "posenc/rope/rope_config.hpp"
#include "posenc/models/layers.hpp"
#include "hf_scope.hpp"
#include "posenc/error.hpp"

namespace posenc::models {

void add_layer_ropes(rope::RopeReport& r, const ParamMap& p) {
  const std::string path = p.has("hf-config") ? p.text("hf-config") : std::string();
  if (path.empty()) return;
  r.layer_type = p.has("layer-type") ? p.text("layer-type") : std::string();
  const AssumedFamily assumed(p.has("assume-family") ? p.text("assume-family") : std::string());
  const LayerPlan plan = read_layer_plan(path);
  // Layers without RoPE: NoPE layers, and layers that are not attention or carry no positions.
  r.no_rope_layers = plan.no_rope_layers;
  r.no_rope_layers.insert(r.no_rope_layers.end(), plan.mixer_layers.begin(), plan.mixer_layers.end());
  r.no_rope_layers.insert(r.no_rope_layers.end(), plan.unpositioned_layers.begin(), plan.unpositioned_layers.end());
  std::sort(r.no_rope_layers.begin(), r.no_rope_layers.end());
  r.no_rope_layers.erase(std::unique(r.no_rope_layers.begin(), r.no_rope_layers.end()), r.no_rope_layers.end());
  if (plan.rope_types.empty()) return;
  if (r.layer_type.empty()) r.layer_type = plan.rope_types.front();  // resolve_rope_config's primary
  for (const auto& type : plan.rope_types) {
    ParamMap q = p;
    q.set("layer-type", type, true);
    const rope::RopeConfig c = models::resolve_rope_config(q);
    const rope::RopeFrequencies f = rope::compute_frequencies(c);
    r.per_layer_type.push_back({type, rope_layers_of_type(plan, type), c.base, std::string(to_string(c.scaling)), f.factor,
                                f.attention_factor, f.inv_freq});
  }
}

std::vector<std::string> other_layer_type_notes(const ParamMap& p) {
  const std::string path = p.has("hf-config") ? p.text("hf-config") : std::string();
  if (path.empty() || (p.has("layer-type") && !p.text("layer-type").empty())) return {};
  const AssumedFamily assumed(p.has("assume-family") ? p.text("assume-family") : std::string());
  LayerPlan plan;
  try {
    plan = read_layer_plan(path);
  } catch (const Error&) {
    return {};  // a .gguf or a file the reader refuses: resolve_rope_config says why
  }
  std::vector<std::string> out;
  for (std::size_t i = 1; i < plan.rope_types.size(); ++i)
    out.push_back(fmt::format("this report is the {} rope; the {} layers ({}) rotate with their own: add --layer-type {}",
                              plan.rope_types.front(), plan.rope_types[i],
                              layer_ranges(rope_layers_of_type(plan, plan.rope_types[i])), plan.rope_types[i]));
  return out;
}

}  // namespace posenc::models
