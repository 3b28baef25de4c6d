#pragma once
/// The N×N similarity of a table's rows computed as one symmetric product: only the upper
/// triangle is computed, in 4×4 register tiles over rows packed four at a time (k-major, so
/// the compiler vectorises the tile), blocked over k for the cache and spread over threads(),
/// then mirrored. Every cell is summed over k = 0..D−1 in order with one accumulator, so the
/// result does not depend on the thread count or the blocking, and equals the plain loop
/// Σ_k a_ik·a_jk (or Σ_k (a_ik − a_jk)²) bit for bit.
#include "posenc/analysis/sinusoids.hpp"
#include "posenc/matrix.hpp"

namespace posenc::analysis {

/// S[i][j] = metric(row i, row j) of `a` for every i, j (cosine from the dot and the two
/// squared norms, distance from Σ (a_ik − a_jk)² directly, which keeps its precision for
/// nearly equal rows). Needs N² doubles (Matrix checks memory_limit()).
Matrix symmetric_similarity(const Matrix& a, Metric metric);

}  // namespace posenc::analysis
