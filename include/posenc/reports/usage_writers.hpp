#pragma once
/// `posenc usage` as text and JSON, and its arrays as tables (docs/usage.md).
#include <memory>
#include <ostream>
#include <string>

#include "posenc/analysis/usage.hpp"
#include "posenc/table.hpp"

namespace posenc::reports {

/// The model's geometry and sources, the per-pair profile (θ, wavelength, mean rho, mean q/k
/// norm, the critical-dimension and training-length marks), the long-wavelength share and the
/// positional heads (at most `max_heads` listed).
void write_usage_text(const analysis::UsageReport& r, std::ostream& out, std::size_t max_heads = 20);

/// JSON: model fields, `theta`, `layer_base`, `layers`, `heads`, `kv_heads`, `pairs`, the
/// arrays `q_norm`, `k_norm`, `pair_cos`, `k_pair_cos`, `rho`, `phi` (layer × head × pair,
/// null for a NoPE layer) and `summary`.
void write_usage_json(const analysis::UsageReport& r, std::ostream& out);

/// The names --table accepts: rho, phi, q-norm, k-norm, pair-cos, k-pair-cos.
const std::vector<std::string>& usage_table_names();

/// One array as a layers × heads × pairs table (NaN rows for NoPE layers). Throws Error for a
/// name not in usage_table_names().
std::unique_ptr<Table> usage_table(const analysis::UsageReport& r, const std::string& name);

/// Mean over heads of one array: a layers × pairs table (the heatmap of `posenc usage -o x.png`).
std::unique_ptr<Table> usage_layer_table(const analysis::UsageReport& r, const std::string& name);

/// Heads × pairs of one layer.
std::unique_ptr<Table> usage_head_table(const analysis::UsageReport& r, const std::string& name, std::int64_t layer);

}  // namespace posenc::reports
