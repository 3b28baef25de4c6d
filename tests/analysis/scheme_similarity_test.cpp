#include "posenc/analysis/scheme_similarity.hpp"

#include <catch2/catch.hpp>

#include <cmath>

#include "posenc/analysis/scheme_traits.hpp"
#include "posenc/schemes/registry.hpp"
#include "posenc/error.hpp"

namespace {

posenc::ParamMap similarity_test_params(const std::string& scheme) {
  return posenc::analysis::analysis_params(scheme, posenc::ParamMap(posenc::schemes::find_scheme(scheme).params));
}

}  // namespace

TEST_CASE("rope similarity of q = k = ones is 2 cos(j - i) for d = 2", "[scheme_similarity]") {
  auto p = similarity_test_params("rope");
  p.set("dim", std::int64_t{2});  // theta_0 = 1
  p.set("len", std::int64_t{4});
  const auto table = posenc::schemes::make_table("rope", p);
  const auto s = posenc::analysis::scheme_similarity("rope", *table, "dot", "ones", 0, false);
  const auto m = s->to_matrix();
  REQUIRE(m.rows() == 4);
  REQUIRE(m.cols() == 4);
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 4; ++j)
      CHECK(m(i, j) == Approx(2 * std::cos(static_cast<double>(j) - static_cast<double>(i))).margin(1e-12));
}

TEST_CASE("sinusoidal cosine similarity by the closed form: cos(j - i) for one pair", "[scheme_similarity]") {
  auto p = similarity_test_params("sinusoidal");
  p.set("dim", std::int64_t{2});
  p.set("len", std::int64_t{3});
  const auto table = posenc::schemes::make_table("sinusoidal", p);
  const auto s = posenc::analysis::scheme_similarity("sinusoidal", *table, "cosine", "ones", 0, false);
  CHECK(s->info().title.find("closed form") != std::string::npos);
  const auto m = s->to_matrix();
  CHECK(m(0, 2) == Approx(-0.4161468365471424).margin(1e-12));  // cos(2)
}

TEST_CASE("similarity refuses a bias scheme: it has no position vectors", "[scheme_similarity]") {
  CHECK_THROWS_WITH(posenc::analysis::check_similarity_scheme("alibi"), Catch::Contains("alibi is a bias between positions"));
  CHECK_NOTHROW(posenc::analysis::check_similarity_scheme("sinusoidal"));
}
