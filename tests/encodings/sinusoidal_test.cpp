#include "posenc/encodings/sinusoidal.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "error_of.hpp"

using Catch::Matchers::Contains;
using posenc::encodings::sinusoidal_frequencies;
using posenc::encodings::sinusoidal_table;
using posenc::encodings::SinusoidalConvention;
using posenc::encodings::SinusoidalLayout;
using posenc::encodings::SinusoidalOptions;
using posenc_test::error_of;
using posenc_test::make;

namespace {

void check_all(const std::vector<double>& got, const std::vector<double>& expected) {
  REQUIRE(got.size() == expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i] == Approx(expected[i]).epsilon(1e-13));
}

std::unique_ptr<posenc::Table> t2t(std::int64_t len, std::int64_t dim) {
  return make("sinusoidal", {{"len", len}, {"dim", dim}, {"convention", std::string("tensor2tensor")}});
}

}  // namespace

TEST_CASE("sinusoidal frequencies of each convention, d = 8", "[sinusoidal]") {
  // paper: 10000^(-2k/8); t2t and fairseq: 10000^(-k/3) (REFERENCES.md §2.8 test vector).
  check_all(sinusoidal_frequencies(8, 1e4, SinusoidalConvention::kPaper), {1, 0.1, 0.01, 0.001});
  const std::vector<double> spaced = {1, 0.04641588833612779, 0.002154434690031884, 0.0001};
  check_all(sinusoidal_frequencies(8, 1e4, SinusoidalConvention::kTensor2Tensor), spaced);
  check_all(sinusoidal_frequencies(8, 1e4, SinusoidalConvention::kFairseq), spaced);
  // t2t with one pair: max(K-1, 1) keeps w_0 = 1; odd d uses d//2 pairs.
  check_all(sinusoidal_frequencies(2, 1e4, SinusoidalConvention::kTensor2Tensor), {1});
  check_all(sinusoidal_frequencies(7, 1e4, SinusoidalConvention::kTensor2Tensor), {1, 0.01, 0.0001});
  check_all(sinusoidal_frequencies(4, 100, SinusoidalConvention::kPaper), {1, 0.1});  // 100^(-2/4)
}

TEST_CASE("sinusoidal paper row 1 is sin(1), cos(1), ... interleaved", "[sinusoidal]") {
  const auto m = sinusoidal_table(/*len=*/2, /*dim=*/4);  // w = 1, 0.01
  CHECK(m(0, 0) == 0.0);
  CHECK(m(0, 1) == 1.0);
  CHECK(m(1, 0) == Approx(0.8414709848078965).epsilon(0).margin(1e-12));   // sin(1)
  CHECK(m(1, 1) == Approx(0.5403023058681398).epsilon(0).margin(1e-12));   // cos(1)
  CHECK(m(1, 2) == Approx(0.009999833334166664).epsilon(0).margin(1e-12)); // sin(0.01)
  CHECK(m(1, 3) == Approx(0.9999500004166653).epsilon(0).margin(1e-12));   // cos(0.01)
}

TEST_CASE("sinusoidal split layout is the interleaved one, permuted", "[sinusoidal]") {
  SinusoidalOptions split;
  split.layout = SinusoidalLayout::kSplit;
  const auto a = sinusoidal_table(20, 16);
  const auto b = sinusoidal_table(20, 16, split);
  for (std::size_t t = 0; t < 20; ++t)
    for (std::size_t k = 0; k < 8; ++k) {
      CHECK(b(t, k) == a(t, 2 * k));
      CHECK(b(t, 8 + k) == a(t, 2 * k + 1));
    }
}

