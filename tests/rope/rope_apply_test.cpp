// Rotation forms, layouts, the interleaved↔half permutation and the tables, checked against
// the complex-number form q·e^{i t θ} written out here (RoFormer eq. 13–16).
#include <catch2/catch.hpp>
#include <cmath>
#include <complex>
#include <random>

#include "posenc/rope/rope_apply.hpp"
#include "posenc/schemes/registry.hpp"
#include "rope_test_util.hpp"

using namespace posenc::encodings;
using namespace posenc::rope;
using namespace posenc::schemes;
using cd = std::complex<double>;

namespace {

std::vector<double> random_vector(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> dist;
  std::vector<double> v(n);
  for (auto& x : v) x = dist(gen);
  return v;
}

/// Pair i of x as a complex number in the given layout, written independently of the library.
cd pair(const std::vector<double>& x, std::size_t i, std::size_t pairs, RopeLayout layout) {
  return layout == RopeLayout::kInterleaved ? cd(x[2 * i], x[2 * i + 1]) : cd(x[i], x[i + pairs]);
}

std::vector<double> angles_at(std::int64_t t, std::size_t pairs, double dim, double base = 10000.0) {
  std::vector<double> a(pairs);
  for (std::size_t i = 0; i < pairs; ++i)
    a[i] = static_cast<double>(t) * std::pow(base, -2.0 * static_cast<double>(i) / dim);
  return a;
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

}  // namespace

TEST_CASE("element-wise, complex and matrix rotations equal q·e^{i t θ} in both layouts", "[rope][apply]") {
  const std::size_t n = 16, pairs = 6;  // partial rotary: dims 12..15 pass through
  const auto x = random_vector(n, 1);
  const auto a = angles_at(37, pairs, 12);
  for (auto layout : {RopeLayout::kInterleaved, RopeLayout::kHalf}) {
    const auto e = rope_rotate(x, a, layout);
    const auto z = rope_rotate_complex(x, a, layout);
    const auto m = rope_rotation_matrix(a, n, layout);
    for (std::size_t i = 0; i < pairs; ++i) {
      const cd want = pair(x, i, pairs, layout) * std::exp(cd(0, a[i]));
      CHECK(std::abs(pair(e, i, pairs, layout) - want) < 1e-12);
      CHECK(std::abs(pair(z, i, pairs, layout) - want) < 1e-12);
    }
    for (std::size_t r = 0; r < n; ++r) {
      double mx = 0;
      for (std::size_t k = 0; k < n; ++k) mx += m(r, k) * x[k];
      CHECK(mx == Approx(e[r]).epsilon(0).margin(1e-12));
    }
    for (std::size_t k = 2 * pairs; k < n; ++k) CHECK(e[k] == x[k]);
  }
}

TEST_CASE("rotation preserves the norm", "[rope][apply]") {
  const auto x = random_vector(64, 2);
  for (std::int64_t t : {0, 1, 1000, 123456}) {
    const auto y = rope_rotate(x, angles_at(t, 32, 64), RopeLayout::kHalf);
    CHECK(dot(y, y) == Approx(dot(x, x)).epsilon(1e-12));
  }
}

TEST_CASE("<R_m q, R_n k> = Re sum q k* e^{i(m-n)θ}, a function of m - n only", "[rope][apply]") {
  const auto q = random_vector(32, 3);
  const auto k = random_vector(32, 4);
  for (auto layout : {RopeLayout::kInterleaved, RopeLayout::kHalf}) {
    for (auto [m, n] : {std::pair{5, 2}, std::pair{105, 102}, std::pair{2, 5}, std::pair{0, 40}}) {
      const auto qm = rope_rotate(q, angles_at(m, 16, 32), layout);
      const auto kn = rope_rotate(k, angles_at(n, 16, 32), layout);
      cd sum = 0;
      const auto delta = angles_at(m - n, 16, 32);
      for (std::size_t i = 0; i < 16; ++i)
        sum += pair(q, i, 16, layout) * std::conj(pair(k, i, 16, layout)) * std::exp(cd(0, delta[i]));
      CHECK(dot(qm, kn) == Approx(sum.real()).epsilon(0).margin(1e-10));
    }
  }
}

TEST_CASE("half and interleaved layouts agree after the HF permutation", "[rope][apply]") {
  const auto p = rope_permutation(8);
  // convert_llama_weights_to_hf permute: interleaved row 2i+j → half row j·d/2 + i.
  CHECK(p.to_half == std::vector<std::int64_t>{0, 2, 4, 6, 1, 3, 5, 7});
  CHECK(p.to_interleaved == std::vector<std::int64_t>{0, 4, 1, 5, 2, 6, 3, 7});
  const auto big = rope_permutation(128);
  const auto x = random_vector(128, 5);
  const auto a = angles_at(77, 64, 128);
  const auto lhs = rope_rotate(apply_permutation(x, big.to_half), a, RopeLayout::kHalf);
  const auto rhs = apply_permutation(rope_rotate(x, a, RopeLayout::kInterleaved), big.to_half);
  for (std::size_t i = 0; i < 128; ++i) CHECK(lhs[i] == Approx(rhs[i]).epsilon(0).margin(1e-12));
  CHECK(apply_permutation(apply_permutation(x, big.to_half), big.to_interleaved) == x);
  CHECK_THROWS(rope_permutation(7));
  // Partial rotary: the first R rows only (R = 4 of 7: pairs (0,1), (2,3) -> (0,2), (1,3)).
  const auto partial = rope_permutation(7, 4);
  CHECK(partial.to_half == std::vector<std::int64_t>{0, 2, 1, 3, 4, 5, 6});
  CHECK(partial.to_interleaved == std::vector<std::int64_t>{0, 2, 1, 3, 4, 5, 6});
  CHECK(partial.rotary_dim == 4);
  CHECK_THROWS(rope_permutation(10, 12));
  CHECK_THROWS(rope_permutation(10, 5));
}

TEST_CASE("cos table: layouts, pass-through dims and the attention factor", "[rope][apply]") {
  auto c = rope_test::config(8, 10000.0);
  c.rotary_dim = 4;  // pairs: θ_0 = 1, θ_1 = 0.01
  c.layout = RopeLayout::kHalf;
  auto f = compute_frequencies(c);
  f.attention_factor = 2.0;
  std::vector<double> row(8);
  rope_table_row(c, f, RopeTableKind::kCos, 3, row);
  CHECK(row[0] == Approx(2 * std::cos(3.0)).epsilon(1e-15));
  CHECK(row[2] == Approx(2 * std::cos(3.0)).epsilon(1e-15));  // half: pair 0 at (0, 2)
  CHECK(row[1] == Approx(2 * std::cos(0.03)).epsilon(1e-15));
  CHECK(row[4] == 1.0);  // pass-through: identity, not scaled
  CHECK(row[7] == 1.0);
  c.layout = RopeLayout::kInterleaved;
  rope_table_row(c, f, RopeTableKind::kAngle, 3, row);
  CHECK(row == std::vector<double>{3, 3, 0.03, 0.03, 0, 0, 0, 0});
  c.apply_attention_factor = false;
  rope_table_row(c, f, RopeTableKind::kSin, 3, row);
  CHECK(row[3] == Approx(std::sin(0.03)).epsilon(1e-15));
}

TEST_CASE("f32 tables round like transformers: float32 angle, float32 cos", "[rope][apply]") {
  const auto c = rope_test::config(4, 10000.0, RopePrecision::kF32);
  const auto f = compute_frequencies(c);
  const auto v = rope_pair_values(c, f, 3);
  const float angle = 3.0f * 0.01f;  // float32 product of position and inv_freq
  CHECK(v.angle[1] == static_cast<double>(angle));
  CHECK(v.cos[1] == static_cast<double>(static_cast<float>(std::cos(static_cast<double>(angle)))));
}

TEST_CASE("float32 table rows (fast path) equal att·cos(t·θ) in every layout, width and precision", "[rope][apply]") {
  // Expected values written here: θ_i = 10000^(-2i/16) (f64: 10^(-i/2) in double; f32: transformers'
  // float32 1/powf(10000, 2i/16) and a float32 product t·θ), times an attention factor of 1.14.
  // The fast cos/sin are within 1.6e-7 of the exact value of the same angle (fast_math.hpp), and
  // the float32 product with the factor adds half an ulp: bound 2.2e-7 × 1.14. Pass-through columns
  // are exact (cos 1, sin 0) and each pair's value is placed twice.
  constexpr double kAtt = 1.14;
  for (const auto layout : {RopeLayout::kHalf, RopeLayout::kInterleaved}) {
    for (const auto precision : {RopePrecision::kF32, RopePrecision::kF64}) {
      RopeConfig c;
      c.head_dim = 20;
      c.layout = layout;
      c.precision = precision;
      finalize_rope_config(c, 16);  // rotary_dim 16: 8 pairs, 4 pass-through columns
      auto f = compute_frequencies(c);
      f.attention_factor = kAtt;
      for (const auto kind : {RopeTableKind::kCos, RopeTableKind::kSin}) {
        for (const std::int64_t t : {0, 1, 7, 4095, 131071}) {
          std::vector<float> fast(20);
          rope_table_row_f32(c, f, kind, t, fast);
          INFO("layout " << to_string(layout) << ", " << to_string(precision) << ", t = " << t);
          const bool inter = layout == RopeLayout::kInterleaved;
          for (std::size_t i = 0; i < 8; ++i) {
            double angle = static_cast<double>(t) * std::pow(10.0, -static_cast<double>(i) / 2.0);
            if (precision == RopePrecision::kF32) {
              const float theta = 1.0f / std::pow(10000.0f, static_cast<float>(2 * i) / 16.0f);
              angle = static_cast<double>(static_cast<float>(t) * theta);
            }
            const double want = kAtt * (kind == RopeTableKind::kCos ? std::cos(angle) : std::sin(angle));
            CHECK(std::abs(fast[inter ? 2 * i : i] - want) <= 2.2e-7 * kAtt);
            CHECK(fast[inter ? 2 * i : i] == fast[inter ? 2 * i + 1 : i + 8]);
          }
          for (std::size_t k = 16; k < 20; ++k) CHECK(fast[k] == (kind == RopeTableKind::kCos ? 1.0f : 0.0f));
        }
      }
    }
  }
}
