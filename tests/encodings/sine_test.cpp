#include "posenc/encodings/sine.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "error_of.hpp"

using Catch::Matchers::Contains;
using posenc::encodings::sine_frequencies;
using posenc::encodings::sine_table;
using posenc::encodings::SineFrequencies;
using posenc_test::error_of;
using posenc_test::make;

TEST_CASE("sine pow2 frequencies are 1/2^i", "[sine]") {
  const auto w = sine_frequencies(4, SineFrequencies::kPow2);
  CHECK(w == std::vector<double>{1.0, 0.5, 0.25, 0.125});
  CHECK(sine_frequencies(1100, SineFrequencies::kPow2).back() == 0.0);  // 2^-1099 underflows
}

TEST_CASE("sine paper frequencies are 1/10000^(i/(d-1))", "[sine]") {
  const auto w = sine_frequencies(5, SineFrequencies::kPaper);  // exponents 0, 1/4, 2/4, 3/4, 1
  const double expected[5] = {1.0, 0.1, 0.01, 0.001, 0.0001};
  for (std::size_t i = 0; i < 5; ++i) CHECK(w[i] == Approx(expected[i]).epsilon(1e-13));
  CHECK(sine_frequencies(1, SineFrequencies::kPaper) == std::vector<double>{1.0});
}

TEST_CASE("sine rows are sin(w_i t)", "[sine]") {
  const auto m = sine_table(3, 4);
  CHECK(m(0, 0) == 0.0);
  CHECK(m(1, 0) == Approx(0.8414709848078965).epsilon(0).margin(1e-12));  // sin(1)
  CHECK(m(1, 1) == Approx(0.479425538604203).epsilon(0).margin(1e-12));   // sin(0.5)
  CHECK(m(2, 3) == Approx(0.24740395925452294).epsilon(0).margin(1e-12)); // sin(0.25)
  const auto p = sine_table(3, 5, SineFrequencies::kPaper);
  CHECK(p(2, 1) == Approx(0.19866933079506122).epsilon(0).margin(1e-12));  // sin(0.2)
}

TEST_CASE("sine with frequency 1 repeats almost exactly after 355 steps", "[sine]") {
  // 355/113 ≈ π: position 355 lands within 3e-5 of position 0 in column 0 (the seed's overlap problem).
  const auto m = sine_table(356, 1);
  CHECK(std::abs(m(355, 0) - m(0, 0)) < 1e-4);
}

TEST_CASE("sine scheme names columns and validates --frequencies", "[sine]") {
  const auto t = make("sine", {{"len", std::int64_t{2}}, {"dim", std::int64_t{3}}, {"frequencies", std::string("paper")}});
  CHECK(t->info().column_names == std::vector<std::string>{"sin0", "sin1", "sin2"});
  CHECK(t->to_matrix()(1, 1) == Approx(0.009999833334166664).epsilon(0).margin(1e-12));  // sin(0.01), w_1 = 10000^(-1/2)
  CHECK_THAT(error_of([] { make("sine", {{"frequencies", std::string("log")}}); }), Contains("--frequencies"));
}
