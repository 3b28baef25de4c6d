#pragma once
/// The per-layer part of `posenc rope --hf-config`: every layer type's rope and the layers
/// without RoPE, computed with the same flags as the report itself.
#include "posenc/rope/rope_report.hpp"
#include "posenc/params.hpp"

namespace posenc::models {

/// Fills r.layer_type, r.per_layer_type (when the model's layer types differ) and
/// r.no_rope_layers from the `hf-config` of `p` (nothing without one). Throws Error like
/// resolve_rope_config.
void add_layer_ropes(rope::RopeReport& r, const ParamMap& p);

}  // namespace posenc::models
