#include "posenc/encodings/bias_kernels.hpp"

#include <catch2/catch.hpp>

#include <cmath>

#include "posenc/encodings/scheme.hpp"
#include "posenc/error.hpp"
#include "posenc/schemes/registry.hpp"

namespace {

posenc::ParamMap kernels_params(const std::string& scheme) { return posenc::ParamMap(posenc::schemes::find_scheme(scheme).params); }

}  // namespace

using posenc::encodings::KerpleKind;

TEST_CASE("kerple log and power biases by hand", "[kerple]") {
  using posenc::encodings::kerple_bias;
  CHECK(kerple_bias(KerpleKind::kLog, 1, 1, 0) == 0.0);
  CHECK(kerple_bias(KerpleKind::kLog, 1, 1, 1) == Approx(-0.6931471805599453).epsilon(1e-15));  // -ln 2
  CHECK(kerple_bias(KerpleKind::kLog, 2, 0.5, 2) == Approx(-1.3862943611198906).epsilon(1e-15));  // -2 ln 2
  CHECK(kerple_bias(KerpleKind::kPower, 2, 0.5, 3) == Approx(-4.5).epsilon(1e-15));                // -0.5 * 9
  CHECK(kerple_bias(KerpleKind::kPower, 0.5, 2, 4) == Approx(-4.0).epsilon(1e-15));                // -2 * sqrt 4
  CHECK(kerple_bias(KerpleKind::kPower, 1, 0.25, 7) == Approx(-1.75).epsilon(1e-15));              // ALiBi, slope 1/4
}

TEST_CASE("kerple heads: one value for every head, equal lists, the reference's clamps refused", "[kerple]") {
  using posenc::encodings::kerple_heads;
  const auto h = kerple_heads(KerpleKind::kLog, {1.0, 2.0, 0.5}, {0.25});
  CHECK(h.p == std::vector<double>{1.0, 2.0, 0.5});
  CHECK(h.a == std::vector<double>{0.25, 0.25, 0.25});
  CHECK_THROWS_WITH(kerple_heads(KerpleKind::kLog, {1, 2}, {1, 2, 3}), Catch::Contains("--p and --a"));
  CHECK_THROWS_WITH(kerple_heads(KerpleKind::kPower, {2.5}, {1}), Catch::Contains("--p must be in (0, 2]"));
  CHECK_THROWS_WITH(kerple_heads(KerpleKind::kLog, {0.0}, {1}), Catch::Contains("--p must be in (0, inf]"));
  // NeMo's initial p, the ALiBi slopes of 8 heads: 1/128 and 1/256 are below the reference's eps 0.01.
  const auto nemo = kerple_heads(KerpleKind::kLog, {0.5, 0.0078125, 0.00390625}, {1});
  CHECK(nemo.p == std::vector<double>{0.5, 0.0078125, 0.00390625});
  REQUIRE(nemo.warnings.size() == 1);
  CHECK_THAT(nemo.warnings[0], Catch::StartsWith("--p 0.0078125,0.00390625 below 0.01"));
  CHECK_THROWS_WITH(kerple_heads(KerpleKind::kLog, {1}, {0.001}), Catch::Contains("--a must be at least 0.01"));
}

TEST_CASE("kerple table: H x N x N, symmetric in |i - j|, causal masks later keys", "[kerple]") {
  auto p = kernels_params("kerple");
  p.set("len", std::int64_t{4});
  p.set("p", std::vector<double>{1.0, 2.0});
  const auto m = posenc::schemes::make_table("kerple", p)->to_matrix();
  REQUIRE(m.rows() == 8);  // 2 heads x 4 rows
  CHECK(m(1, 3) == Approx(-std::log(3.0)).epsilon(1e-15));      // head 0, i = 1, j = 3: -ln(1 + 2)
  CHECK(m(4 + 3, 1) == Approx(-2 * std::log(3.0)).epsilon(1e-15));  // head 1, i = 3, j = 1
  p.set("form", std::string("causal"));
  p.set("head", std::int64_t{0});
  const auto c = posenc::schemes::make_table("kerple", p)->to_matrix();
  CHECK(std::isinf(c(1, 3)));
  CHECK(c(3, 1) == Approx(-std::log(3.0)).epsilon(1e-15));
}

TEST_CASE("sandwich: d = 4 by hand, and d = 128 head 1 of 8 at delta 1 is -1.4466", "[sandwich]") {
  // omega = 10000^(-2k/4), k = 1, 2: 0.01 and 0.0001; (cos 0.01 + cos 0.0001 - 2) / (8h/H).
  const double num = std::cos(0.01) + std::cos(0.0001) - 2;
  CHECK(posenc::encodings::sandwich_bias(1, 4, 1, 2) == Approx(num / 4).epsilon(1e-9));
  CHECK(posenc::encodings::sandwich_bias(1, 4, 2, 2) == Approx(num / 8).epsilon(1e-9));
  CHECK(posenc::encodings::sandwich_bias(0, 4, 1, 2) == 0.0);
  // numpy: np.cos(10000 ** (-2 * np.arange(1, 65) / 128)).sum() - 64 (float64); schemes.md: -1.447.
  CHECK(posenc::encodings::sandwich_numerator(1, 128) == Approx(-1.446618505100517).epsilon(1e-12));
  CHECK(posenc::encodings::sandwich_numerator(469, 128) == Approx(-53.11894694357048).epsilon(1e-12));
}

TEST_CASE("fire input: one normaliser up to L, growing past it", "[fire]") {
  using posenc::encodings::fire_input;
  // ln(1 + 0.1 * 100) / (ln(1 + 0.1 * 512) + 1e-6) = 0.6063 (schemes.md): the same for rows 100 and 512.
  CHECK(fire_input(100, 0, 0.1, 512, 1e-6) == Approx(0.6062818334675674).epsilon(1e-12));
  CHECK(fire_input(512, 412, 0.1, 512, 1e-6) == Approx(0.6062818334675674).epsilon(1e-12));
  CHECK(fire_input(2047, 1947, 0.1, 512, 1e-6) == Approx(0.45018893822497646).epsilon(1e-12));
  CHECK(fire_input(2047, 0, 0.1, 512, 1e-6) == Approx(0.9999998122566305).epsilon(1e-12));
  CHECK(fire_input(5, 5, 0.1, 512, 1e-6) == 0.0);
  CHECK(fire_input(3, 7, 0.1, 512, 1e-6) == fire_input(7, 3, 0.1, 512, 1e-6));  // |i - j| below L
}
