#include "posenc/encodings/simple.hpp"

#include <catch2/catch.hpp>

TEST_CASE("normalized spans [0, 1] in equal steps", "[simple]") {
  const auto m = posenc::encodings::normalized_table(/*len=*/5, /*dim=*/2);
  CHECK(m(0, 0) == 0.0);
  CHECK(m(2, 1) == 0.5);   // 2/4
  CHECK(m(4, 0) == 1.0);
}
