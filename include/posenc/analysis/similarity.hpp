#pragma once
/// Similarity matrices: S[i][j] = metric(PE_i, PE_j) between all positions. Both kinds are
/// Tables computed block by block as a writer asks for rows, so an N×N result is never
/// held in memory unless the caller asks for it.
#include <memory>
#include <vector>

#include "posenc/analysis/sinusoids.hpp"
#include "posenc/table.hpp"

namespace posenc::analysis {

/// Rows [first, first + count) of the N×N similarity of `pe`'s rows, computed as a blocked
/// matrix product (distance directly as |a − b|, which keeps its precision for close rows).
void similarity_rows(const Matrix& pe, Metric metric, std::size_t first, std::size_t count, std::span<double> out);

/// The whole matrix in memory.
Matrix similarity(const Matrix& pe, Metric metric);

/// A table whose entry (i, j) is g(j − i) (Toeplitz): `g` holds g(Δ) for
/// Δ = −(N−1) … N−1, i.e. g[Δ + N − 1].
std::unique_ptr<Table> toeplitz_table(TableInfo info, std::vector<double> g);

/// O(N·K) closed form for a sin/cos table: entry (i, j) from Σ_k cos(ω_k (j − i)).
std::unique_ptr<Table> sinusoid_similarity_table(TableInfo info, const Sinusoids& s, std::size_t n, Metric metric);

/// Blocked product for any table; `info` gets shape {N, N}. The symmetric product (each pair
/// once, all N² values held) when they fit the memory limit and `stream` is false; else the
/// rows are computed block by block as the reader asks for them (each pair twice, O(N·D)
/// memory): what a figure's reducer, which reads each row once, should always get.
std::unique_ptr<Table> similarity_table(TableInfo info, Matrix pe, Metric metric, bool stream = false);

}  // namespace posenc::analysis
