#pragma once
/// The per-layer part of `posenc rope --hf-config`: every layer type's rope and the layers
/// without RoPE, computed with the same flags as the report itself.
#include "posenc/rope/rope_report.hpp"
#include "posenc/params.hpp"

#include <string>
#include <vector>

namespace posenc::models {

/// Fills r.layer_type, r.per_layer_type (when the model's layer types differ) and
/// r.no_rope_layers from the `hf-config` of `p` (nothing without one). Throws Error like
/// resolve_rope_config.
void add_layer_ropes(rope::RopeReport& r, const ParamMap& p);

/// For a report of one rope of a model with several (an `hf-config` without `layer-type`): one
/// line per other rope layer type, naming its layers and the --layer-type that selects it
/// (empty otherwise). Throws Error like resolve_rope_config.
std::vector<std::string> other_layer_type_notes(const ParamMap& p);

}  // namespace posenc::models
