#include "posenc/analysis/similarity.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "test_tables.hpp"

using namespace posenc::analysis;

TEST_CASE("blocked similarity equals the naive double loop", "[similarity]") {
  const auto pe = test_tables::random(150, 9);  // more rows than one 64-row block
  for (Metric m : {Metric::kDot, Metric::kCosine, Metric::kDistance}) {
    const auto s = similarity(pe, m);
    for (std::size_t i = 0; i < 150; i += 7)
      for (std::size_t j = 0; j < 150; j += 5) {
        double dot = 0, ni = 0, nj = 0, dist = 0;
        for (std::size_t c = 0; c < 9; ++c) {
          dot += pe(i, c) * pe(j, c);
          ni += pe(i, c) * pe(i, c);
          nj += pe(j, c) * pe(j, c);
          dist += (pe(i, c) - pe(j, c)) * (pe(i, c) - pe(j, c));
        }
        const double expected = m == Metric::kDot ? dot : m == Metric::kCosine ? dot / std::sqrt(ni * nj) : std::sqrt(dist);
        CHECK(s(i, j) == Approx(expected).epsilon(0).margin(1e-12));
      }
  }
}

TEST_CASE("sinusoidal similarity: O(N K) closed form equals the blocked product", "[similarity]") {
  const int n = 200, d = 64;
  const auto pe = test_tables::sinusoidal(n, d);
  const auto s = interleaved_sinusoids(test_tables::paper_omega(d), d);
  for (Metric m : {Metric::kDot, Metric::kCosine, Metric::kDistance}) {
    const auto closed = sinusoid_similarity_table({}, s, n, m)->to_matrix();
    const auto direct = similarity_table({}, pe, m)->to_matrix();
    REQUIRE(closed.rows() == static_cast<std::size_t>(n));
    REQUIRE(closed.cols() == static_cast<std::size_t>(n));
    double worst = 0.0;
    for (std::size_t i = 0; i < closed.data().size(); ++i)
      worst = std::max(worst, std::abs(closed.data()[i] - direct.data()[i]));
    INFO(metric_name(m));
    CHECK(worst < 1e-9);
  }
}

TEST_CASE("toeplitz table reads g(j - i), including negative offsets", "[similarity]") {
  // n = 3: g for delta = -2..2
  const auto t = toeplitz_table({}, {-2, -1, 0, 1, 2})->to_matrix();
  CHECK(t(0, 2) == 2);
  CHECK(t(2, 0) == -2);
  CHECK(t(1, 1) == 0);
}

TEST_CASE("cosine with a zero vector is NaN", "[similarity]") {
  const auto s = similarity(test_tables::integer(3, 2), Metric::kCosine);
  CHECK(std::isnan(s(0, 1)));
  CHECK(s(1, 2) == Approx(1.0).epsilon(1e-12));
}
