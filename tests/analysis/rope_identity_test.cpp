#include "posenc/analysis/rope_case.hpp"
#include "posenc/analysis/rope_identity.hpp"

#include <catch2/catch.hpp>
#include <cmath>

using namespace posenc::analysis;

namespace {

RopeCheckCase make(QkChoice qk, RopeLayout layout = RopeLayout::kInterleaved) {
  return make_rope_case(rope_theta(10000.0, 64), layout, 4096, qk, 42);
}

}  // namespace

TEST_CASE("rope identities hold for the element-wise form, both layouts", "[rope-identity]") {
  for (auto layout : {RopeLayout::kInterleaved, RopeLayout::kHalf}) {
    const auto c = make(QkChoice::kRandom, layout);
    CHECK(check_rope_relative(c, 1e-9).holds);
    CHECK(check_rope_norm(c, 1e-9).holds);
    CHECK(check_rope_forms_agree(c, 1e-9).holds);
    CHECK(check_layouts_agree(c, 1e-9).holds);
    CHECK(check_rope_dot_shift_invariant(c, 1e-9).holds);
  }
}

TEST_CASE("rope dot-symmetric fails for q != k while rope-relative holds; holds for q = k", "[rope-identity]") {
  const auto random = make(QkChoice::kRandom);
  CHECK(check_rope_relative(random, 1e-9).holds);
  const auto sym = check_rope_dot_symmetric(random, 1e-9);
  CHECK_FALSE(sym.holds);
  CHECK(sym.max_error > 0.01);
  CHECK(check_rope_dot_symmetric(make(QkChoice::kSame), 1e-9).holds);
  CHECK(check_rope_dot_symmetric(make(QkChoice::kOnes), 1e-9).holds);
}

TEST_CASE("broken rotary implementations fail the matching identity", "[rope-identity]") {
  auto c = make(QkChoice::kRandom);
  const auto theta = c.theta;
  SECTION("angle m^2 theta: norms kept, relativity lost") {
    c.apply = [theta](std::span<const double> x, double m, RopeLayout l) { return rope_elementwise(x, m * m, theta, l); };
    CHECK(check_rope_norm(c, 1e-9).holds);
    CHECK_FALSE(check_rope_relative(c, 1e-9).holds);
    CHECK_FALSE(check_rope_dot_shift_invariant(c, 1e-9).holds);
  }
  SECTION("a growing scale (1 + m/1000): not a rotation") {
    c.apply = [theta](std::span<const double> x, double m, RopeLayout l) {
      auto y = rope_elementwise(x, m, theta, l);
      for (double& v : y) v *= 1.0 + m / 1000.0;
      return y;
    };
    const auto r = check_rope_norm(c, 1e-9);
    CHECK_FALSE(r.holds);
    CHECK(r.worst.back().second == 4095);
    CHECK_FALSE(check_rope_forms_agree(c, 1e-9).holds);
  }
  SECTION("half layout fed interleaved cos/sin (pitfall 1)") {
    c.apply = [theta](std::span<const double> x, double m, RopeLayout) {
      return rope_elementwise(x, m, theta, RopeLayout::kInterleaved);
    };
    CHECK_FALSE(check_layouts_agree(c, 1e-9).holds);
  }
}

TEST_CASE("normal_vector is reproducible and roughly standard", "[rope-identity]") {
  const auto a = normal_vector(10000, 1), b = normal_vector(10000, 1);
  CHECK(a == b);
  double mean = 0, var = 0;
  for (double v : a) mean += v / 10000;
  for (double v : a) var += (v - mean) * (v - mean) / 9999;
  CHECK(std::abs(mean) < 0.05);
  CHECK(var == Approx(1.0).epsilon(0).margin(0.05));
}

TEST_CASE("the rope library's three forms equal the independent ones written here", "[rope-identity]") {
  for (auto layout : {RopeLayout::kInterleaved, RopeLayout::kHalf}) {
    const auto c = make(QkChoice::kRandom, layout);
    for (double m : {0.0, 1.0, 77.0, 4095.0}) {
      const auto lib = c.apply(c.q, m, layout);
      const auto mine = rope_elementwise(c.q, m, c.theta, layout);
      const auto cx = rope_complex_form(c.q, m, c.theta, layout);
      const auto mx = rope_matrix_form(c.q, m, c.theta, layout);
      for (std::size_t i = 0; i < lib.size(); ++i) {
        CHECK(lib[i] == Approx(mine[i]).epsilon(0).margin(1e-12));
        CHECK(c.apply_complex(c.q, m, layout)[i] == Approx(cx[i]).epsilon(0).margin(1e-12));
        CHECK(c.apply_matrix(c.q, m, layout)[i] == Approx(mx[i]).epsilon(0).margin(1e-12));
      }
    }
  }
}

