#include "posenc/rope/xpos.hpp"
#include "posenc/schemes/registry.hpp"

#include <catch2/catch.hpp>

#include <cmath>

#include "../encodings/error_of.hpp"

using namespace posenc::encodings;
using namespace posenc::rope;
using namespace posenc::schemes;
using posenc_test::error_of;
using posenc_test::make;

// d = 4: zeta = (0 + 1.6)/5.6 = 2/7, (2 + 1.6)/5.6 = 9/14; gamma = 512. L = 5: torchscale's
// min_pos = -5 // 2 = -3 (c = 3), lucidrains' 5 // 2 = 2 (c = 2). Values: (2/7)^(-3/512) etc. in numpy.
TEST_CASE("xpos scale table, d = 4, odd length: torchscale and lucidrains centre one position apart", "[xpos]") {
  const auto ts = make("xpos", {{"dim", std::int64_t{4}}, {"len", std::int64_t{5}}})->to_matrix();
  CHECK(ts(0, 0) == Approx(1.0073674148534213).epsilon(1e-14));  // (2/7)^(-3/512)
  CHECK(ts(0, 1) == Approx(1.0073674148534213).epsilon(1e-14));  // duplicated for the pair's second dim
  CHECK(ts(0, 2) == Approx(1.0025922177844546).epsilon(1e-14));  // (9/14)^(-3/512)
  CHECK(ts(4, 0) == Approx(0.99755618830887283).epsilon(1e-14));  // (2/7)^(1/512)
  CHECK(ts(3, 0) == Approx(1.0).epsilon(1e-15));                  // t = c
  const auto lr = make("xpos", {{"dim", std::int64_t{4}}, {"len", std::int64_t{5}}, {"convention", std::string("lucidrains")}})
                      ->to_matrix();
  CHECK(lr(0, 0) == Approx(1.004905598587742).epsilon(1e-14));  // (2/7)^(-2/512)
  CHECK(lr(4, 3) == Approx(0.9982755793361977).epsilon(1e-14));  // (9/14)^(2/512)
  CHECK(lr(2, 0) == Approx(1.0).epsilon(1e-15));
  // Even lengths: both centre on L/2.
  const auto a = make("xpos", {{"dim", std::int64_t{4}}, {"len", std::int64_t{6}}})->to_matrix();
  const auto b = make("xpos", {{"dim", std::int64_t{4}}, {"len", std::int64_t{6}}, {"convention", std::string("lucidrains")}})
                     ->to_matrix();
  for (std::size_t t = 0; t < 6; ++t)
    for (std::size_t c = 0; c < 4; ++c) CHECK(a(t, c) == b(t, c));
  // The paper's centre 0: row 0 is 1, row t is zeta^(t/512).
  const auto z = make("xpos", {{"dim", std::int64_t{4}}, {"len", std::int64_t{5}}, {"centre", std::string("zero")}})->to_matrix();
  CHECK(z(0, 0) == 1.0);
  CHECK(z(4, 0) == Approx(std::pow(2.0 / 7.0, 4.0 / 512.0)).epsilon(1e-14));
}

TEST_CASE("xpos cos and sin tables are RoPE's times the scale; keys take the reciprocal", "[xpos]") {
  const auto c = make("xpos", {{"dim", std::int64_t{4}}, {"len", std::int64_t{5}}, {"table", std::string("cos")}})->to_matrix();
  const auto s = make("xpos", {{"dim", std::int64_t{4}}, {"len", std::int64_t{5}}, {"table", std::string("sin")}})->to_matrix();
  CHECK(c(1, 0) == Approx(0.54295281209676016).epsilon(1e-14));  // cos(1)·(2/7)^(-2/512)
  CHECK(s(1, 1) == Approx(0.84559890368259594).epsilon(1e-14));  // sin(1)·(2/7)^(-2/512)
  const auto k = make("xpos", {{"dim", std::int64_t{4}}, {"len", std::int64_t{5}}, {"role", std::string("key")}})->to_matrix();
  const auto q = make("xpos", {{"dim", std::int64_t{4}}, {"len", std::int64_t{5}}})->to_matrix();
  for (std::size_t t = 0; t < 5; ++t)
    for (std::size_t i = 0; i < 4; ++i) CHECK(k(t, i) * q(t, i) == Approx(1.0).epsilon(1e-15));
}

// schemes.md §1: d = 64, q = k = ones: Delta = 0 gives 64 for both; at m - n = 1000 xPos gives
// 12.09 against RoPE's 17.85 (numpy: 12.086306212203427, 17.851933499836882).
TEST_CASE("xpos score of all-ones q and k decays below RoPE's and depends on m - n only", "[xpos]") {
  XposOptions o;
  o.len = 4096;
  const std::vector<double> ones(64, 1.0);
  CHECK(xpos_score(o, ones, ones, 7, 7) == Approx(64.0).epsilon(1e-12));
  CHECK(xpos_score(o, ones, ones, 1500, 500) == Approx(12.086306212203427).epsilon(1e-9));
  CHECK(xpos_score(o, ones, ones, 3000, 2000) == Approx(12.086306212203427).epsilon(1e-9));
  o.centre = XposCentre::kZero;  // a different centre: the same scores
  CHECK(xpos_score(o, ones, ones, 1000, 0) == Approx(12.086306212203427).epsilon(1e-9));
  // Keys scaled like queries (downscale forgotten): the score depends on m + n.
  const double a = xpos_score(o, ones, ones, 1500, 500, XposRole::kQuery);
  const double b = xpos_score(o, ones, ones, 3000, 2000, XposRole::kQuery);
  CHECK(std::abs(a - b) > 1.0);
}

TEST_CASE("xpos refuses an odd dimension and a zero scale base", "[xpos]") {
  CHECK(error_of([] { make("xpos", {{"dim", std::int64_t{5}}}); }) == "--dim must be even and at least 2 for xpos (got 5)");
  XposOptions o;
  o.scale_base = 0;
  CHECK(error_of([&] { check_xpos(o); }) == "--scale-base must be a finite number >= 1 (got 0)");
}
