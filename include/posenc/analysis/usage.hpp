#pragma once
/// Which RoPE frequencies a trained model uses, from its q/k weights alone (`posenc usage`;
/// ../shared/reference/weights.md §5, docs/usage.md). For layer l, q head h (kv head
/// g = ⌊h / (H/H_kv)⌋, as transformers' repeat_kv pairs them) and pair i, with W_q,i and W_k,i the
/// pair's two rows in the checkpoint's own layout, the input norm gain γ folded in (rows of
/// W·diag(γ)):
///   q_norm = ‖W_q,i‖_F, k_norm = ‖W_k,i‖_F           (Barbero et al. 2024's chunk norms, weights-only proxy)
///   pair_cos = cos of the angle between W_q,i's two rows (Chen & Yan 2024), k_pair_cos likewise for k
///   C = W_q,i W_k,iᵀ (2×2), c = C00 + C11, s = C10 − C01
///   rho = √(c² + s²), phi = atan2(s, c)            (weights.md §5.5: invariant under a common 2-D
///                                                    rotation of the pair and q·a, k/a)
/// The same-content score of the pair at distance Δ = key position − query position is
/// rho·cos(θ_i·Δ − phi), so phi/θ_i is the offset the pair prefers.
#include <cstdint>
#include <string>
#include <vector>

#include "posenc/models/qk_weights.hpp"

namespace posenc::analysis {

struct UsageOptions {
  /// Pairs counted as "highest frequencies" for positional heads: the first `high_band` (0 = a
  /// quarter of the pairs, at least 1).
  std::int64_t high_band = 0;
  /// A head is positional when this share of its rho lies in the high band.
  double positional_share = 0.5;
};

/// A head whose rho concentrates in the highest frequencies.
struct PositionalHead {
  std::int64_t layer = 0, head = 0;
  double high_share = 0;     ///< Σ rho over the high band / Σ rho over all pairs
  std::int64_t top_pair = 0; ///< the high-band pair with the largest rho
  double offset = 0;         ///< phi/θ of that pair: the preferred Δ = key − query position
};

struct UsageSummary {
  std::vector<double> mean_rho, mean_q_norm, mean_k_norm;  ///< per pair, over RoPE layers and q heads
  std::int64_t critical_dimension = 0;  ///< Liu et al. d_extra for base and train_len (0 when train_len is 0)
  std::int64_t long_pairs = 0;          ///< pairs whose wavelength 2π/θ exceeds train_len (primary base)
  double long_share = 0;                ///< share of Σ rho in pairs whose wavelength exceeds train_len (each layer's θ)
  std::int64_t high_band = 0;
  double positional_share = 0.5;
  std::vector<PositionalHead> positional;  ///< sorted by high_share, largest first
};

struct UsageReport {
  models::QkModel model;   ///< geometry and sources (files closed)
  std::int64_t pairs = 0;  ///< R/2
  std::vector<double> theta;  ///< θ_i = base^(−2i/R) of the primary base
  std::vector<bool> rope_layer;
  /// layers × heads × pairs, row-major; NaN for NoPE layers.
  std::vector<double> q_norm, k_norm, pair_cos, k_pair_cos, rho, phi;
  UsageSummary summary;
  std::size_t at(std::int64_t l, std::int64_t h, std::int64_t i) const {
    return static_cast<std::size_t>((l * model.heads + h) * pairs + i);
  }
};

/// Reads the checkpoint layer by layer (threads over heads) and computes every number above.
UsageReport frequency_usage(const models::QkModel& m, const UsageOptions& o = {});

/// The summary of a computed report (frequency_usage calls it).
UsageSummary summarize_usage(const UsageReport& r, const UsageOptions& o);

}  // namespace posenc::analysis
