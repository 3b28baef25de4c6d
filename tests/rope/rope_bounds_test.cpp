#include "posenc/rope/rope_bounds.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>

using posenc::rope::critical_dimension;
using posenc::rope::min_base;

namespace {

/// B_m = Σ cos(m·b^(−2i/d)) with std::cos at every m (no recurrence): the independent check.
bool bound_holds_direct(double b, int d, std::int64_t L) {
  for (std::int64_t m = 0; m <= L; ++m) {
    double sum = 0;
    for (int i = 0; i < d / 2; ++i) sum += std::cos(static_cast<double>(m) * std::pow(b, -2.0 * i / d));
    if (sum < 0) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("critical dimension: Liu et al. 2023, d_extra = 2*ceil((d/2)*log_base(T/2pi))", "[rope][bounds]") {
  // ../shared/reference/weights.md §5.4, computed there from the formula:
  CHECK(critical_dimension(128, 1e4, 4096) == 92);    // Llama 2
  CHECK(critical_dimension(128, 5e5, 8192) == 70);    // Llama 3 8B
  CHECK(critical_dimension(96, 1e4, 4096) == 68);     // Phi-3-mini
  CHECK(critical_dimension(128, 1e4, 8192) == 100);   // Mistral 7B v0.1
  CHECK(critical_dimension(128, 1e6, 32768) == 80);   // Qwen2 7B
  CHECK(critical_dimension(256, 1e4, 8192) == 200);   // Gemma 7B
  // by hand: log_10(100/2π) = 1.2018, ×2 (d/2 = 2) = 2.40 → ceil 3 → 6 > d = 4: clamped to 4
  CHECK(critical_dimension(4, 10.0, 100) == 4);
  CHECK(critical_dimension(64, 1e4, 5) == 0);  // T < 2π: no pair turns fully
}

TEST_CASE("min base: Men et al. 2024, the first base of the grid with B_m >= 0 up to L", "[rope][bounds]") {
  // weights.md §5.5, exhaustive m scan on a 200-per-decade grid, d = 128 (3 significant digits:
  // neighbouring grid points differ by 1.16 %).
  const auto b1k = min_base(128, 1024);
  REQUIRE(b1k);
  CHECK(*b1k == Approx(4.32e3).epsilon(0.002));
  const auto b8k = min_base(128, 8192);
  REQUIRE(b8k);
  CHECK(*b8k == Approx(8.41e4).epsilon(0.002));
  // Independently, with std::cos at every offset: the bound holds at the returned base and fails
  // at the grid point below it.
  CHECK(bound_holds_direct(*b1k, 128, 1024));
  CHECK_FALSE(bound_holds_direct(*b1k / std::pow(10.0, 1.0 / 200), 128, 1024));
  // Small case by hand: d = 2 (one pair), B_m = cos(m): L = 1 needs nothing (cos 1 > 0), and the
  // first grid point 10^2 passes; beyond the limit the scan is not run.
  CHECK(min_base(2, 1) == Approx(100.0));
  CHECK_FALSE(min_base(128, posenc::rope::kMaxMinBaseLength + 1));
}
