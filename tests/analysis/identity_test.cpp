#include "posenc/analysis/identity.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "posenc/schemes/registry.hpp"
#include "test_tables.hpp"

using namespace posenc::analysis;
using posenc::Matrix;

namespace {

std::int64_t worst(const IdentityResult& r, const std::string& key) {
  for (const auto& [k, v] : r.worst)
    if (k == key) return v;
  FAIL("no " << key << " in worst");
  return -1;
}

std::unique_ptr<posenc::Table> scheme(const std::string& name, std::vector<std::pair<std::string, posenc::ParamValue>> v) {
  posenc::ParamMap p;
  for (auto& [k, x] : v) p.set(k, x);
  return posenc::schemes::make_table(name, p);
}

}  // namespace

TEST_CASE("shift-linear: the known block rotation holds for sinusoidal, fails for a perturbed table", "[identity]") {
  const int d = 32;
  auto pe = test_tables::sinusoidal(100, d);
  const auto known = interleaved_sinusoids(test_tables::paper_omega(d), d);
  const auto ok = check_shift_linear(pe, known, 0, kDefaultTolerance);
  CHECK(ok.holds);
  CHECK(ok.max_error < 1e-12);
  pe(40, 3) += 1e-3;
  const auto bad = check_shift_linear(pe, known, 0, kDefaultTolerance);
  CHECK_FALSE(bad.holds);
  CHECK((worst(bad, "t") == 40 || worst(bad, "t") + worst(bad, "delta") == 40));
}

TEST_CASE("shift-linear by least squares: sinusoidal holds, random and integer fail, few rows undecided", "[identity]") {
  const auto sin_ok = check_shift_linear(test_tables::sinusoidal(100, 16), std::nullopt, 0, kDefaultTolerance);
  CHECK(sin_ok.decided);
  CHECK(sin_ok.holds);
  const auto learned = check_shift_linear(test_tables::random(100, 16), std::nullopt, 0, kDefaultTolerance);
  CHECK(learned.decided);
  CHECK_FALSE(learned.holds);
  CHECK(learned.max_error > 0.1);
  // The integer position is affine in t (t + 1), not linear: no T with T t = t + 1 for all t.
  const auto integer = check_shift_linear(test_tables::integer(20, 1), std::nullopt, 0, kDefaultTolerance);
  CHECK_FALSE(integer.holds);
  // 10 positions in 16 dimensions: any table fits, so the check cannot decide.
  const auto few = check_shift_linear(test_tables::random(10, 16), std::nullopt, 0, kDefaultTolerance);
  CHECK_FALSE(few.decided);
  CHECK_FALSE(few.holds);
  CHECK_THAT(few.note, Catch::Contains("at least 18 rows"));
}

TEST_CASE("dot-shift-invariant and dot-symmetric: sinusoidal holds, learned and integer fail", "[identity]") {
  const auto pe = test_tables::sinusoidal(120, 64);
  CHECK(check_dot_shift_invariant(pe, 0, kDefaultTolerance).holds);
  CHECK(check_dot_symmetric(pe, 0, kDefaultTolerance).holds);
  const auto r = test_tables::random(120, 64);
  CHECK_FALSE(check_dot_shift_invariant(r, 0, kDefaultTolerance).holds);
  CHECK_FALSE(check_dot_symmetric(r, 0, kDefaultTolerance).holds);
  const auto i = check_dot_shift_invariant(test_tables::integer(10, 1), 0, kDefaultTolerance);
  CHECK_FALSE(i.holds);
  // |t(t+d) - 0| / 81 is largest at t = 9 - d with d = 0: 81/81.
  CHECK(i.max_error == Approx(1.0).epsilon(1e-12));
}

TEST_CASE("unique: pow2 sine in 2 dims revisits position 0 at 710 (= 226 pi)", "[identity]") {
  const auto r = check_unique(test_tables::sine_pow2(1000, 2), kDefaultMinDistance);
  CHECK_FALSE(r.holds);
  CHECK(worst(r, "i") == 0);
  CHECK(worst(r, "j") == 710);
  CHECK(r.max_error < 1e-4);
  CHECK(check_unique(test_tables::sinusoidal(1000, 16), kDefaultMinDistance).holds);
}

