#include "posenc/encodings/alibi.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using posenc::encodings::AlibiForm;
using posenc::encodings::AlibiVariant;
using posenc::encodings::alibi_bias_in;
using posenc::encodings::alibi_slopes_for;

TEST_CASE("alibi variants: every variant gives the paper's slopes for 8 and 6 heads", "[alibi][variant]") {
  const std::vector<double> eight = {0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625};
  const std::vector<double> six = {0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125};  // REFERENCES.md 2.7
  for (auto v : {AlibiVariant::kPaper, AlibiVariant::kBloom, AlibiVariant::kFalcon, AlibiVariant::kMpt,
                 AlibiVariant::kBaichuan}) {
    CHECK(alibi_slopes_for(v, 8) == eight);
    CHECK(alibi_slopes_for(v, 6) == six);
  }
}

TEST_CASE("alibi mpt: --bias-max 16 gives 2^(-2k) for 8 heads", "[alibi][variant]") {
  const auto s = alibi_slopes_for(AlibiVariant::kMpt, 8, 16);
  REQUIRE(s.size() == 8);
  for (std::size_t k = 0; k < 8; ++k) CHECK(s[k] == std::exp2(-2.0 * static_cast<double>(k + 1)));
}

TEST_CASE("alibi bloom and baichuan slopes are float32 and differ for 12 heads", "[alibi][variant]") {
  // numpy: np.float32(2 ** -0.5) ** np.arange(1, 8, 2) in float32 (BLOOM's pow of a float32 base)
  const std::vector<double> bloom = {0.7071067690849304, 0.3535533845424652, 0.1767766773700714, 0.0883883386850357};
  const auto b = alibi_slopes_for(AlibiVariant::kBloom, 12);
  REQUIRE(b.size() == 12);
  for (std::size_t k = 0; k < 4; ++k) CHECK(b[8 + k] == bloom[k]);
  // Baichuan: Python's 2^-0.5 · (2^-0.5)^(2e) in float64, then float32: float32(2^-(2e+1)/2) exactly.
  const auto c = alibi_slopes_for(AlibiVariant::kBaichuan, 12);
  REQUIRE(c.size() == 12);
  for (std::size_t e = 0; e < 4; ++e)
    CHECK(c[8 + e] == static_cast<double>(static_cast<float>(std::exp2(-0.5 * static_cast<double>(2 * e + 1)))));
  CHECK(c[10] == 0.1767766922712326);  // numpy: np.float32(2 ** -2.5); BLOOM's float32 pow gives 0.1767766773700714
  const auto paper = alibi_slopes_for(AlibiVariant::kPaper, 12);
  CHECK(paper[8] == Approx(0.7071067811865476).epsilon(1e-15));  // float64 2^-0.5
}

TEST_CASE("alibi variants: causal m*j, shifted m*(j - (L - 1)), symmetric -m|i-j| in each arithmetic", "[alibi][variant]") {
  // MPT's causal matrix is its build_alibi_bias(full=False): m*(j - (L - 1)), 0.5 * (1 - 3).
  CHECK(alibi_bias_in(AlibiVariant::kMpt, 0.5, 3, 1, AlibiForm::kCausal, 4) == -1.0);
  for (auto v : {AlibiVariant::kPaper, AlibiVariant::kBloom, AlibiVariant::kMpt, AlibiVariant::kBaichuan}) {
    if (v != AlibiVariant::kMpt) CHECK(alibi_bias_in(v, 0.5, 3, 1, AlibiForm::kCausal, 4) == 0.5);
    CHECK(alibi_bias_in(v, 0.5, 3, 1, AlibiForm::kShifted, 4) == -1.0);  // 0.5 * (1 - 3)
    CHECK(std::isinf(alibi_bias_in(v, 0.5, 1, 3, AlibiForm::kCausal, 4)));
    CHECK(alibi_bias_in(v, 0.25, 1, 3, AlibiForm::kSymmetric, 4) == -0.5);
  }
  // float32 product: 0.1 * 3 in float32 is 0.3000000119..., not the float64 0.30000000000000004.
  CHECK(alibi_bias_in(AlibiVariant::kBaichuan, static_cast<double>(0.1f), 3, 0, AlibiForm::kSymmetric, 4) ==
        -static_cast<double>(0.1f * 3.0f));
}
