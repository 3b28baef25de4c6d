#pragma once
/// Projections of the position vectors to 2 or 3 coordinates, for scatter plots coloured
/// by position (seed 003's picture of a 3-d sine encoding closing into a loop).
#include <cstddef>
#include <vector>

#include "posenc/matrix.hpp"

namespace posenc::analysis {

/// Columns `dims` of `pe` (N × dims.size()); throws Error naming --dims for a column
/// outside the table.
Matrix project_dims(const Matrix& pe, const std::vector<std::size_t>& dims);

struct Pca {
  Matrix coords;                   ///< N × k: centred rows projected on the components
  Matrix components;               ///< k × D, unit vectors, largest component positive
  std::vector<double> variance;    ///< variance along each component (divisor N − 1; N = 1 gives 0)
  std::vector<double> explained;   ///< variance / total variance
};

/// Principal components of the rows. Uses the D×D covariance when D <= N, else the N×N
/// Gram matrix of the centred rows (same non-zero spectrum, cheaper when N < D), with
/// top_eigen (Jacobi for small sizes, subspace iteration otherwise).
Pca pca(const Matrix& pe, std::size_t k);

}  // namespace posenc::analysis