TEST_CASE("sinusoidal: sin^2 + cos^2 = 1 per pair, and PE_t . PE_t+D depends only on D", "[sinusoidal]") {
  const auto m = sinusoidal_table(60, 32);
  const auto w = sinusoidal_frequencies(32, 1e4, SinusoidalConvention::kPaper);
  for (std::size_t t = 0; t < 60; ++t)
    for (std::size_t k = 0; k < 16; ++k)
      CHECK(m(t, 2 * k) * m(t, 2 * k) + m(t, 2 * k + 1) * m(t, 2 * k + 1) == Approx(1.0).epsilon(0).margin(1e-12));
  for (std::size_t delta : {1, 5, 17}) {
    double expected = 0;  // sum_k cos(w_k delta)
    for (double wk : w) expected += std::cos(wk * static_cast<double>(delta));
    for (std::size_t t = 0; t + delta < 60; t += 7) {
      double dot = 0;
      for (std::size_t i = 0; i < 32; ++i) dot += m(t, i) * m(t + delta, i);
      CHECK(dot == Approx(expected).epsilon(0).margin(1e-12));
    }
  }
}

TEST_CASE("sinusoidal tensor2tensor: concat [sin | cos], odd d padded with one zero column", "[sinusoidal]") {
  const auto t = t2t(3, 7);  // K = 3, w = 1, 0.01, 0.0001
  CHECK(t->info().column_names == std::vector<std::string>{"sin0", "sin1", "sin2", "cos0", "cos1", "cos2", "pad"});
  const auto m = t->to_matrix();
  CHECK(t->info().first_position == 0);
  CHECK(m(2, 0) == Approx(0.9092974268256817).epsilon(0).margin(1e-12));   // sin(2)
  CHECK(m(2, 1) == Approx(0.01999866669333308).epsilon(0).margin(1e-12));  // sin(0.02)
  CHECK(m(2, 3) == Approx(-0.4161468365471424).epsilon(0).margin(1e-12));  // cos(2)
  CHECK(m(2, 5) == Approx(0.99999998).epsilon(0).margin(1e-12));           // cos(0.0002)
  for (std::size_t r = 0; r < 3; ++r) CHECK(m(r, 6) == 0.0);
  // d = 1: no pairs, one zero column.
  CHECK(t2t(2, 1)->to_matrix()(1, 0) == 0.0);
}

TEST_CASE("sinusoidal fairseq starts at padding_idx + 1", "[sinusoidal]") {
  const auto t = make("sinusoidal", {{"len", std::int64_t{3}}, {"dim", std::int64_t{9}}, {"convention", std::string("fairseq")}});
  CHECK(t->info().first_position == 2);  // padding_idx 1: the first real token is position 2
  CHECK(t->info().column_names.back() == "pad");
  const auto m = t->to_matrix();
  CHECK(m(0, 0) == Approx(0.9092974268256817).epsilon(0).margin(1e-12));   // sin(2 * 1)
  CHECK(m(0, 4) == Approx(-0.4161468365471424).epsilon(0).margin(1e-12));  // cos(2 * 1)
  CHECK(m(1, 1) == Approx(std::sin(3 * 0.04641588833612779)).epsilon(0).margin(1e-12));
  CHECK(m(0, 8) == 0.0);
  const auto p0 = make("sinusoidal", {{"len", std::int64_t{1}}, {"dim", std::int64_t{8}},
                                      {"convention", std::string("fairseq")}, {"padding-idx", std::int64_t{0}}});
  CHECK(p0->info().first_position == 1);
  CHECK(p0->to_matrix()(0, 0) == Approx(0.8414709848078965).epsilon(0).margin(1e-12));  // sin(1)
}

TEST_CASE("sinusoidal --layout auto follows the convention", "[sinusoidal]") {
  const auto paper = make("sinusoidal", {{"dim", std::int64_t{4}}});
  CHECK(paper->info().column_names == std::vector<std::string>{"sin0", "cos0", "sin1", "cos1"});
  CHECK(std::get<std::string>(paper->info().results.at(0).second) == "interleaved");
  const auto split = t2t(50, 4);
  CHECK(split->info().column_names == std::vector<std::string>{"sin0", "sin1", "cos0", "cos1"});
  const auto inter = make("sinusoidal", {{"dim", std::int64_t{4}}, {"convention", std::string("fairseq")},
                                         {"layout", std::string("interleaved")}});
  CHECK(inter->info().column_names == std::vector<std::string>{"sin0", "cos0", "sin1", "cos1"});
  CHECK(inter->to_matrix()(0, 1) == Approx(-0.4161468365471424).epsilon(0).margin(1e-12));  // cos(2)
}

