#include "posenc/analysis/similarity.hpp"

#include <catch2/catch.hpp>
#include <algorithm>

#include "posenc/analysis/gram.hpp"
#include "posenc/memory.hpp"
#include "posenc/parallel.hpp"
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

TEST_CASE("symmetric product: bit for bit the plain loop, whatever the thread count", "[similarity][gram]") {
  // 37 rows (not a multiple of the 4-row tile), 300 columns (more than one 256-wide k pass).
  const auto a = test_tables::random(37, 300);
  const auto plain = [&](posenc::analysis::Metric m, std::size_t i, std::size_t j) {
    double dot = 0, ni = 0, nj = 0, dist = 0;
    for (std::size_t k = 0; k < a.cols(); ++k) {  // k in order, one accumulator each
      dot += a(i, k) * a(j, k);
      ni += a(i, k) * a(i, k);
      nj += a(j, k) * a(j, k);
      dist += (a(i, k) - a(j, k)) * (a(i, k) - a(j, k));
    }
    if (m == posenc::analysis::Metric::kDistance) return std::sqrt(dist);
    if (m == posenc::analysis::Metric::kCosine) return dot / std::sqrt(ni * nj);
    return dot;
  };
  using posenc::analysis::Metric;
  for (const Metric m : {Metric::kDot, Metric::kCosine, Metric::kDistance}) {
    std::vector<posenc::Matrix> runs;
    for (unsigned t : {1u, 3u}) {
      posenc::set_threads(t);
      runs.push_back(posenc::analysis::symmetric_similarity(a, m));
    }
    posenc::set_threads(0);
    CHECK(std::equal(runs[0].data().begin(), runs[0].data().end(), runs[1].data().begin()));
    for (std::size_t i = 0; i < a.rows(); ++i)
      for (std::size_t j = 0; j < a.rows(); ++j) {
        INFO(int(m) << " " << i << " " << j);
        REQUIRE(runs[0](i, j) == plain(m, std::min(i, j), std::max(i, j)));
      }
  }
}

TEST_CASE("similarity_table streams the rows past the memory limit, with the same values", "[similarity][gram]") {
  const auto pe = test_tables::random(150, 9);
  const auto in_memory = similarity_table(posenc::TableInfo{}, pe, Metric::kDot)->to_matrix();
  posenc::set_memory_limit(150000);  // below the 150² + 2·150·9 doubles of the symmetric product
  const auto streamed_table = similarity_table(posenc::TableInfo{}, pe, Metric::kDot);
  CHECK(dynamic_cast<const posenc::MatrixTable*>(streamed_table.get()) == nullptr);
  std::vector<double> row(150);
  bool same = true;
  for (std::size_t i = 0; i < 150; ++i) {
    streamed_table->fill(i, 1, row);
    for (std::size_t j = 0; j < 150; ++j) same = same && row[j] == in_memory(i, j);
  }
  posenc::set_memory_limit(0);
  CHECK(same);
}
