#include "posenc/analysis/scheme_decay.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>

#include "posenc/analysis/rope_identity.hpp"
#include "posenc/analysis/scheme_traits.hpp"
#include "posenc/schemes/registry.hpp"
#include "posenc/error.hpp"

namespace {

posenc::ParamMap decay_test_params(const std::string& scheme) {
  return posenc::analysis::analysis_params(scheme, posenc::ParamMap(posenc::schemes::find_scheme(scheme).params));
}

posenc::analysis::DecayRequest decay_test_request(std::vector<std::int64_t> offsets, std::int64_t from = 0) {
  posenc::analysis::DecayRequest r;
  r.offsets = std::move(offsets);
  r.from = from;
  return r;
}

}  // namespace

TEST_CASE("alibi decay: -m|delta| per head, slopes 1/16 and 1/256 for 2 heads", "[scheme_decay]") {
  auto p = decay_test_params("alibi");
  p.set("heads", std::int64_t{2});
  const auto c = posenc::analysis::scheme_decay_curves("alibi", p, decay_test_request({0, 1, 2, 3}));
  REQUIRE(c.series.size() == 2);
  CHECK(c.series[0].name == "head 0 (m=0.0625)");
  CHECK(c.series[0].values == std::vector<double>{0.0, -0.0625, -0.125, -0.1875});  // 2^-4 = 2^(-8/2)
  CHECK(c.series[1].values == std::vector<double>{0.0, -1.0 / 256, -2.0 / 256, -3.0 / 256});
  CHECK_FALSE(c.uses_metric);
  CHECK_FALSE(c.has_extras);
}

TEST_CASE("alibi decay: one head, and causal masks later keys", "[scheme_decay]") {
  auto p = decay_test_params("alibi");
  p.set("head", std::int64_t{0});
  p.set("form", std::string("causal"));
  const auto c = posenc::analysis::scheme_decay_curves("alibi", p, decay_test_request({-2, -1, 0, 1}, 2));
  REQUIRE(c.series.size() == 1);  // head 0 of 8: m = 1/2
  CHECK(c.series[0].values[0] == -1.0);
  CHECK(c.series[0].values[1] == -0.5);
  CHECK(c.series[0].values[2] == 0.0);
  CHECK(c.series[0].values[3] == -std::numeric_limits<double>::infinity());
}

TEST_CASE("t5 decay: buckets of rp = delta by hand (32 buckets, max distance 128)", "[scheme_decay]") {
  // Bidirectional: nb = 16, +16 for rp > 0, exact below 8; rp = 20: 8 + trunc(ln(20/8)/ln(16)*8) = 8 + 2.
  const auto c = posenc::analysis::scheme_decay_curves("t5", decay_test_params("t5"), decay_test_request({-20, -3, 0, 1, 7, 20, 500}));
  REQUIRE(c.series.size() == 1);
  CHECK(c.series[0].values == std::vector<double>{10, 3, 0, 17, 23, 26, 31});
}

TEST_CASE("deberta decay reads the bucket of query - key = -delta", "[scheme_decay]") {
  auto p = decay_test_params("deberta");
  // Below bucket_size/2 the log bucket is the relative position itself: sign(-delta)*|delta|.
  const auto c = posenc::analysis::scheme_decay_curves("deberta", p, decay_test_request({-3, 0, 5}));
  REQUIRE(c.series.size() == 1);
  CHECK(c.series[0].values == std::vector<double>{3, 0, -5});
}

TEST_CASE("rope decay with q = k = ones: 2 cos(delta) + 2 cos(delta/100) and RoFormer's bound (d = 4)", "[scheme_decay]") {
  auto p = decay_test_params("rope");
  p.set("dim", std::int64_t{4});  // theta = 1, 10000^(-1/2) = 0.01
  const auto c = posenc::analysis::scheme_decay_curves("rope", p, decay_test_request({0, 1, 5}));
  REQUIRE(c.series.size() == 2);
  CHECK(c.series[0].name == "roformer bound on |q.k|");
  CHECK(c.series[1].name == "q=k=ones");
  for (std::size_t i = 0; i < 3; ++i) {
    const double d = std::vector<double>{0, 1, 5}[i];
    CHECK(c.series[1].values[i] == Approx(2 * std::cos(d) + 2 * std::cos(0.01 * d)).epsilon(1e-12));
    // max|h_(i+1) - h_i| (|S_1| + |S_2|) = 2 (|S_1| + |S_2|), |S_1| = 1, |S_2| = |e^{i d} + e^{i 0.01 d}| = 2 |cos(0.495 d)|.
    CHECK(c.series[0].values[i] == Approx(2 * (1 + 2 * std::abs(std::cos(0.495 * d)))).epsilon(1e-12));
  }
  CHECK(c.uses_metric);
  CHECK(c.uses_qk);
  CHECK(c.has_extras);
}

