#include "posenc/encodings/simple.hpp"

#include <catch2/catch.hpp>

#include "error_of.hpp"

using posenc_test::make;

TEST_CASE("integer repeats t in every column", "[simple]") {
  const auto m = posenc::encodings::integer_table(4, 3);
  for (std::size_t t = 0; t < 4; ++t)
    for (std::size_t k = 0; k < 3; ++k) CHECK(m(t, k) == static_cast<double>(t));
  CHECK(make("integer", {{"len", std::int64_t{3}}})->to_matrix()(2, 0) == 2.0);
}

TEST_CASE("normalized of a single position is 0, step depends on N", "[simple]") {
  CHECK(posenc::encodings::normalized_table(1, 1)(0, 0) == 0.0);
  const auto three = posenc::encodings::normalized_table(3, 1);
  const auto four = posenc::encodings::normalized_table(4, 1);
  CHECK(three(1, 0) == 0.5);                                 // seed: [0, 0.5, 1]
  CHECK(four(1, 0) == Approx(1.0 / 3.0).margin(1e-15));      // seed: [0, 0.33, 0.67, 1]
}
