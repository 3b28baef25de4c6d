#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <vector>

#include "posenc/analysis/sinusoids.hpp"
#include "posenc/parallel.hpp"

using posenc::analysis::interleaved_sinusoids;
using posenc::analysis::sinusoid_dots;

namespace {

/// ω_k = 10000^(-2k/d), the paper's frequencies (REFERENCES §2.8), written here, not taken
/// from the encoder.
std::vector<double> paper_omega(int d) {
  std::vector<double> w;
  for (int k = 0; k < d / 2; ++k) w.push_back(std::pow(10000.0, -2.0 * k / d));
  return w;
}

/// Σ_k cos(ω_k Δ) term by term in long double: the closed form PE_t·PE_{t+Δ}.
double direct_dot(const std::vector<double>& omega, std::int64_t delta) {
  long double s = 0;
  for (const double w : omega) s += std::cos(static_cast<long double>(w) * static_cast<long double>(delta));
  return static_cast<double>(s);
}

}  // namespace

TEST_CASE("sinusoid_dots over 65536 consecutive offsets stays within 1e-12·K of the direct sum",
          "[sinusoids]") {
  // The benchmark's decay: d = 4096 (K = 2048 pairs), offsets 0..65535, every chunk of the
  // rotation recurrence is run to its end; checked at a spread of offsets, chunk ends included.
  const auto omega = paper_omega(4096);
  std::vector<std::int64_t> offsets(65536);
  for (std::size_t i = 0; i < offsets.size(); ++i) offsets[i] = static_cast<std::int64_t>(i);
  const auto dots = sinusoid_dots(interleaved_sinusoids(omega, 4096), offsets);
  REQUIRE(dots.size() == offsets.size());
  CHECK(dots[0] == 2048.0);  // Σ cos 0 = K, exactly
  double worst = 0;
  for (std::size_t i = 0; i < offsets.size(); i += (i % 256 == 255 ? 1 : 97)) {
    worst = std::max(worst, std::abs(dots[i] - direct_dot(omega, offsets[i])));
  }
  CHECK(worst < 1e-12 * 2048);
}

TEST_CASE("sinusoid_dots: gaps, negative offsets and any thread count give the same values", "[sinusoids]") {
  const auto omega = paper_omega(64);
  const std::vector<std::int64_t> offsets = {0, 1, 2, 3, 10, 11, -5, -4, -3, 1000000, 1000001, 7};
  posenc::set_threads(1);
  const auto one = sinusoid_dots(interleaved_sinusoids(omega, 64), offsets);
  posenc::set_threads(3);
  const auto three = sinusoid_dots(interleaved_sinusoids(omega, 64), offsets);
  posenc::set_threads(0);
  CHECK(one == three);  // bit for bit
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    CHECK(one[i] == Approx(direct_dot(omega, offsets[i])).epsilon(0).margin(1e-12 * 32));
  }
}
