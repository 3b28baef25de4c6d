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

TEST_CASE("sinusoid_dots with K not a multiple of the 16-frequency block: the tail frequencies step alone",
          "[sinusoids]") {
  // K = 37 (two blocks of 16 and 5 left over) and K = 5 (no whole block): runs of consecutive
  // offsets across chunk ends, gaps and offset 0 inside a run, all against the direct sum.
  std::vector<std::int64_t> offsets;
  for (std::int64_t t = -20; t < 700; ++t) offsets.push_back(t);
  for (std::int64_t t = 5000; t < 5300; t += 3) offsets.push_back(t);
  for (const int d : {74, 10}) {
    std::vector<double> omega;
    for (int k = 0; k < d / 2; ++k) omega.push_back(std::pow(10000.0, -2.0 * k / d));
    const auto k_pairs = static_cast<double>(omega.size());
    const auto dots = sinusoid_dots(interleaved_sinusoids(omega, static_cast<std::size_t>(d)), offsets);
    REQUIRE(dots.size() == offsets.size());
    double worst = 0;
    for (std::size_t i = 0; i < offsets.size(); ++i) worst = std::max(worst, std::abs(dots[i] - direct_dot(omega, offsets[i])));
    CAPTURE(d);
    CHECK(worst < 1e-12 * k_pairs);
  }
}
