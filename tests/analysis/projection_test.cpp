#include "posenc/analysis/projection.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "posenc/analysis/linalg.hpp"
#include "posenc/error.hpp"
#include "test_tables.hpp"

using namespace posenc::analysis;
using posenc::Matrix;

TEST_CASE("project_dims picks columns and names --dims when out of range", "[projection]") {
  const auto pe = test_tables::sinusoidal(5, 6);
  const auto p = project_dims(pe, {4, 0});
  CHECK(p(3, 0) == pe(3, 4));
  CHECK(p(3, 1) == pe(3, 0));
  CHECK_THROWS_WITH(project_dims(pe, {6}), Catch::Contains("--dims"));
}

TEST_CASE("pca of points on a known plane recovers its axes and variances", "[projection]") {
  // Rows a_t u + b_t v + c with u = (1,1,0)/sqrt2, v = (0,0,1), a = -2..2 twice (variance 20/9),
  // b = +1 five times then -1 five times (variance 10/9), a and b uncorrelated.
  Matrix x(10, 3);
  const double s = std::sqrt(0.5);
  for (std::size_t t = 0; t < 10; ++t) {
    const double a = static_cast<double>(t % 5) - 2.0, b = t < 5 ? 1.0 : -1.0;
    x(t, 0) = a * s + 3.0;
    x(t, 1) = a * s - 1.0;
    x(t, 2) = b + 2.0;
  }
  const auto p = pca(x, 2);
  CHECK(p.variance[0] == Approx(20.0 / 9).epsilon(1e-12));
  CHECK(p.variance[1] == Approx(10.0 / 9).epsilon(1e-12));
  CHECK(p.explained[0] + p.explained[1] == Approx(1.0).epsilon(1e-12));
  CHECK(std::abs(p.components(0, 0)) == Approx(s).epsilon(1e-12));
  CHECK(std::abs(p.components(1, 2)) == Approx(1.0).epsilon(1e-12));
  CHECK(std::abs(p.coords(0, 0)) == Approx(2.0).epsilon(1e-12));
}

TEST_CASE("pca through the Gram matrix (N < D) matches the covariance route", "[projection]") {
  const auto x = test_tables::random(12, 30, 11);  // N < D: Gram path
  const auto p = pca(x, 3);
  // Reference: centre, covariance 30 x 30, Jacobi, project.
  Matrix c = x;
  for (std::size_t j = 0; j < 30; ++j) {
    double mean = 0;
    for (std::size_t i = 0; i < 12; ++i) mean += c(i, j) / 12;
    for (std::size_t i = 0; i < 12; ++i) c(i, j) -= mean;
  }
  Matrix cov(30, 30);
  for (std::size_t a = 0; a < 30; ++a)
    for (std::size_t b = 0; b < 30; ++b)
      for (std::size_t i = 0; i < 12; ++i) cov(a, b) += c(i, a) * c(i, b) / 11;
  const auto e = jacobi_eigen(cov);
  for (std::size_t k = 0; k < 3; ++k) {
    CHECK(p.variance[k] == Approx(e.values[k]).epsilon(1e-9));
    for (std::size_t i = 0; i < 12; ++i) {
      double ref = 0;
      for (std::size_t a = 0; a < 30; ++a) ref += c(i, a) * e.vectors(a, k);
      CHECK(std::abs(p.coords(i, k)) == Approx(std::abs(ref)).epsilon(0).margin(1e-9));
    }
  }
}