TEST_CASE("rope decay without extras, cosine of ones: cos(delta)/2 + cos(delta/100)/2", "[scheme_decay]") {
  auto p = decay_test_params("rope");
  p.set("dim", std::int64_t{4});
  auto r = decay_test_request({0, 3});
  r.extras = false;
  r.metric = "cosine";
  const auto c = posenc::analysis::scheme_decay_curves("rope", p, r);
  REQUIRE(c.series.size() == 1);
  CHECK(c.series[0].name == "q=k=ones cosine");
  CHECK(c.series[0].values[0] == Approx(1.0).epsilon(1e-12));
  CHECK(c.series[0].values[1] == Approx(0.5 * std::cos(3.0) + 0.5 * std::cos(0.03)).epsilon(1e-12));
}

TEST_CASE("absolute tables: sinusoidal by the closed form cos(delta), integer by its rows", "[scheme_decay]") {
  auto s = decay_test_params("sinusoidal");
  s.set("dim", std::int64_t{2});  // one pair, w_0 = 1: PE_T . PE_T+d = cos(d)
  const auto sc = posenc::analysis::scheme_decay_curves("sinusoidal", s, decay_test_request({0, 1, 2}, 3));
  REQUIRE(sc.series.size() == 1);
  CHECK(sc.method.rfind("closed form", 0) == 0);
  CHECK(sc.series[0].values[1] == Approx(0.5403023058681398).margin(1e-12));  // cos(1)
  CHECK(sc.series[0].values[2] == Approx(-0.4161468365471424).margin(1e-12));  // cos(2)
  auto i = decay_test_params("integer");
  i.set("dim", std::int64_t{1});
  i.set("len", std::int64_t{10});
  const auto ic = posenc::analysis::scheme_decay_curves("integer", i, decay_test_request({0, 1, 2}, 2));
  CHECK(ic.method == "direct: rows of the table");
  CHECK(ic.series[0].values == std::vector<double>{4, 6, 8});  // T (T + delta), T = 2
  CHECK(ic.uses_metric);
}

TEST_CASE("fit_len: len from the last position needed, a short --len and a negative position refused", "[scheme_decay]") {
  const auto r = decay_test_request({-2, -1, 0, 1, 2}, 3);
  CHECK(posenc::analysis::fit_len("sinusoidal", decay_test_params("sinusoidal"), r).integer("len") == 6);
  auto given = decay_test_params("sinusoidal");
  given.set("len", std::int64_t{5});
  CHECK_THROWS_WITH(posenc::analysis::fit_len("sinusoidal", given, r), Catch::Contains("--len 5 is too short"));
  given.set("len", std::int64_t{6});
  CHECK(posenc::analysis::fit_len("sinusoidal", given, r).integer("len") == 6);
  CHECK_THROWS_WITH(posenc::analysis::fit_len("alibi", decay_test_params("alibi"), decay_test_request({-4}, 3)),
                    Catch::Contains("give --from 4 or more"));
}

TEST_CASE("kerple, sandwich and fire decay by hand", "[scheme_decay]") {
  auto k = decay_test_params("kerple");
  k.set("p", std::vector<double>{2.0});
  k.set("a", std::vector<double>{0.5});
  const auto kc = posenc::analysis::scheme_decay_curves("kerple", k, decay_test_request({-2, 0, 2}, 2));
  REQUIRE(kc.series.size() == 1);
  CHECK(kc.series[0].name == "head 0 (p=2, a=0.5)");
  CHECK(kc.series[0].values[0] == Approx(-2 * std::log(2.0)).epsilon(1e-15));  // -2 ln(1 + 0.5 * 2)
  CHECK(kc.series[0].values[1] == 0.0);
  CHECK(kc.series[0].values[2] == kc.series[0].values[0]);
  k.set("form", std::string("causal"));
  const auto causal = posenc::analysis::scheme_decay_curves("kerple", k, decay_test_request({0, 1}, 0));
  CHECK(std::isinf(causal.series[0].values[1]));
  auto s = decay_test_params("sandwich");
  s.set("dim", std::int64_t{4});
  s.set("heads", std::int64_t{2});
  const auto sc = posenc::analysis::scheme_decay_curves("sandwich", s, decay_test_request({1}));
  REQUIRE(sc.series.size() == 2);
  const double num = std::cos(0.01) + std::cos(0.0001) - 2;  // omega = 10000^(-2k/4), k = 1, 2
  CHECK(sc.series[0].values[0] == Approx(num / 4).epsilon(1e-9));
  CHECK(sc.series[1].values[0] == Approx(num / 8).epsilon(1e-9));
  // fire at T = 1000 > L = 512: ln(1 + 0.1 * 100) / (ln(1 + 0.1 * 1000) + 1e-6)
  const auto fc = posenc::analysis::scheme_decay_curves("fire", decay_test_params("fire"), decay_test_request({-100}, 1000));
  CHECK(fc.series[0].values[0] == Approx(std::log(11.0) / (std::log(101.0) + 1e-6)).epsilon(1e-14));
}

