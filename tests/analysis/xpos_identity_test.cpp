#include "posenc/analysis/xpos_identity.hpp"

#include <catch2/catch.hpp>

using namespace posenc::analysis;
using posenc::rope::XposOptions;
using posenc::rope::XposRole;

TEST_CASE("xpos-relative holds for xPos and fails when keys are scaled like queries", "[xpos][identity]") {
  XposOptions o;
  o.len = 2048;
  for (const auto qk : {QkChoice::kOnes, QkChoice::kRandom}) {
    const auto good = check_xpos_relative(make_xpos_case(o, XposRole::kKey, qk, 1), 1e-6);
    CHECK(good.holds);
    CHECK(good.max_error < 1e-12);
    // Keys scaled by zeta^((n-c)/gamma) too: the score carries zeta^((m+n-2c)/gamma) instead.
    const auto bad = check_xpos_relative(make_xpos_case(o, XposRole::kQuery, qk, 1), 1e-6);
    CHECK_FALSE(bad.holds);
    CHECK(bad.max_error > 0.1);
  }
}

// schemes.md §1, d = 64, q = k = ones: query at 1500, key 1000 positions earlier (Δ = key − query
// = −1000): xPos 12.086306212203427, RoPE 17.851933499836882 (numpy); Δ = 0: 64 for both.
TEST_CASE("xpos decay against plain RoPE, q = k = ones", "[xpos][decay]") {
  XposOptions o;
  o.len = 4096;
  const auto c = make_xpos_case(o, XposRole::kKey, QkChoice::kOnes, 1);
  const std::vector<std::int64_t> offsets{-1000, 0};
  const auto x = xpos_decay(c, 1500, offsets);
  const auto r = xpos_rope_decay(c, offsets);
  CHECK(x[0] == Approx(12.086306212203427).epsilon(1e-9));
  CHECK(r[0] == Approx(17.851933499836882).epsilon(1e-9));
  CHECK(x[1] == Approx(64.0).epsilon(1e-12));
  CHECK(r[1] == Approx(64.0).epsilon(1e-12));
}
