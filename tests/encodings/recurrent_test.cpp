#include "posenc/encodings/recurrent.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "error_of.hpp"

using Catch::Matchers::Contains;
using posenc::encodings::recurrent_table;
using posenc::encodings::SinusoidalLayout;
using posenc_test::error_of;
using posenc_test::make;

namespace {

// The paper's closed form, written out independently: PE[t,2k] = sin(t/10000^(2k/d)), PE[t,2k+1] = cos(...).
double closed_form(std::size_t t, std::size_t i, std::size_t d) {
  const double w = 1.0 / std::pow(10000.0, static_cast<double>(2 * (i / 2)) / static_cast<double>(d));
  const double angle = w * static_cast<double>(t);
  return i % 2 == 0 ? std::sin(angle) : std::cos(angle);
}

template <class T>
T result(const posenc::Table& t, const std::string& name) {
  for (const auto& [n, v] : t.info().results)
    if (n == name) return std::get<T>(v);
  FAIL("no result " << name);
  return T{};
}

}  // namespace

TEST_CASE("recurrent starts at (0,1,0,1,...) and steps to sin(1), cos(1)", "[recurrent]") {
  const auto r = recurrent_table(2, 4);
  const double row0[4] = {0, 1, 0, 1};
  for (std::size_t i = 0; i < 4; ++i) CHECK(r.table(0, i) == row0[i]);
  CHECK(r.table(1, 0) == Approx(0.8414709848078965).epsilon(0).margin(1e-15));  // sin(1)
  CHECK(r.table(1, 1) == Approx(0.5403023058681398).epsilon(0).margin(1e-15));  // cos(1)
}

TEST_CASE("recurrent reproduces the sinusoidal table, 50 x 128, drift < 1e-9", "[recurrent]") {
  const auto r = recurrent_table(50, 128);
  double worst = 0;
  std::size_t worst_t = 0;
  for (std::size_t t = 0; t < 50; ++t)
    for (std::size_t i = 0; i < 128; ++i) {
      const double d = std::abs(r.table(t, i) - closed_form(t, i, 128));
      CHECK(d < 1e-9);
      if (d > worst) worst = d, worst_t = t;
    }
  CHECK(r.max_drift < 1e-9);
  CHECK(r.max_drift > 0.0);  // rounding does accumulate
  // The independent closed form may differ from posenc's frequencies in the last bit.
  CHECK(r.max_drift == Approx(worst).epsilon(0).margin(1e-14));
  // Against the sinusoidal table itself (the drift's definition) the position is exact.
  const auto exact = posenc::encodings::sinusoidal_table(50, 128);
  worst = 0;
  for (std::size_t t = 0; t < 50; ++t)
    for (std::size_t i = 0; i < 128; ++i)
      if (std::abs(r.table(t, i) - exact(t, i)) > worst) worst = std::abs(r.table(t, i) - exact(t, i)), worst_t = t;
  CHECK(r.max_drift == worst);
  CHECK(r.max_drift_position == worst_t);
}

TEST_CASE("recurrent drift stays small over long runs", "[recurrent]") {
  const auto r = recurrent_table(20000, 8);
  CHECK(r.max_drift < 1e-10);
  CHECK(r.max_drift_position > 0);
}

TEST_CASE("recurrent split layout permutes the interleaved columns", "[recurrent]") {
  const auto a = recurrent_table(30, 8);
  const auto b = recurrent_table(30, 8, 10000.0, SinusoidalLayout::kSplit);
  for (std::size_t t = 0; t < 30; ++t)
    for (std::size_t k = 0; k < 4; ++k) {
      CHECK(b.table(t, k) == a.table(t, 2 * k));
      CHECK(b.table(t, 4 + k) == a.table(t, 2 * k + 1));
    }
}

TEST_CASE("recurrent scheme reports max_drift and its position", "[recurrent]") {
  const auto t = make("recurrent", {{"len", std::int64_t{50}}, {"dim", std::int64_t{128}}});
  const auto direct = recurrent_table(50, 128);
  CHECK(result<double>(*t, "max_drift") == direct.max_drift);
  CHECK(result<std::int64_t>(*t, "max_drift_position") == static_cast<std::int64_t>(direct.max_drift_position));
  CHECK(t->info().column_names.at(1) == "cos0");
  const auto one = make("recurrent", {{"len", std::int64_t{1}}, {"dim", std::int64_t{4}}});
  CHECK(result<double>(*one, "max_drift") == 0.0);
  CHECK(result<std::int64_t>(*one, "max_drift_position") == 0);
}

TEST_CASE("recurrent streams: any block, filled from the nearest saved state, is the sequential run", "[recurrent]") {
  // An independent sequential run of the same recurrence (w_k = 10000^(-2k/8), interleaved).
  const std::size_t n = 1000, d = 8;
  std::vector<double> seq(n * d);
  double s[4] = {0, 0, 0, 0}, c[4] = {1, 1, 1, 1};
  for (std::size_t t = 0; t < n; ++t)
    for (std::size_t k = 0; k < 4; ++k) {
      seq[t * d + 2 * k] = s[k];
      seq[t * d + 2 * k + 1] = c[k];
      const double w = std::pow(10000.0, -2.0 * static_cast<double>(k) / 8.0);
      const double s_next = std::cos(w) * s[k] + std::sin(w) * c[k];
      c[k] = -std::sin(w) * s[k] + std::cos(w) * c[k];
      s[k] = s_next;
    }
  const auto t = make("recurrent", {{"len", std::int64_t{1000}}, {"dim", std::int64_t{8}}});
  const auto whole = t->to_matrix();
  std::vector<double> block(50 * d);
  t->fill(700, 50, block);  // starts from the state saved at row 512, not from row 0
  for (std::size_t i = 0; i < block.size(); ++i) {
    CHECK(block[i] == whole.data()[700 * d + i]);                // bit-identical in any order
    CHECK(block[i] == Approx(seq[700 * d + i]).epsilon(0).margin(1e-13));  // the independent run
  }
  for (std::size_t i = 0; i < seq.size(); i += 37) CHECK(whole.data()[i] == Approx(seq[i]).epsilon(0).margin(1e-13));
}

TEST_CASE("recurrent refuses odd --dim and tables too long to compute in sequence", "[recurrent][errors]") {
  CHECK_THAT(error_of([] { make("recurrent", {{"dim", std::int64_t{63}}}); }),
             Contains("--dim must be even for recurrent (got 63)"));
  CHECK_THAT(error_of([] { make("recurrent", {{"len", std::int64_t{1} << 30}, {"dim", std::int64_t{128}}}); }),
             Contains("--len") && Contains("--dim") && Contains("too large"));
  CHECK_THAT(error_of([] { make("recurrent", {{"layout", std::string("rows")}}); }), Contains("--layout"));
}
