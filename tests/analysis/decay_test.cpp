#include "posenc/analysis/decay.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <complex>

#include "posenc/analysis/rotary.hpp"
#include "posenc/error.hpp"
#include "test_tables.hpp"

using namespace posenc::analysis;

TEST_CASE("decay offsets: forward, symmetric, past only", "[decay]") {
  CHECK(decay_offsets(3, false) == std::vector<std::int64_t>{0, 1, 2, 3});
  CHECK(decay_offsets(2, true) == std::vector<std::int64_t>{-2, -1, 0, 1, 2});
  CHECK(decay_offsets(2, false, true) == std::vector<std::int64_t>{-2, -1, 0});
  CHECK_THROWS_AS(decay_offsets(-1, false), posenc::Error);
}

TEST_CASE("sinusoidal decay: closed form sum_k cos(w_k delta) equals the direct computation", "[decay]") {
  for (bool split : {false, true}) {
    const int d = 128;
    const auto pe = test_tables::sinusoidal(600, d, split);
    const auto s = split ? split_sinusoids(test_tables::paper_omega(d), d)
                         : interleaved_sinusoids(test_tables::paper_omega(d), d);
    const auto offsets = decay_offsets(250, true);
    for (Metric m : {Metric::kDot, Metric::kCosine, Metric::kDistance}) {
      const auto direct = decay_direct(pe, 300, offsets, m);
      const auto closed = decay_sinusoids(s, offsets, m);
      for (std::size_t i = 0; i < offsets.size(); ++i) {
        INFO("metric " << metric_name(m) << " delta " << offsets[i] << " split " << split);
        CHECK(closed[i] == Approx(direct[i]).epsilon(0).margin(1e-9));
      }
    }
    // Delta = 0: every row has squared norm d/2.
    CHECK(decay_sinusoids(s, {0}, Metric::kDot)[0] == Approx(64.0).epsilon(0).margin(1e-12));
  }
}

TEST_CASE("decay_direct refuses offsets outside the table, naming --max-offset", "[decay]") {
  const auto pe = test_tables::sinusoidal(10, 4);
  CHECK_THROWS_WITH(decay_direct(pe, 5, decay_offsets(5, false), Metric::kDot), Catch::Contains("--max-offset"));
  CHECK_THROWS_WITH(decay_direct(pe, 10, {0}, Metric::kDot), Catch::Contains("--from"));
}

TEST_CASE("RoFormer long-term-decay bound: the d = 128 test vectors", "[decay][rope]") {
  const auto theta = rope_theta(10000.0, 128);
  // REFERENCES §2.10.
  const std::vector<std::pair<std::int64_t, double>> expected = {
      {0, 32.5}, {1, 31.538166}, {10, 17.954137}, {50, 12.629452}, {100, 10.227330}, {250, 6.548179}, {1000, 4.470761}};
  for (const auto& [delta, value] : expected) {
    INFO("delta " << delta);
    CHECK(roformer_bound(theta, {delta})[0] == Approx(value).epsilon(0).margin(5e-6));
  }
  const auto theta64 = rope_theta(10000.0, 64);
  CHECK(roformer_bound(theta64, {0})[0] == Approx(16.5).epsilon(0).margin(1e-12));
  CHECK(roformer_bound(theta64, {10})[0] == Approx(8.814334).epsilon(0).margin(5e-6));
  CHECK(roformer_bound(theta64, {100})[0] == Approx(7.465277).epsilon(0).margin(5e-6));
}

TEST_CASE("RoFormer bound equals an independent O(d^2) summation", "[decay][rope]") {
  const int d = 128;
  for (std::int64_t delta : {0, 3, 17, 99, 512}) {
    double sum = 0.0;
    for (int j = 1; j <= d / 2; ++j) {  // |S_j|, S_j = sum_{k<j} e^{i delta theta_k}, recomputed from scratch
      double re = 0.0, im = 0.0;
      for (int k = 0; k < j; ++k) {
        const double a = static_cast<double>(delta) * std::pow(10000.0, -2.0 * k / d);
        re += std::cos(a);
        im += std::sin(a);
      }
      sum += std::hypot(re, im);
    }
    CHECK(roformer_bound(rope_theta(10000.0, d), {delta})[0] == Approx(sum / (d / 2)).epsilon(0).margin(1e-9));
  }
}

TEST_CASE("all-ones q = k curve: sum_i 2 cos(delta theta_i)", "[decay][rope]") {
  const auto theta = rope_theta(10000.0, 128);
  const std::vector<std::pair<std::int64_t, double>> expected = {
      {0, 128.0}, {1, 124.187368}, {10, 85.640046}, {50, 69.910022}, {100, 61.086909}, {250, 39.303642}, {1000, 20.355456}};
  for (const auto& [delta, value] : expected) CHECK(rope_ones_dot(theta, {delta})[0] == Approx(value).epsilon(0).margin(5e-6));
  // It is <R_0 1, R_delta 1>, and the general q, k form gives the same for all ones.
  const std::vector<double> ones(128, 1.0);
  for (std::int64_t delta : {0, 7, 300}) {
    const double direct = dot(rope_elementwise(ones, 0.0, theta, RopeLayout::kInterleaved),
                              rope_elementwise(ones, static_cast<double>(delta), theta, RopeLayout::kInterleaved));
    CHECK(rope_ones_dot(theta, {delta})[0] == Approx(direct).epsilon(0).margin(1e-9));
    CHECK(rope_qk_decay(theta, ones, ones, true, {delta})[0] == Approx(direct).epsilon(0).margin(1e-9));
  }
}