TEST_CASE("the rope scheme's own rotation: float32 angles, attention factor", "[rope-identity]") {
  posenc::rope::RopeConfig c;
  c.head_dim = c.rotary_dim = 4;
  c.layout = RopeLayout::kHalf;
  c.precision = posenc::rope::RopePrecision::kF32;
  const auto f = posenc::rope::compute_frequencies(c);
  const auto rc = make_rope_case(c, f, 4096, QkChoice::kOnes, 0);
  CHECK(rc.scale == 1.0);
  // HF: angle = float32(m) * float32(theta_i) in float32, cos/sin of it rounded to float32.
  const std::vector<double> x = {0.3, -1.1, 0.7, 2.0};
  const auto y = rc.apply(x, 4095.0, RopeLayout::kHalf);
  for (std::size_t i = 0; i < 2; ++i) {
    const float angle = 4095.0f * static_cast<float>(f.inv_freq[i]);
    const double cs = static_cast<float>(std::cos(static_cast<double>(angle)));
    const double sn = static_cast<float>(std::sin(static_cast<double>(angle)));
    CHECK(y[i] == Approx(x[i] * cs - x[i + 2] * sn).epsilon(0).margin(1e-15));
    CHECK(y[i + 2] == Approx(x[i + 2] * cs + x[i] * sn).epsilon(0).margin(1e-15));
  }
  // So relativity drifts at long range (the angle's float32 error grows with m), while the
  // float64 rotation keeps it to rounding.
  CHECK_FALSE(check_rope_relative(rc, 1e-6).holds);
  c.precision = posenc::rope::RopePrecision::kF64;
  CHECK(check_rope_relative(make_rope_case(c, posenc::rope::compute_frequencies(c), 4096, QkChoice::kRandom, 0), 1e-12)
            .holds);
  // YaRN's attention factor multiplies cos and sin: R_0 = a I, norms grow by a = 0.1 ln 4 + 1.
  c.scaling = posenc::rope::RopeScaling::kYarn;
  c.factor = 4.0;
  c.original_max_position_embeddings = 2048;
  const auto yarn = make_rope_case(c, posenc::rope::compute_frequencies(c), 64, QkChoice::kRandom, 0);
  CHECK(yarn.scale == Approx(0.1 * std::log(4.0) + 1.0).epsilon(1e-12));
  CHECK(check_rope_relative(yarn, 1e-12).holds);  // both sides carry a^2
  // rope-norm divides the factor out: |R_m x| = a|x| (it failed by a − 1 = 0.139 before).
  const auto norm = check_rope_norm(yarn, 1e-12);
  CHECK(norm.holds);
  CHECK(norm.max_error < 1e-14);
}

TEST_CASE("rope-norm divides out a constant attention factor, not one that grows", "[rope-identity]") {
  auto c = make(QkChoice::kRandom);
  const auto theta = c.theta;
  c.scale = 1.5;  // R_0 = 1.5 I, as cos and sin carrying an attention factor
  c.apply = [theta](std::span<const double> x, double m, RopeLayout l) {
    auto y = rope_elementwise(x, m, theta, l);
    for (double& v : y) v *= 1.5;
    return y;
  };
  const auto held = check_rope_norm(c, 1e-12);
  CHECK(held.holds);
  CHECK(held.max_error < 1e-14);
  // 1.5 at m = 0, growing after: R_m / 1.5 does not keep norms (error m/1000 at m = 4095).
  c.apply = [theta](std::span<const double> x, double m, RopeLayout l) {
    auto y = rope_elementwise(x, m, theta, l);
    for (double& v : y) v *= 1.5 * (1.0 + m / 1000.0);
    return y;
  };
  const auto grown = check_rope_norm(c, 1e-9);
  CHECK_FALSE(grown.holds);
  CHECK(grown.max_error == Approx(4.095).epsilon(1e-9));
}
