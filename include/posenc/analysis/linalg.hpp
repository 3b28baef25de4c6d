#pragma once
/// Small dense linear algebra for the analyses: symmetric eigenproblems (PCA) and the
/// least-squares residual behind the `shift-linear` check. Plain loops, double precision.
#include <cstddef>
#include <span>
#include <vector>

#include "posenc/matrix.hpp"

namespace posenc::analysis {

/// Σ a_i b_i.
double dot(std::span<const double> a, std::span<const double> b);

/// Eigenvalues (descending) and eigenvectors (column c of `vectors` belongs to values[c]).
/// Each vector's largest-magnitude component is made positive, so results are deterministic.
struct Eigen {
  std::vector<double> values;
  Matrix vectors;
};

/// All eigenpairs of a symmetric matrix by cyclic Jacobi rotations (Golub & Van Loan §8.5).
/// O(n³) per sweep; meant for n up to a few hundred.
Eigen jacobi_eigen(Matrix a);

/// The k largest eigenpairs of a symmetric positive semi-definite matrix: Jacobi when
/// n <= jacobi_limit, else subspace iteration with Rayleigh–Ritz (k + 4 vectors).
Eigen top_eigen(const Matrix& a, std::size_t k, std::size_t jacobi_limit = 300);

/// How well the columns of Y lie in the column space of X (both m rows).
struct ProjectionResidual {
  double relative = 0.0;            ///< ||Y − P·Y||_F / ||Y||_F, P the projector on col(X)
  std::size_t rank = 0;             ///< numerical rank of X
  std::vector<double> row_residual; ///< ||(Y − P·Y)[r, :]|| per row
};

/// Householder QR of X with column pivoting; columns whose remaining norm falls below
/// rank_tol × the largest column norm are treated as dependent. A NaN or ±inf in X or Y
/// gives relative = NaN (every row residual NaN), never a silent 0.
ProjectionResidual projection_residual(const Matrix& x, const Matrix& y, double rank_tol = 1e-10);

/// C = A·Aᵀ restricted to rows [first, first + count) of A against all rows: out is count × A.rows().
/// Blocked over rows and columns so that both operands stay in cache.
void gram_rows(const Matrix& a, std::size_t first, std::size_t count, std::vector<double>& out);

}  // namespace posenc::analysis
