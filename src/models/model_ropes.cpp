// Every layer type's rope for `posenc rope --hf-config` (see model_ropes.hpp).
#include "posenc/models/model_ropes.hpp"
#include "posenc/models/rope_settings.hpp"

#include "posenc/rope/rope_config.hpp"
#include "posenc/models/layers.hpp"
#include "hf_scope.hpp"

namespace posenc::models {

void add_layer_ropes(rope::RopeReport& r, const ParamMap& p) {
  const std::string path = p.has("hf-config") ? p.text("hf-config") : std::string();
  if (path.empty()) return;
  r.layer_type = p.has("layer-type") ? p.text("layer-type") : std::string();
  const AssumedFamily assumed(p.has("assume-family") ? p.text("assume-family") : std::string());
  const LayerPlan plan = read_layer_plan(path);
  r.no_rope_layers = plan.no_rope_layers;
  if (plan.rope_types.size() < 2) return;
  if (r.layer_type.empty()) r.layer_type = plan.rope_types.front();  // resolve_rope_config's primary
  for (const auto& type : plan.rope_types) {
    ParamMap q = p;
    q.set("layer-type", type, true);
    const rope::RopeConfig c = models::resolve_rope_config(q);
    const rope::RopeFrequencies f = rope::compute_frequencies(c);
    r.per_layer_type.push_back({type, layers_of_type(plan, type), c.base, std::string(to_string(c.scaling)), f.factor,
                                f.attention_factor, f.inv_freq});
  }
}

}  // namespace posenc::models
