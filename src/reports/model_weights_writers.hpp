#pragma once
// The weights read for one mechanism, as text lines and JSON keys (internal to model_writers).
#include <nlohmann/json.hpp>

#include <ostream>

#include "posenc/models/model_weights.hpp"

namespace posenc::reports::detail {

/// Indented lines after the mechanism's values: tensor, rule, rows used, norms, statistics;
/// T5's bias per head; each RoPE tensor against the config.
void weights_text(const models::MechanismUse& m, std::ostream& out);

/// Adds "weights" (the keys issue 28 item 4 lists) and "weights_summary" (rule, findings,
/// statistics) to a mechanism's JSON object.
void weights_json(const models::MechanismUse& m, nlohmann::json& mechanism);

}  // namespace posenc::reports::detail
