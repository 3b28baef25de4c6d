#include "posenc/encodings/simple.hpp"

#include <catch2/catch.hpp>

#include "posenc/encodings/scheme.hpp"
#include "posenc/error.hpp"
#include "posenc/schemes/registry.hpp"

using posenc::encodings::integer_table;
using posenc::encodings::normalized_table;

TEST_CASE("integer holds the position in every column", "[simple]") {
  const auto m = integer_table(/*len=*/4, /*dim=*/3);
  CHECK(m.rows() == 4);
  CHECK(m.cols() == 3);
  CHECK(m(0, 2) == 0.0);
  CHECK(m(3, 0) == 3.0);
}

TEST_CASE("normalized spans [0, 1] in equal steps of 1/(N-1)", "[simple]") {
  const auto m = normalized_table(/*len=*/5, /*dim=*/2);
  CHECK(m(0, 0) == 0.0);
  CHECK(m(1, 1) == 0.25);  // 1/4
  CHECK(m(2, 1) == 0.5);   // 2/4
  CHECK(m(4, 0) == 1.0);
  // The seed's point: the step depends on N (3 tokens: 0.5; 4 tokens: 1/3).
  CHECK(normalized_table(3, 1)(1, 0) == 0.5);
  CHECK(normalized_table(4, 1)(1, 0) == Approx(1.0 / 3.0).epsilon(0).margin(1e-15));
  CHECK(normalized_table(1, 1)(0, 0) == 0.0);
}

TEST_CASE("streamed tables equal the pure functions", "[simple]") {
  posenc::ParamMap p;
  p.set("len", std::int64_t{6});
  p.set("dim", std::int64_t{2});
  const auto t = posenc::schemes::make_table("normalized", p);
  const auto m = t->to_matrix();
  const auto ref = normalized_table(6, 2);
  for (std::size_t r = 0; r < 6; ++r) CHECK(m(r, 1) == ref(r, 1));
  CHECK(t->info().params.front().first == "len");
}

TEST_CASE("unknown scheme suggests the nearest name", "[registry]") {
  CHECK_THROWS_WITH(posenc::schemes::find_scheme("integr"),
                    Catch::Contains("unknown scheme 'integr', did you mean 'integer'?"));
}
