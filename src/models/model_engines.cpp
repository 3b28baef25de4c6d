// Every rope of a model through `rope engines` (see model_engines.hpp).
#include "posenc/models/model_engines.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "posenc/error.hpp"
#include "posenc/formats/gguf.hpp"
#include "posenc/models/layers.hpp"
#include "posenc/models/rope_settings.hpp"
#include "posenc/rope/rope_config.hpp"

namespace posenc::models {
namespace {

// Whether two layer types rotate alike: the settings the engines read and transformers' result.
bool same_rope(const rope::RopeConfig& a, const rope::RopeConfig& b) {
  if (a.scaling != b.scaling || a.base != b.base || a.rotary_dim != b.rotary_dim || a.head_dim != b.head_dim ||
      a.layout != b.layout || a.factor != b.factor || a.original_max_position_embeddings != b.original_max_position_embeddings ||
      a.max_position_embeddings != b.max_position_embeddings)
    return false;
  const auto fa = rope::compute_frequencies(a);
  const auto fb = rope::compute_frequencies(b);
  return fa.inv_freq == fb.inv_freq && fa.attention_factor == fb.attention_factor && fa.logit_scale == fb.logit_scale;
}

}  // namespace

rope::ModelEnginesReport compare_model_engines(const ParamMap& p, std::int64_t len, double tol) {
  rope::ModelEnginesReport out;
  const std::string path = p.has("hf-config") ? p.text("hf-config") : std::string();
  const bool picked = p.has("layer-type") && !p.text("layer-type").empty();
  std::vector<std::string> types;
  LayerPlan plan;
  if (!path.empty() && !picked && !formats::is_gguf_path(path)) {
    const AssumedFamily assumed(p.has("assume-family") ? p.text("assume-family") : std::string());
    try {
      plan = read_layer_plan(path);
      types = plan.rope_types;
    } catch (const Error&) {
      types.clear();  // resolve_rope_config below says why
    }
  }
  std::vector<rope::RopeConfig> configs;
  for (const auto& type : types) {
    ParamMap q = p;
    q.set("layer-type", type, true);
    configs.push_back(resolve_rope_config(q));
  }
  // Layers without RoPE, as `rope --hf-config` lists them (NoPE, mixers, no positions).
  out.no_rope_layers = plan.no_rope_layers;
  out.no_rope_layers.insert(out.no_rope_layers.end(), plan.mixer_layers.begin(), plan.mixer_layers.end());
  out.no_rope_layers.insert(out.no_rope_layers.end(), plan.unpositioned_layers.begin(), plan.unpositioned_layers.end());
  std::sort(out.no_rope_layers.begin(), out.no_rope_layers.end());
  out.no_rope_layers.erase(std::unique(out.no_rope_layers.begin(), out.no_rope_layers.end()), out.no_rope_layers.end());
  bool differ = false;
  for (std::size_t i = 1; i < configs.size(); ++i) differ = differ || !same_rope(configs.front(), configs[i]);
  if (!differ) {
    out.ropes.push_back({"", {}, rope::compare_engines(resolve_rope_config(p), len, tol)});
    return out;
  }
  for (std::size_t i = 0; i < types.size(); ++i)
    out.ropes.push_back({types[i], rope_layers_of_type(plan, types[i]), rope::compare_engines(configs[i], len, tol)});
  return out;
}

}  // namespace posenc::models
