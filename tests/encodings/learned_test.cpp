#include "posenc/encodings/learned.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "error_of.hpp"

using Catch::Matchers::Contains;
using posenc::encodings::learned_table;
using posenc::encodings::LearnedOptions;
using posenc_test::error_of;
using posenc_test::make;

TEST_CASE("the platform's mt19937_64 is the standard one", "[learned]") {
  // [rand.predef]: the 10000th output of a default-constructed mt19937_64.
  std::mt19937_64 e;
  e.discard(9999);
  CHECK(e() == 9981545732273789042ULL);
  CHECK(posenc::encodings::splitmix64(0) == 0xE220A8397B1DCDAFULL);  // SplitMix64's first output for state 0
}

TEST_CASE("learned values match an independent implementation of the documented algorithm", "[learned]") {
  // Recorded from a separate Python implementation (MT19937-64 + SplitMix64 + Box-Muller)
  // written from docs/encodings/learned.md.
  const auto m = learned_table(2, 3);
  CHECK(m(0, 0) == Approx(0.019755114385360643).epsilon(0).margin(1e-15));
  CHECK(m(0, 1) == Approx(0.013909216756521268).epsilon(0).margin(1e-15));
  CHECK(m(0, 2) == Approx(-0.02292184320468276).epsilon(0).margin(1e-15));
  CHECK(m(1, 0) == Approx(-0.008715019515426393).epsilon(0).margin(1e-15));
  CHECK(m(1, 2) == Approx(0.03199613106306029).epsilon(0).margin(1e-15));
  LearnedOptions o;
  o.seed = 42;
  const auto s = learned_table(1024, 3, o);
  CHECK(s(1023, 0) == Approx(0.011945227574658103).epsilon(0).margin(1e-15));
  CHECK(s(1023, 1) == Approx(0.015039760503657516).epsilon(0).margin(1e-15));
  CHECK(s(1023, 2) == Approx(0.02697518851280128).epsilon(0).margin(1e-15));
}

TEST_CASE("learned: same seed same table, different seed different table", "[learned]") {
  LearnedOptions a, b;
  a.seed = b.seed = 7;
  const auto x = learned_table(16, 32, a);
  const auto y = learned_table(16, 32, b);
  CHECK(std::equal(x.data().begin(), x.data().end(), y.data().begin()));
  b.seed = 8;
  const auto z = learned_table(16, 32, b);
  std::size_t same = 0;
  for (std::size_t i = 0; i < x.data().size(); ++i) same += x.data()[i] == z.data()[i];
  CHECK(same == 0);
}

TEST_CASE("learned row t depends neither on --len nor --max-len, and its prefix not on --dim", "[learned]") {
  LearnedOptions big;
  big.max_len = 4096;
  const auto short_table = learned_table(10, 64);
  const auto long_table = learned_table(1000, 64, big);
  const auto narrow = learned_table(10, 5);
  for (std::size_t t = 0; t < 10; ++t) {
    for (std::size_t k = 0; k < 64; ++k) CHECK(short_table(t, k) == long_table(t, k));
    for (std::size_t k = 0; k < 5; ++k) CHECK(narrow(t, k) == short_table(t, k));
  }
  // Rows differ from each other (each row has its own stream).
  CHECK(short_table(0, 0) != short_table(1, 0));
}

TEST_CASE("learned 1024x768 table has mean 0 and std 0.02 within statistical bounds", "[learned]") {
  const auto m = make("learned", {{"len", std::int64_t{1024}}})->to_matrix();  // defaults: D 768, std 0.02
  REQUIRE(m.cols() == 768);
  const auto n = static_cast<double>(m.data().size());
  double sum = 0, sq = 0;
  for (double v : m.data()) sum += v;
  const double mean = sum / n;
  for (double v : m.data()) sq += (v - mean) * (v - mean);
  const double sd = std::sqrt(sq / (n - 1));
  // Standard errors: 0.02/sqrt(n) = 2.3e-5 for the mean, 0.02/sqrt(2n) = 1.6e-5 for the std; allow 5.
  CHECK(std::abs(mean) < 5 * 0.02 / std::sqrt(n));
  CHECK(std::abs(sd - 0.02) < 5 * 0.02 / std::sqrt(2 * n));
}

TEST_CASE("learned --std scales the table; --std 0 gives zeros", "[learned]") {
  LearnedOptions one;
  one.stddev = 1.0;
  const auto a = learned_table(4, 8);
  const auto b = learned_table(4, 8, one);
  for (std::size_t i = 0; i < a.data().size(); ++i) CHECK(a.data()[i] == Approx(0.02 * b.data()[i]).epsilon(0).margin(1e-15));
  const auto z = make("learned", {{"len", std::int64_t{3}}, {"dim", std::int64_t{4}}, {"std", 0.0}})->to_matrix();
  for (double v : z.data()) CHECK(v == 0.0);
}

TEST_CASE("learned refuses positions past --max-len: no extrapolation", "[learned][errors]") {
  CHECK(make("learned", {{"len", std::int64_t{1024}}, {"dim", std::int64_t{2}}})->rows() == 1024);
  CHECK(error_of([] { make("learned", {{"len", std::int64_t{2048}}}); }) ==
        "--len 2048 exceeds --max-len 1024: a learned table has no rows beyond its length (it cannot extrapolate)");
  CHECK_THAT(error_of([] { learned_table(11, 2, LearnedOptions{0.02, 0, 10}); }), Contains("--max-len 10"));
  CHECK_THAT(error_of([] { make("learned", {{"std", -1.0}}); }), Contains("--std"));
}
