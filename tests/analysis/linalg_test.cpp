#include "posenc/analysis/linalg.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "test_tables.hpp"

using namespace posenc::analysis;
using posenc::Matrix;

TEST_CASE("jacobi: eigenpairs of a known symmetric matrix", "[linalg]") {
  Matrix a(3, 3);
  // [[2,1,0],[1,2,0],[0,0,5]]: eigenvalues 5, 3, 1; eigenvector of 3 is (1,1,0)/sqrt2.
  a(0, 0) = 2; a(0, 1) = 1; a(1, 0) = 1; a(1, 1) = 2; a(2, 2) = 5;
  const auto e = jacobi_eigen(a);
  CHECK(e.values[0] == Approx(5.0).epsilon(0).margin(1e-14));
  CHECK(e.values[1] == Approx(3.0).epsilon(0).margin(1e-14));
  CHECK(e.values[2] == Approx(1.0).epsilon(0).margin(1e-14));
  CHECK(e.vectors(0, 1) == Approx(std::sqrt(0.5)).epsilon(0).margin(1e-14));
  CHECK(e.vectors(1, 1) == Approx(std::sqrt(0.5)).epsilon(0).margin(1e-14));
  CHECK(e.vectors(2, 0) == Approx(1.0).epsilon(0).margin(1e-14));
}

TEST_CASE("subspace iteration finds the same top eigenpairs as Jacobi", "[linalg]") {
  const auto x = test_tables::random(60, 40, 3);
  Matrix a(40, 40);  // XᵀX: symmetric positive semi-definite
  for (std::size_t i = 0; i < 40; ++i)
    for (std::size_t j = 0; j < 40; ++j)
      for (std::size_t r = 0; r < 60; ++r) a(i, j) += x(r, i) * x(r, j);
  const auto full = jacobi_eigen(a);
  const auto top = top_eigen(a, 3, /*jacobi_limit=*/10);
  for (std::size_t c = 0; c < 3; ++c) {
    CHECK(top.values[c] == Approx(full.values[c]).epsilon(1e-10));
    double align = 0.0;
    for (std::size_t r = 0; r < 40; ++r) align += top.vectors(r, c) * full.vectors(r, c);
    CHECK(std::abs(align) == Approx(1.0).epsilon(0).margin(1e-8));
  }
}

TEST_CASE("projection residual: zero inside the span, the orthogonal part outside", "[linalg]") {
  Matrix x(4, 2), y(4, 1);
  x(0, 0) = 1; x(1, 1) = 1; x(2, 0) = 1;  // columns (1,0,1,0) and (0,1,0,0)
  y(0, 0) = 2; y(1, 0) = 3; y(2, 0) = 2;  // = 2*col0 + 3*col1
  auto r = projection_residual(x, y);
  CHECK(r.rank == 2);
  CHECK(r.relative == Approx(0.0).epsilon(0).margin(1e-15));
  y(3, 0) = 1;  // orthogonal component (0,0,0,1): residual 1 of |y| = sqrt(18)
  r = projection_residual(x, y);
  CHECK(r.relative == Approx(1.0 / std::sqrt(18.0)).epsilon(1e-14));
  CHECK(r.row_residual[3] == Approx(1.0).epsilon(1e-14));
  CHECK(r.row_residual[0] == Approx(0.0).epsilon(0).margin(1e-15));
  // A repeated column does not add to the rank.
  Matrix z(4, 3);
  for (std::size_t i = 0; i < 4; ++i) z(i, 0) = z(i, 1) = static_cast<double>(i) + 1, z(i, 2) = 1.0;
  CHECK(projection_residual(z, y).rank == 2);
}

TEST_CASE("projection_residual: a NaN or inf anywhere gives a NaN residual, not 0", "[linalg][nonfinite]") {
  // Y = X lies in col(X), residual 0; one NaN must not be skipped by the pivoting.
  posenc::Matrix x(6, 2);
  for (std::size_t r = 0; r < 6; ++r) {
    x(r, 0) = double(r);
    x(r, 1) = 1.0;
  }
  CHECK(posenc::analysis::projection_residual(x, x).relative == Approx(0.0).epsilon(0).margin(1e-14));
  for (const double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    posenc::Matrix y = x;
    y(3, 1) = bad;
    CHECK(std::isnan(posenc::analysis::projection_residual(x, y).relative));
    CHECK(std::isnan(posenc::analysis::projection_residual(y, x).relative));
  }
}
