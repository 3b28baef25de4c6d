// The `rope` registry entry: tables through make_table and the echoed parameters.
#include <catch2/catch.hpp>

#include "test_data.hpp"
#include <cmath>

#include "posenc/schemes/registry.hpp"
#include "posenc/rope/rope_config.hpp"
#include "posenc/error.hpp"

using namespace posenc::encodings;
using namespace posenc::rope;
using namespace posenc::schemes;

namespace {
const posenc::ParamValue* param(const posenc::TableInfo& info, const std::string& name) {
  for (const auto& [n, v] : info.params)
    if (n == name) return &v;
  return nullptr;
}
}  // namespace

TEST_CASE("rope scheme: cos table in the half layout, float64", "[rope][scheme]") {
  posenc::ParamMap p;
  p.set("len", std::int64_t{3});
  p.set("dim", std::int64_t{4});
  p.set("precision", std::string("f64"));
  const auto t = make_table("rope", p);
  REQUIRE(t->rows() == 3);
  REQUIRE(t->cols() == 4);
  const auto m = t->to_matrix();
  CHECK(m(2, 0) == Approx(std::cos(2.0)).epsilon(1e-15));   // pair 0, θ_0 = 1
  CHECK(m(2, 2) == Approx(std::cos(2.0)).epsilon(1e-15));   // its partner in the half layout
  CHECK(m(2, 1) == Approx(std::cos(0.02)).epsilon(1e-15));  // pair 1, θ_1 = 10000^(-1/2)
  CHECK(m(0, 3) == 1.0);
}

TEST_CASE("rope scheme: echoes resolved values from a config file", "[rope][scheme]") {
  posenc::ParamMap p;
  p.set("len", std::int64_t{2});
  p.set("hf-config", posenc::test::data_path("configs/phi-2.json"));
  p.set("table", std::string("angle"));
  const auto t = make_table("rope", p);
  CHECK(t->cols() == 80);
  CHECK(std::get<std::int64_t>(*param(t->info(), "dim")) == 80);
  // Phi-2's partial_rotary_factor 0.4 is echoed (the flag that gives its width back), the
  // width itself is a result.
  CHECK(std::get<double>(*param(t->info(), "partial-rotary-factor")) == 0.4);
  CHECK(!param(t->info(), "rotary-dim"));
  bool rotary_32 = false;
  for (const auto& [n, v] : t->info().results)
    if (n == "rotary_dim") rotary_32 = std::get<std::int64_t>(v) == 32;
  CHECK(rotary_32);
  const auto m = t->to_matrix();
  CHECK(m(1, 0) == 1.0);   // angle of pair 0 at t = 1
  CHECK(m(1, 32) == 0.0);  // dims 32..79 pass through
  bool has_inv_freq = false;
  for (const auto& [n, v] : t->info().results)
    if (n == "inv_freq") has_inv_freq = std::get<std::vector<double>>(v).size() == 16;
  CHECK(has_inv_freq);
}

TEST_CASE("rope scheme: bad values are usage errors", "[rope][scheme]") {
  posenc::ParamMap p;
  p.set("scaling", std::string("yarn"));
  CHECK_THROWS_AS(make_table("rope", p), posenc::Error);
  posenc::ParamMap q;
  q.set("layout", std::string("neox"));
  CHECK_THROWS_WITH(make_table("rope", q), Catch::Contains("--layout must be one of interleaved or half"));
}