TEST_CASE("bounded: sinusoidal within 1, integer positions are not", "[identity]") {
  CHECK(check_bounded(test_tables::sinusoidal(50, 8), 1.0).holds);
  const auto r = check_bounded(test_tables::integer(50, 2), 1.0);
  CHECK_FALSE(r.holds);
  CHECK(r.max_error == 49.0);
  CHECK(worst(r, "t") == 49);
}

TEST_CASE("bias-relative: alibi (both forms) and t5 hold; other matrices fail", "[identity]") {
  for (const char* form : {"symmetric", "causal"})
    CHECK(check_bias_relative(*scheme("alibi", {{"len", std::int64_t{12}}, {"heads", std::int64_t{3}}, {"form", std::string(form)}}),
                              kDefaultTolerance)
              .holds);
  CHECK(check_bias_relative(*scheme("t5", {{"len", std::int64_t{40}}, {"key-len", std::int64_t{30}}}), kDefaultTolerance)
            .holds);
  CHECK(check_bias_relative(*scheme("t5", {{"len", std::int64_t{40}}, {"mode", std::string("causal")}}), kDefaultTolerance)
            .holds);

  posenc::TableInfo info;
  info.shape = {5, 5};
  const auto random = check_bias_relative(posenc::MatrixTable(info, test_tables::random(5, 5)), kDefaultTolerance);
  CHECK_FALSE(random.holds);
  Matrix masked = posenc::schemes::make_table("alibi", [] {
                    posenc::ParamMap p;
                    p.set("len", std::int64_t{5});
                    p.set("head", std::int64_t{0});
                    p.set("form", std::string("causal"));
                    return p;
                  }())->to_matrix();
  masked(4, 2) = -std::numeric_limits<double>::infinity();  // one extra masked key breaks the pattern
  const auto mask = check_bias_relative(posenc::MatrixTable(info, masked), kDefaultTolerance);
  CHECK_FALSE(mask.holds);
  CHECK(worst(mask, "i") == 4);
  CHECK(worst(mask, "j") == 2);
}

TEST_CASE("every identity fails on a table with NaN or inf and names the first such cell", "[identity][nonfinite]") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  for (const double bad : {nan, inf, -inf}) {
    INFO("value " << bad);
    // A sinusoidal table passes every identity; one bad cell (and a later one) must fail them all.
    auto pe = test_tables::sinusoidal(60, 8);
    pe(5, 2) = bad;
    pe(40, 1) = bad;
    const auto known = interleaved_sinusoids(test_tables::paper_omega(8), 8);
    const std::vector<IdentityResult> all = {
        check_shift_linear(pe, known, 0, kDefaultTolerance),
        check_shift_linear(pe, std::nullopt, 0, kDefaultTolerance),
        check_dot_shift_invariant(pe, 0, kDefaultTolerance),
        check_dot_symmetric(pe, 0, kDefaultTolerance),
        check_unique(pe, kDefaultMinDistance),
        check_bounded(pe, 1.0),
    };
    for (const auto& r : all) {
      INFO(r.name);
      CHECK(r.decided);
      CHECK_FALSE(r.holds);
      CHECK(std::isnan(r.max_error));
      CHECK(worst(r, "t") == 5);
      CHECK(worst(r, "dim") == 2);
    }
  }
  // Few rows: shift-linear would be undecided for a finite table, but a NaN decides it.
  Matrix few = test_tables::random(4, 8);
  few(0, 0) = nan;
  CHECK(check_shift_linear(few, std::nullopt, 0, kDefaultTolerance).decided);
}

