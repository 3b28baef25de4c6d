#include "posenc/encodings/alibi.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "posenc/encodings/scheme.hpp"
#include "posenc/error.hpp"
#include "posenc/schemes/registry.hpp"

using posenc::encodings::AlibiForm;
using posenc::encodings::alibi_bias;
using posenc::encodings::alibi_slopes;

namespace {

// The paper's get_slopes (ofirpress/attention_with_linear_biases, fairseq/models/transformer.py),
// transcribed independently: start = 2^(-2^-(log2 n - 3)), slopes start * start^i; otherwise
// slopes(P) + slopes(2P)[0::2][:n-P].
std::vector<double> paper_slopes(int n) {
  auto power_of_2 = [](int m) {
    const double start = std::pow(2.0, -std::pow(2.0, -(std::log2(m) - 3)));
    std::vector<double> s;
    for (int i = 0; i < m; ++i) s.push_back(start * std::pow(start, i));
    return s;
  };
  const double l = std::log2(n);
  if (l == std::floor(l)) return power_of_2(n);
  const int p = 1 << static_cast<int>(std::floor(l));
  auto out = power_of_2(p);
  const auto twice = paper_slopes(2 * p);
  for (std::size_t i = 0; i < twice.size() && out.size() < static_cast<std::size_t>(n); i += 2) out.push_back(twice[i]);
  return out;
}

}  // namespace

TEST_CASE("alibi slopes for 1..128 heads match the paper's recursive rule", "[alibi]") {
  for (int n = 1; n <= 128; ++n) {
    const auto ours = alibi_slopes(n);
    const auto theirs = paper_slopes(n);
    REQUIRE(ours.size() == theirs.size());
    for (std::size_t h = 0; h < ours.size(); ++h) {
      INFO("n = " << n << ", h = " << h);
      CHECK(ours[h] == Approx(theirs[h]).epsilon(1e-14));
    }
  }
}

TEST_CASE("alibi slopes: the published vectors", "[alibi]") {
  // REFERENCES §2.7 / the paper: n = 8 gives 1/2 ... 1/256.
  const auto s8 = alibi_slopes(8);
  for (int h = 0; h < 8; ++h) CHECK(s8[static_cast<std::size_t>(h)] == std::ldexp(1.0, -(h + 1)));
  CHECK(alibi_slopes(6) == std::vector<double>{0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125});
  const auto s12 = alibi_slopes(12);
  for (int h = 0; h < 8; ++h) CHECK(s12[static_cast<std::size_t>(h)] == std::ldexp(1.0, -(h + 1)));
  CHECK(s12[8] == Approx(0.7071067812).epsilon(1e-10));
  CHECK(s12[9] == Approx(0.3535533906).epsilon(1e-10));
  CHECK(s12[10] == Approx(0.1767766953).epsilon(1e-10));
  CHECK(s12[11] == Approx(0.08838834765).epsilon(1e-10));
  // The seed's 2^(-8/n * [0..n]) would start at 1 and have n + 1 slopes.
  CHECK(alibi_slopes(1) == std::vector<double>{1.0 / 256.0});
  CHECK_THROWS_AS(alibi_slopes(0), posenc::Error);
}

TEST_CASE("alibi bias forms differ by a per-row constant m*i", "[alibi]") {
  const double m = 0.25;
  CHECK(alibi_bias(m, 5, 2, AlibiForm::kSymmetric) == -0.75);
  CHECK(alibi_bias(m, 2, 5, AlibiForm::kSymmetric) == -0.75);
  CHECK(alibi_bias(m, 5, 2, AlibiForm::kCausal) == 0.5);  // m * j
  CHECK(alibi_bias(m, 2, 5, AlibiForm::kCausal) == -std::numeric_limits<double>::infinity());
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j <= i; ++j)
      CHECK(alibi_bias(m, i, j, AlibiForm::kCausal) - alibi_bias(m, i, j, AlibiForm::kSymmetric) == m * i);
}

TEST_CASE("alibi table: all heads H x N x N, one head N x N, slopes in results", "[alibi]") {
  posenc::ParamMap p;
  p.set("len", std::int64_t{4});
  p.set("heads", std::int64_t{3});
  auto all = posenc::schemes::make_table("alibi", p);
  CHECK(all->info().shape == std::vector<std::size_t>{3, 4, 4});
  CHECK(all->info().value_name == "bias");
  const auto m = all->to_matrix();
  const auto slopes = alibi_slopes(3);  // 2^-4, 2^-8, 2^-2
  CHECK(m(4 * 2 + 3, 0) == -3 * slopes[2]);  // head 2, i = 3, j = 0
  REQUIRE(all->info().results.size() == 1);
  CHECK(std::get<std::vector<double>>(all->info().results[0].second) == slopes);

  p.set("head", std::int64_t{1});
  p.set("form", std::string("causal"));
  auto one = posenc::schemes::make_table("alibi", p);
  CHECK(one->info().shape == std::vector<std::size_t>{4, 4});
  const auto c = one->to_matrix();
  CHECK(c(3, 2) == 2 * slopes[1]);
  CHECK(std::isinf(c(1, 2)));
  p.set("head", std::int64_t{3});
  CHECK_THROWS_WITH(posenc::schemes::make_table("alibi", p), Catch::Contains("--head"));
}

TEST_CASE("alibi variants: BLOOM float32, Falcon bfloat16 positions, MPT shifted to the last key", "[alibi]") {
  using posenc::encodings::AlibiVariant;
  using posenc::encodings::alibi_bias_in;
  // slope 0.5 is exact in every format: the products are exact too.
  CHECK(alibi_bias_in(AlibiVariant::kBloom, 0.5, 5, 3, AlibiForm::kCausal, 6) == 1.5);
  CHECK(alibi_bias_in(AlibiVariant::kMpt, 0.5, 5, 3, AlibiForm::kShifted, 6) == -1.0);  // 0.5 * (3 - 5)
  CHECK(alibi_bias_in(AlibiVariant::kMpt, 0.5, 5, 5, AlibiForm::kShifted, 6) == 0.0);   // the last key: 0
  CHECK(alibi_bias_in(AlibiVariant::kMpt, 0.5, 2, 3, AlibiForm::kShifted, 6) == -std::numeric_limits<double>::infinity());
  // bfloat16 has 8 significant bits: 257 rounds to 256 (ties to even), 259 to 260.
  CHECK(alibi_bias_in(AlibiVariant::kFalcon, 0.5, 300, 257, AlibiForm::kCausal, 301) == 128.0);
  CHECK(alibi_bias_in(AlibiVariant::kFalcon, 0.5, 300, 259, AlibiForm::kCausal, 301) == 130.0);
  CHECK(alibi_bias_in(AlibiVariant::kPaper, 0.5, 300, 257, AlibiForm::kCausal, 301) == 128.5);
  // float32 slope times float32 position, rounded to float32: what 0.1f * 3.0f gives in C++.
  const double m = static_cast<double>(0.1f);
  CHECK(alibi_bias_in(AlibiVariant::kBloom, m, 3, 3, AlibiForm::kCausal, 4) == static_cast<double>(0.1f * 3.0f));
}
