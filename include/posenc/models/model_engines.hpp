#pragma once
/// `posenc rope engines --hf-config` over every rope of a model: one comparison per layer type
/// whose rope differs (Gemma 3's sliding and full layers, MiMo-V2-Flash's swa_rope_theta, OLMo 3's
/// YaRN on full layers only), each with the layers that use it.
#include <cstdint>

#include "posenc/params.hpp"
#include "posenc/rope/engines/rope_engines.hpp"

namespace posenc::models {

/// The engines against transformers for every rope of the model that `p` names (its
/// `hf-config`, read with the same flags as resolve_rope_config): one RopeTypeEngines per layer
/// type of read_layer_plan's rope_types when their ropes differ (settings, inverse frequencies,
/// attention factor or logit scale as transformers computes them), primary first; else, or with
/// `layer-type`, without an `hf-config` or for a .gguf, one entry with layer_type "" (as
/// rope::compare_engines on resolve_rope_config(p)). Throws Error like both.
rope::ModelEnginesReport compare_model_engines(const ParamMap& p, std::int64_t len, double tol);

}  // namespace posenc::models
