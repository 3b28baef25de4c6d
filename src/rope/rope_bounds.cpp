#include "posenc/rope/rope_bounds.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <vector>

namespace posenc::rope {
namespace {

/// B_m ≥ 0 at m = step, 2·step, … ≤ L (every m when step is 1; B_0 = d/2 > 0). The angles turn
/// by a rotation per step (two multiply-adds per pair) and are set again from cos and sin every
/// 512 steps, so that rounding cannot build up over millions of steps.
bool bound_holds(const std::vector<double>& theta, std::int64_t L, std::int64_t step) {
  const std::size_t P = theta.size();
  std::vector<double> c(P, 1.0), s(P, 0.0), cr(P), sr(P);
  for (std::size_t i = 0; i < P; ++i) {
    cr[i] = std::cos(static_cast<double>(step) * theta[i]);
    sr[i] = std::sin(static_cast<double>(step) * theta[i]);
  }
  std::int64_t k = 0;
  for (std::int64_t m = step; m <= L; m += step) {
    std::array<double, 4> acc = {0, 0, 0, 0};
    if (++k % 512 == 0) {
      for (std::size_t i = 0; i < P; ++i) {
        const double a = static_cast<double>(m) * theta[i];
        c[i] = std::cos(a);
        s[i] = std::sin(a);
        acc[i & 3] += c[i];
      }
    } else {
      for (std::size_t i = 0; i < P; ++i) {
        const double cn = c[i] * cr[i] - s[i] * sr[i];
        s[i] = s[i] * cr[i] + c[i] * sr[i];
        c[i] = cn;
        acc[i & 3] += cn;
      }
    }
    if ((acc[0] + acc[1]) + (acc[2] + acc[3]) < 0) return false;
  }
  return true;
}

}  // namespace

std::int64_t critical_dimension(std::int64_t rotary_dim, double base, std::int64_t train_len) {
  const double half = static_cast<double>(rotary_dim) / 2;
  const double turns = std::log(static_cast<double>(train_len) / (2 * std::numbers::pi)) / std::log(base);
  const double d = 2 * std::ceil(half * turns);
  return static_cast<std::int64_t>(std::clamp(d, 0.0, static_cast<double>(rotary_dim)));
}

std::optional<double> min_base(std::int64_t rotary_dim, std::int64_t context_len) {
  if (context_len > kMaxMinBaseLength || rotary_dim < 2) return std::nullopt;
  const auto P = static_cast<std::size_t>(rotary_dim / 2);
  std::vector<double> theta(P);
  for (int k = 0; k < 200 * 300; ++k) {  // up to 10^302
    const double b = std::pow(10.0, 2 + k / 200.0);
    for (std::size_t i = 0; i < P; ++i)
      theta[i] = std::pow(b, -2.0 * static_cast<double>(i) / static_cast<double>(rotary_dim));
    // Coarse strides first: most bases below the bound fail at a sampled offset, cheaply.
    if (bound_holds(theta, context_len, 97) && bound_holds(theta, context_len, 13) &&
        bound_holds(theta, context_len, 1))
      return b;
  }
  return std::nullopt;
}

}  // namespace posenc::rope
