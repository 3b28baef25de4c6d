#include "posenc/rope/axial_rope.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include "posenc/analysis/axial_rope_case.hpp"
#include "posenc/encodings/scheme.hpp"
#include "posenc/error.hpp"
#include "posenc/schemes/registry.hpp"

using namespace posenc::encodings;
using namespace posenc::rope;
using namespace posenc::schemes;

namespace {

std::vector<double> row_of(const posenc::ParamMap& given, std::size_t r) {
  const auto t = make_table("axial-rope", given);
  std::vector<double> row(t->cols());
  t->fill(r, 1, row);
  return row;
}

}  // namespace

// Hand-worked: grid 2x3, dim 8 -> two slices of 4 columns (2 pairs each), θ = 10000^(-2k/4) =
// 1, 0.01; token 5 is (row 1, col 2): columns 0-3 rotate by 1·θ, columns 4-7 by 2·θ, each
// frequency on both columns of its pair (rotary-embedding-torch's repeat '(n r)').
TEST_CASE("axial-rope angles of a 2x3 grid, dim 8", "[axial-rope]") {
  posenc::ParamMap p;
  p.set("grid", std::string("2x3"));
  p.set("dim", std::int64_t{8});
  p.set("table", std::string("angle"));
  p.set("precision", std::string("f64"));
  const auto a = row_of(p, 5);
  const std::vector<double> want = {1, 1, 0.01, 0.01, 2, 2, 0.02, 0.02};
  for (std::size_t c = 0; c < 8; ++c) CHECK(a[c] == Approx(want[c]).margin(1e-15));
  p.set("axis-order", std::string("col-first"));  // rope-vit: the column slice first
  const auto b = row_of(p, 5);
  CHECK(b[0] == Approx(2.0).margin(1e-15));
  CHECK(b[4] == Approx(1.0).margin(1e-15));
  p.set("axis-order", std::string("row-first"));
  p.set("layout", std::string("half"));  // pair j at j and j + 4
  const auto h = row_of(p, 5);
  CHECK(h == std::vector<double>{1, 0.01, 2, 0.02, 1, 0.01, 2, 0.02});
}

TEST_CASE("axial-rope pixel positions and frequencies (rotary-embedding-torch freqs_for='pixel')", "[axial-rope]") {
  AxialRopeOptions o;
  o.grid = {5, 3};
  o.dim = 8;
  o.pixel = true;
  o.max_freq = 10;
  o.precision = RopePrecision::kF64;
  const auto pairs = axial_pairs(o);
  // linspace(1, 5, 2) * pi per slice
  REQUIRE(pairs.freq.size() == 4);
  CHECK(pairs.freq[0] == Approx(std::numbers::pi).margin(1e-15));
  CHECK(pairs.freq[1] == Approx(5 * std::numbers::pi).margin(1e-14));
  CHECK(axial_position(o, 0, 5) == -1.0);
  CHECK(axial_position(o, 1, 5) == -0.5);  // linspace(-1, 1, 5)
  CHECK(axial_position(o, 2, 3) == 1.0);
  std::vector<double> a(4);
  axial_angles(o, pairs, 3, a);  // token 3 = (row 1, col 0): -0.5 and -1
  CHECK(a[0] == Approx(-0.5 * std::numbers::pi).margin(1e-15));
  CHECK(a[2] == Approx(-1.0 * std::numbers::pi).margin(1e-15));
}

TEST_CASE("axial-rope FLUX widths 16,56,56 and the pass-through columns", "[axial-rope]") {
  posenc::ParamMap p;
  p.set("grid", std::string("1x4x4"));
  p.set("dim", std::int64_t{130});
  p.set("axes-dim", std::string("16,56,56"));
  p.set("precision", std::string("f64"));
  const auto c = row_of(p, 5);  // ids (0, 1, 1)
  REQUIRE(c.size() == 130);
  CHECK(c[0] == 1.0);  // axis 0 (t = 0) does not rotate
  CHECK(c[16] == Approx(std::cos(1.0)).margin(1e-15));             // axis 1, pair 0
  CHECK(c[18] == Approx(std::cos(std::pow(1e4, -2.0 / 56))).margin(1e-15));  // ω restarts per axis
  CHECK(c[72] == Approx(std::cos(1.0)).margin(1e-15));             // axis 2, pair 0
  CHECK(c[128] == 1.0);
  CHECK(c[129] == 1.0);  // past 128: passes through
}

TEST_CASE("axial-rope refuses widths that do not fit", "[axial-rope]") {
  AxialRopeOptions o;
  o.axes_dim = {16, 56, 56};
  CHECK_THROWS_WITH(check_axial_rope(o), Catch::Contains("one width per --grid axis"));
  o.grid = {2, 2, 2};
  CHECK_THROWS_WITH(check_axial_rope(o), Catch::Contains("adds up to 128, more than --dim 64"));
  o.axes_dim = {10, 11, 10};
  CHECK_THROWS_WITH(check_axial_rope(o), Catch::Contains("even width"));
}

TEST_CASE("axial-rope identities hold and fail on a broken table", "[axial-rope][identity]") {
  using namespace posenc::analysis;
  AxialRopeOptions o;
  o.grid = {4, 5};
  o.dim = 16;
  o.precision = RopePrecision::kF64;
  const auto c = make_axial_rope_case(o, 0, QkChoice::kRandom, 3);
  CHECK(check_axial_relative(c, 1e-9).holds);
  CHECK(check_axial_norm(c, 1e-12).holds);
  // Cell 6 = (1, 1) rotated as (1, 2) on its column slice: no longer relative.
  auto broken = c;
  for (std::size_t j = 4; j < 8; ++j) {
    broken.cos(6, j) = c.cos(7, j);
    broken.sin(6, j) = c.sin(7, j);
  }
  const auto r = check_axial_relative(broken, 1e-6);
  CHECK(!r.holds);
  CHECK(r.max_error > 1e-3);
}