TEST_CASE("rope q,k decay: closed form equals rotating q and k at many T", "[decay][rope]") {
  const auto theta = rope_theta(500.0, 16);
  std::vector<double> q(16), k(16);
  for (int i = 0; i < 16; ++i) {
    q[static_cast<std::size_t>(i)] = std::sin(1.3 * i + 0.2);
    k[static_cast<std::size_t>(i)] = std::cos(0.7 * i * i);
  }
  for (bool inter : {true, false}) {
    const auto layout = inter ? RopeLayout::kInterleaved : RopeLayout::kHalf;
    const auto offsets = decay_offsets(40, true);
    const auto closed = rope_qk_decay(theta, q, k, inter, offsets);
    for (double t : {0.0, 5.0, 123.0})
      for (std::size_t i = 0; i < offsets.size(); ++i) {
        const double direct = dot(rope_elementwise(q, t, theta, layout),
                                  rope_elementwise(k, t + static_cast<double>(offsets[i]), theta, layout));
        CHECK(closed[i] == Approx(direct).epsilon(0).margin(1e-9));
      }
  }
}

TEST_CASE("alibi and t5 against distance", "[decay]") {
  CHECK(alibi_decay(0.5, {-2, 0, 3}) == std::vector<double>{-1.0, 0.0, -1.5});
  const auto causal = alibi_decay(0.5, {-2, 0, 3}, true);
  CHECK(causal[0] == -1.0);
  CHECK(causal[1] == 0.0);
  CHECK(std::isinf(causal[2]));
  const posenc::encodings::T5Options o;
  CHECK(t5_decay(o, {-16, 0, 16}) == std::vector<double>{10, 0, 26});
}

TEST_CASE("rope q.k distance: exactly 0 at delta 0 for q = k, accurate for small delta (issue 15.4)", "[decay][rope]") {
  // theta_i = 10000^(-2i/d), q and k fixed irregular vectors (no posenc code makes them).
  const std::size_t d = 64;
  std::vector<double> theta(d / 2), q(d), k(d);
  for (std::size_t i = 0; i < d / 2; ++i) theta[i] = std::pow(10000.0, -2.0 * static_cast<double>(i) / d);
  for (std::size_t c = 0; c < d; ++c) {
    q[c] = std::sin(1.3 * static_cast<double>(c) + 0.4) * 1.7;
    k[c] = std::cos(0.7 * static_cast<double>(c) * static_cast<double>(c) + 0.1);
  }
  for (bool interleaved : {true, false}) {
    INFO("interleaved " << interleaved);
    // q = k: |q - R_delta q| = sqrt(sum_i |q~_i|^2 4 sin^2(delta theta_i / 2)), by hand in long double.
    const std::vector<std::int64_t> offsets{0, 1, -1, 2, 1000};
    const auto same = rope_qk_distance(theta, q, q, interleaved, offsets);
    CHECK(same[0] == 0.0);  // sqrt(|q|^2 + |q|^2 - 2 q.q) gave ~1e-7 here
    for (std::size_t o = 0; o < offsets.size(); ++o) {
      long double s = 0;
      for (std::size_t i = 0; i < d / 2; ++i) {
        const std::size_t a = interleaved ? 2 * i : i, b = interleaved ? 2 * i + 1 : i + d / 2;
        const long double h = std::sin(0.5L * static_cast<long double>(offsets[o]) * theta[i]);
        s += (static_cast<long double>(q[a]) * q[a] + static_cast<long double>(q[b]) * q[b]) * 4 * h * h;
      }
      CHECK(same[o] == Approx(static_cast<double>(std::sqrt(s))).epsilon(1e-13).margin(0));
    }
    // q != k: rotate k explicitly by delta (2x2 blocks, long double) and subtract.
    const auto diff = rope_qk_distance(theta, q, k, interleaved, offsets);
    for (std::size_t o = 0; o < offsets.size(); ++o) {
      long double s = 0;
      for (std::size_t i = 0; i < d / 2; ++i) {
        const std::size_t a = interleaved ? 2 * i : i, b = interleaved ? 2 * i + 1 : i + d / 2;
        const long double phi = static_cast<long double>(offsets[o]) * theta[i];
        const long double ra = k[a] * std::cos(phi) - k[b] * std::sin(phi);
        const long double rb = k[b] * std::cos(phi) + k[a] * std::sin(phi);
        s += (q[a] - ra) * (q[a] - ra) + (q[b] - rb) * (q[b] - rb);
      }
      CHECK(diff[o] == Approx(static_cast<double>(std::sqrt(s))).epsilon(1e-13).margin(0));
    }
  }
}

// Issue 26 item 12: rope's q = k = ones score is sinusoidal's Σ cos(Δθ_i) doubled, and is now
// computed by the same kernel (it summed cos per offset, 7× slower): the same bits.
TEST_CASE("rope_ones_dot and rope_qk_decay of ones are twice sinusoid_dots, bit for bit", "[decay][rope]") {
  const auto theta = rope_theta(10000.0, 128);
  std::vector<std::int64_t> offsets;
  for (std::int64_t d = -300; d <= 3000; ++d) offsets.push_back(d);
  const auto dots = posenc::analysis::sinusoid_dots(posenc::analysis::interleaved_sinusoids(theta, 128), offsets);
  const auto ones = rope_ones_dot(theta, offsets);
  const std::vector<double> q(128, 1.0);
  const auto qk = rope_qk_decay(theta, q, q, false, offsets);
  std::size_t same = 0;
  for (std::size_t i = 0; i < offsets.size(); ++i) same += ones[i] == 2 * dots[i] && qk[i] == 2 * dots[i];
  CHECK(same == offsets.size());
}
