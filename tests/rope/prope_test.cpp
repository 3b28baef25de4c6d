// p-RoPE (`rope --scaling proportional --proportion p`): the limits p = 0 (NoPE) and p = 1 (RoPE).
#include <catch2/catch.hpp>

#include <cmath>

#include "../encodings/error_of.hpp"
#include "posenc/rope/rope_config.hpp"

using posenc_test::error_of;
using posenc_test::make;

namespace {

posenc::Matrix prope_table(double p, const std::string& table) {
  return make("rope", {{"dim", std::int64_t{16}}, {"len", std::int64_t{40}}, {"scaling", std::string("proportional")},
                       {"proportion", p}, {"table", table}, {"precision", std::string("f64")}})
      ->to_matrix();
}

}  // namespace

TEST_CASE("p-RoPE with p = 0 rotates nothing: cos 1, sin 0, as NoPE", "[rope][prope]") {
  const auto c = prope_table(0.0, "cos"), s = prope_table(0.0, "sin");
  for (std::size_t t = 0; t < 40; ++t)
    for (std::size_t i = 0; i < 16; ++i) {
      CHECK(c(t, i) == 1.0);
      CHECK(s(t, i) == 0.0);
    }
  // NoPE's query is the same vector at every position: a rotation by 0 leaves it so.
  const auto nope = make("nope", {{"dim", std::int64_t{16}}, {"len", std::int64_t{40}}})->to_matrix();
  for (std::size_t t = 0; t < 40; ++t) CHECK(nope(t, 3) * c(t, 3) == nope(0, 3));
}

TEST_CASE("p-RoPE with p = 1 is plain RoPE (half layout, exponent over the head)", "[rope][prope]") {
  for (const char* table : {"angle", "cos", "sin"}) {
    const auto p1 = prope_table(1.0, table);
    const auto plain = make("rope", {{"dim", std::int64_t{16}}, {"len", std::int64_t{40}}, {"table", std::string(table)},
                                     {"precision", std::string("f64")}})
                           ->to_matrix();
    for (std::size_t t = 0; t < 40; ++t)
      for (std::size_t i = 0; i < 16; ++i) CHECK(p1(t, i) == plain(t, i));
  }
}

// Gemma's global layers: p = 0.25 of d = 16 gives int(0.25·16 // 2) = 2 rotating pairs, θ = 1 and
// 10000^(-2/16); the half layout puts pair i at dims i and i + 8.
TEST_CASE("p-RoPE with p = 0.25: two pairs rotate", "[rope][prope]") {
  const auto a = prope_table(0.25, "angle");
  CHECK(a(3, 0) == Approx(3.0).epsilon(1e-15));
  CHECK(a(3, 9) == Approx(3.0 * std::pow(10000.0, -2.0 / 16.0)).epsilon(1e-14));
  for (std::size_t i : {2u, 7u, 10u, 15u}) CHECK(a(39, i) == 0.0);
  const auto t = make("rope", {{"dim", std::int64_t{16}}, {"scaling", std::string("proportional")}, {"proportion", 0.25}});
  bool echoed = false;
  for (const auto& [k, v] : t->info().params) echoed = echoed || (k == "proportion" && std::get<double>(v) == 0.25);
  CHECK(echoed);
}

TEST_CASE("p-RoPE: --proportion needs proportional and excludes the other widths", "[rope][prope]") {
  CHECK(error_of([] { make("rope", {{"proportion", 0.5}}); }) ==
        "--proportion 0.5 is p-RoPE's fraction: it needs --scaling proportional (got --scaling none)");
  CHECK(error_of([] {
          make("rope", {{"scaling", std::string("proportional")}, {"proportion", 0.5}, {"partial-rotary-factor", 0.5}});
        }) == "--proportion 0.5 and --partial-rotary-factor are alternatives under proportional: give one");
  // Elsewhere a rotary width of 0 stays refused.
  CHECK(error_of([] { make("rope", {{"partial-rotary-factor", 0.0}}); }) == "--partial-rotary-factor must be in (0, 1] (got 0)");
}