TEST_CASE("sinusoidal refuses what a convention cannot do", "[sinusoidal][errors]") {
  const auto odd = error_of([] { make("sinusoidal", {{"dim", std::int64_t{63}}}); });
  CHECK_THAT(odd, Contains("--dim must be even for sinusoidal --convention paper (got 63)") &&
                      Contains("tensor2tensor and fairseq"));
  CHECK(odd.find('\n') == std::string::npos);
  for (std::int64_t d : {2, 3}) {
    CHECK_THAT(error_of([d] { make("sinusoidal", {{"dim", d}, {"convention", std::string("fairseq")}}); }),
               Contains("--dim") && Contains("fairseq") && Contains("divides by zero"));
  }
  CHECK_THAT(error_of([] { make("sinusoidal", {{"padding-idx", std::int64_t{0}}}); }), Contains("--padding-idx"));
  CHECK_THAT(error_of([] { make("sinusoidal", {{"base", 0.5}}); }), Contains("--base"));
  CHECK_THAT(error_of([] { make("sinusoidal", {{"layout", std::string("half")}}); }), Contains("--layout"));
  CHECK_THAT(error_of([] { make("sinusoidal", {{"convention", std::string("t2t")}}); }), Contains("--convention"));
  CHECK_THAT(error_of([] { sinusoidal_table(2, 5); }), Contains("--dim"));
}

TEST_CASE("sinusoidal --precision f32 rows: the float32 angle's sin and cos rounded once, in double and float",
          "[sinusoidal]") {
  // transformers' float32 recipe (M2M100 get_embedding): angle f32(f32(p) * w_k), then sin/cos in
  // double rounded to float32. Expected values from libm, rounded through a volatile float (so that
  // no optimiser drops the rounding); the vectorised row must give the same bits.
  const auto w = posenc::encodings::sinusoidal_frequencies_f32(384, 10000.0, SinusoidalConvention::kTensor2Tensor);
  std::vector<double> row64(385);
  std::vector<float> row32(385);
  std::size_t mismatches = 0;
  for (int p = 0; p < 3000; p += 7) {
    posenc::encodings::sinusoidal_row_torch_f32(p, w, SinusoidalLayout::kSplit, std::span<double>(row64));
    posenc::encodings::sinusoidal_row_torch_f32(p, w, SinusoidalLayout::kSplit, std::span<float>(row32));
    for (std::size_t k = 0; k < w.size(); ++k) {
      const volatile float angle = static_cast<float>(static_cast<double>(static_cast<float>(p)) * w[k]);
      const volatile float s = static_cast<float>(std::sin(static_cast<double>(angle)));
      const volatile float c = static_cast<float>(std::cos(static_cast<double>(angle)));
      mismatches += row64[k] != static_cast<double>(s) || row64[w.size() + k] != static_cast<double>(c);
      mismatches += row32[k] != s || row32[w.size() + k] != c;
    }
    mismatches += row64[384] != 0.0 || row32[384] != 0.0f;
  }
  CHECK(mismatches == 0);
  // Row 1, w_0 = 1: sin(1) and cos(1) as float32 (0x1.aed548p-1, 0x1.14a280p-1).
  posenc::encodings::sinusoidal_row_torch_f32(1, w, SinusoidalLayout::kInterleaved, std::span<double>(row64));
  CHECK(row64[0] == 0x1.aed548p-1);
  CHECK(row64[1] == 0x1.14a28p-1);
}