TEST_CASE("bias-relative: NaN and +inf fail at their first cell, -inf is a mask", "[identity][nonfinite]") {
  posenc::TableInfo info;
  info.shape = {4, 4};
  Matrix b(4, 4);
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 4; ++j) b(i, j) = -std::abs(double(i) - double(j));  // -|i-j|, holds
  CHECK(check_bias_relative(posenc::MatrixTable(info, b), kDefaultTolerance).holds);
  for (const double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    Matrix m = b;
    m(2, 1) = bad;
    m(3, 0) = bad;
    const auto r = check_bias_relative(posenc::MatrixTable(info, m), kDefaultTolerance);
    CHECK_FALSE(r.holds);
    CHECK(std::isnan(r.max_error));
    CHECK(worst(r, "i") == 2);
    CHECK(worst(r, "j") == 1);
  }
}

TEST_CASE("bias-relative: more queries than keys (N > M) holds for every per-row-constant form", "[identity][bias]") {
  // b[i, j] = f(j - i) + c_i written out here for a 6 x 4 table (the audit's case: rows 4 and 5
  // have no diagonal, and the old rule subtracted 0 there and failed with 1.67).
  const double inf = std::numeric_limits<double>::infinity(), m = 0.5;
  posenc::TableInfo info;
  info.shape = {6, 4};
  Matrix causal(6, 4), mj(6, 4), sym(6, 4), t5like(6, 4);
  for (std::size_t i = 0; i < 6; ++i)
    for (std::size_t j = 0; j < 4; ++j) {
      causal(i, j) = j <= i ? m * double(j) : -inf;   // the ALiBi paper's m*j with the causal mask
      mj(i, j) = m * double(j);                       // m*j, no mask: f(k) = m k, c_i = m i
      sym(i, j) = -m * std::abs(double(i) - double(j));  // -m|i - j|
      t5like(i, j) = std::pow(double(j) - double(i), 3) + 7.0 * double(i * i);  // any f, any c_i
    }
  for (const Matrix* b : {&causal, &mj, &sym, &t5like}) {
    const auto r = check_bias_relative(posenc::MatrixTable(info, *b), kDefaultTolerance);
    CHECK(r.holds);
    CHECK(r.max_error <= 1e-15);
  }
  // One changed entry in a row without a diagonal is caught in that row.
  Matrix bad = causal;
  bad(5, 1) += 0.1;
  const auto r = check_bias_relative(posenc::MatrixTable(info, bad), kDefaultTolerance);
  CHECK_FALSE(r.holds);
  CHECK(worst(r, "i") == 5);
  // The error is the residual of b[5, j] - c_5 against f(j - 5) fixed by rows 0..4: c_5 comes from
  // b[5, 0] (0), then b[5, 1] differs from f(-4) + c_5 = 0.5 by 0.1, relative to max |b| = 1.5.
  CHECK(r.max_error == Approx(0.1 / 1.5).epsilon(1e-12));
  // A 1-column table: every row is its own constant, nothing to contradict.
  posenc::TableInfo one;
  one.shape = {5, 1};
  CHECK(check_bias_relative(posenc::MatrixTable(one, test_tables::random(5, 1)), kDefaultTolerance).holds);
}

TEST_CASE("bias-relative: H x N x M tables are checked per head, the worst names the head", "[identity][bias]") {
  posenc::TableInfo info;
  info.shape = {3, 5, 5};
  Matrix b(15, 5);
  for (std::size_t h = 0; h < 3; ++h)
    for (std::size_t i = 0; i < 5; ++i)
      for (std::size_t j = 0; j < 5; ++j) b(h * 5 + i, j) = -std::pow(2.0, -double(h + 1)) * std::abs(double(i) - double(j));
  CHECK(check_bias_relative(posenc::MatrixTable(info, b), kDefaultTolerance).holds);
  b(2 * 5 + 3, 4) += 0.01;  // head 2, i = 3, j = 4
  const auto r = check_bias_relative(posenc::MatrixTable(info, b), kDefaultTolerance);
  CHECK_FALSE(r.holds);
  CHECK(worst(r, "head") == 2);
}