// Issue 26 item 9: RoFormer (arXiv 2104.09864 §3.4.3) bounds |Σ_i h_i e^{iΔθ_i}|, h_i = q̃_i conj(k̃_i),
// by max_i |h_(i+1) − h_i| · Σ_j |S_j| (Abel summation, h_(d/2) = 0); its plotted "relative upper
// bound" (1/(d/2)) Σ_j |S_j| lay below the q = k = ones score (32.5 against 128 at Δ = 0).
TEST_CASE("rope decay: RoFormer's bound is on |q.k| and lies above it (issue 26 item 9)", "[scheme_decay][rope]") {
  auto p = decay_test_params("rope");
  p.set("dim", std::int64_t{128});
  p.set("precision", std::string("f64"));
  std::vector<std::int64_t> offsets;
  for (std::int64_t d = 0; d <= 3000; d += 7) offsets.push_back(d);
  const auto c = posenc::analysis::scheme_decay_curves("rope", p, decay_test_request(offsets));
  REQUIRE(c.series.size() == 2);
  CHECK(c.series[0].name == "roformer bound on |q.k|");
  // Δ = 0: |S_j| = j, h_i = (1 + i)(1 − i) = 2, max step 2 (h_63 − h_64): 2 · (1 + … + 64) = 4160.
  CHECK(c.series[0].values[0] == Approx(4160.0).epsilon(1e-12));
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    // independent: θ_i = 10000^(−i/64), S_j summed directly, the score 2 Σ cos(Δθ_i)
    double re = 0, im = 0, sum = 0, score = 0;
    for (int k = 0; k < 64; ++k) {
      const double a = static_cast<double>(offsets[i]) * std::pow(10000.0, -k / 64.0);
      re += std::cos(a), im += std::sin(a), sum += std::hypot(re, im), score += 2 * std::cos(a);
    }
    CHECK(c.series[0].values[i] == Approx(2 * sum).epsilon(0).margin(1e-8));
    CHECK(c.series[1].values[i] == Approx(score).epsilon(0).margin(1e-8));
    CHECK(c.series[0].values[i] >= std::abs(c.series[1].values[i]));
  }
}

TEST_CASE("rope decay --qk random: the bound is max|h_(i+1) - h_i| sum|S_j| and bounds |q.k| and |cosine|",
          "[scheme_decay][rope]") {
  auto p = decay_test_params("rope");
  p.set("dim", std::int64_t{8});
  p.set("precision", std::string("f64"));
  std::vector<std::int64_t> offsets;
  for (std::int64_t d = 0; d <= 400; ++d) offsets.push_back(d);
  auto r = decay_test_request(offsets);
  r.qk = "random";
  r.seed = 3;
  const auto c = posenc::analysis::scheme_decay_curves("rope", p, r);
  REQUIRE(c.series.size() == 3);  // bound, ones, q.k
  // q, k as check --qk random --seed 3 (seeds 3, 4), half layout: pair i is (i, i + 4).
  const auto q = posenc::analysis::normal_vector(8, 3), k = posenc::analysis::normal_vector(8, 4);
  auto h = [&](int i) {
    if (i == 4) return std::complex<double>(0.0);
    return std::complex<double>(q[i], q[i + 4]) * std::conj(std::complex<double>(k[i], k[i + 4]));
  };
  double step = 0;
  for (int i = 0; i < 4; ++i) step = std::max(step, std::abs(h(i + 1) - h(i)));
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    double re = 0, im = 0, sum = 0;
    for (int j = 0; j < 4; ++j) {
      const double a = static_cast<double>(offsets[i]) * std::pow(10000.0, -j / 4.0);
      re += std::cos(a), im += std::sin(a), sum += std::hypot(re, im);
    }
    CHECK(c.series[0].values[i] == Approx(step * sum).epsilon(1e-10));
    CHECK(c.series[0].values[i] >= std::abs(c.series[2].values[i]));
  }
  r.metric = "cosine";
  const auto cos = posenc::analysis::scheme_decay_curves("rope", p, r);
  REQUIRE(cos.series.size() == 3);
  CHECK(cos.series[0].name == "roformer bound on |cosine|");
  CHECK(cos.series[1].name == "q=k=ones cosine");
  CHECK(cos.series[1].values[0] == Approx(1.0));  // the ones curve in the same metric, not its dot 8
  for (std::size_t i = 0; i < offsets.size(); ++i) CHECK(cos.series[0].values[i] >= std::abs(cos.series[2].values[i]));
}
