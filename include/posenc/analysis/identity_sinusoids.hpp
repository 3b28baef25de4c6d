#pragma once
/// Closed forms of the absolute identities for a table with a known sin/cos structure
/// (the `sinusoidal` scheme), so that `check` costs O(N·D) instead of O(N·K·D) or O(N²·D).
///
/// One pass over the rows measures how far the table is from the exact sinusoids
/// x_t = (sin ω_k p, cos ω_k p) (long double, p = first position + t): δ = max_t |PE_t − x_t|.
/// The exact rows satisfy shift-linear, dot-shift-invariant and dot-symmetric exactly, so the
/// table's error in each is at most a bound from δ (derived in docs/analysis.md); when the
/// bound is within the tolerance the identity holds, otherwise the caller checks it directly.
/// `unique` follows from |x_i − x_j|² = Σ_k 4 sin²(ω_k (j − i)/2), a function of j − i alone.
#include <cstddef>
#include <optional>

#include "posenc/analysis/identity.hpp"
#include "posenc/analysis/sinusoids.hpp"
#include "posenc/table.hpp"

namespace posenc::analysis {

/// What one pass over the rows of a sin/cos table finds.
struct SinusoidDeviation {
  double max_dev = 0.0;        ///< δ = max_t |PE_t − x_t|
  std::size_t dev_row = 0;     ///< t where δ occurs
  double max_norm = 0.0;       ///< R = max_t |PE_t|
  double max_abs = 0.0;        ///< largest |PE[t, k]| (for `bounded`)
  std::size_t abs_row = 0, abs_col = 0;
  bool finite = true;          ///< false: a NaN or ±inf value (the direct checks report it)
};

/// Streams the rows of `table` (blocks on worker threads, progress reported) against `s`.
SinusoidDeviation sinusoid_deviation(const Table& table, const Sinusoids& s);

/// shift-linear from the bound max_t |T_Δ PE_t − PE_{t+Δ}| <= 2δ (T_Δ is orthogonal and maps
/// x_t to x_{t+Δ} exactly), relative to R. nullopt when the bound exceeds `tol`.
std::optional<IdentityResult> closed_shift_linear(const SinusoidDeviation& dev, std::size_t rows, double tol);

/// dot-shift-invariant and dot-symmetric (`name`) from |PE_t·PE_u − x_t·x_u| <= δ(R + |x|),
/// |x|² = K: the error is at most 2δ(R + √K)/R². nullopt when it exceeds `tol`.
std::optional<IdentityResult> closed_dot_identity(const char* name, const SinusoidDeviation& dev, const Sinusoids& s,
                                                  std::size_t rows, double tol);

/// unique: the closest offset Δ* = argmin_Δ Σ_k sin²(ω_k Δ/2) over Δ = 1..N−1 (O(N·K), no
/// cancellation), the reported distance |PE_0 − PE_Δ*| / R measured on the table. Decided
/// from the exact distance and δ: holds when d* − 2δ exceeds min_distance·R, fails when
/// d* + 2δ does not; nullopt in between (the caller measures every pair).
std::optional<IdentityResult> closed_unique(const Table& table, const Sinusoids& s, const SinusoidDeviation& dev,
                                            double min_distance);

/// bounded from the pass's largest |value|.
IdentityResult closed_bounded(const SinusoidDeviation& dev, std::size_t rows, std::size_t cols, double bound);

}  // namespace posenc::analysis
