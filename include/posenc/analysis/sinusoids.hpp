#pragma once
/// The structure behind the closed forms: a table whose columns are sin/cos pairs of
/// frequencies ω_k, PE[r, sin_k] = sin(ω_k p), PE[r, cos_k] = cos(ω_k p), p = first + r,
/// every other column 0. For such a table PE_t·PE_{t+Δ} = Σ_k cos(ω_k Δ) (REFERENCES §2.8),
/// a function of Δ alone, so decay and similarity cost O(N·K) instead of O(N²·D).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "posenc/matrix.hpp"
#include "posenc/table.hpp"

namespace posenc::analysis {

struct Sinusoids {
  std::vector<double> omega;          ///< ω_k, one per pair
  std::vector<std::size_t> sin_col;   ///< column of sin(ω_k p)
  std::vector<std::size_t> cos_col;   ///< column of cos(ω_k p)
  std::size_t dim = 0;                ///< total columns; columns in no pair are 0
  double first_position = 0.0;        ///< position p of row 0
};

/// Pairs at columns (2k, 2k+1): the paper's layout.
Sinusoids interleaved_sinusoids(std::vector<double> omega, std::size_t dim);
/// Pairs at columns (k, K+k): concatenated [sin | cos] (tensor2tensor, fairseq).
Sinusoids split_sinusoids(std::vector<double> omega, std::size_t dim);

/// The table itself, rows p = first_position .. first_position + len − 1.
Matrix sinusoid_table(const Sinusoids& s, std::size_t len);

/// Σ_k cos(ω_k Δ) = PE_t·PE_{t+Δ} for every t.
double sinusoid_dot(const Sinusoids& s, double delta);

/// sinusoid_dot for many offsets at once, on worker threads; runs of consecutive offsets use
/// a rotation recurrence re-anchored every 256 offsets (within 1e-12·K of sinusoid_dot).
std::vector<double> sinusoid_dots(const Sinusoids& s, const std::vector<std::int64_t>& offsets);

/// The known structure of a built-in table when it has one (the `sinusoidal` scheme), read
/// from its echoed parameters; nullopt for every other table, whose analyses then work on
/// the numbers directly.
std::optional<Sinusoids> known_sinusoids(const TableInfo& info);

/// Similarity measures between two position vectors.
enum class Metric {
  kDot,       ///< a·b
  kCosine,    ///< a·b / (|a| |b|); NaN when a vector is zero
  kDistance,  ///< |a − b|
};
Metric parse_metric(const std::string& name);  ///< "dot" | "cosine" | "distance"; else Error
std::string metric_name(Metric m);

/// The metric from a dot product and the two squared norms.
double metric_from_dot(Metric m, double dot, double norm2_a, double norm2_b);

}  // namespace posenc::analysis
