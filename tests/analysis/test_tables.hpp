#pragma once
// Tables for the analysis tests, written from their formulas here (not from the code under test).
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "posenc/matrix.hpp"

namespace test_tables {

/// The paper's w_k = 10000^(-2k/d).
inline std::vector<double> paper_omega(int d, double base = 10000.0) {
  std::vector<double> w;
  for (int k = 0; k < d / 2; ++k) w.push_back(std::pow(base, -2.0 * k / d));
  return w;
}

/// PE[t, 2k] = sin(w_k t), PE[t, 2k+1] = cos(w_k t) (Vaswani et al. §3.5); split: [sin | cos].
inline posenc::Matrix sinusoidal(int n, int d, bool split = false, double base = 10000.0) {
  posenc::Matrix m(static_cast<std::size_t>(n), static_cast<std::size_t>(d));
  const auto w = paper_omega(d, base);
  for (int t = 0; t < n; ++t)
    for (int k = 0; k < d / 2; ++k) {
      const auto r = static_cast<std::size_t>(t);
      const auto s = static_cast<std::size_t>(split ? k : 2 * k);
      const auto c = static_cast<std::size_t>(split ? d / 2 + k : 2 * k + 1);
      m(r, s) = std::sin(w[static_cast<std::size_t>(k)] * t);
      m(r, c) = std::cos(w[static_cast<std::size_t>(k)] * t);
    }
  return m;
}

/// Seed 003 §1.4: PE[t, i] = sin(t / 2^i).
inline posenc::Matrix sine_pow2(int n, int d) {
  posenc::Matrix m(static_cast<std::size_t>(n), static_cast<std::size_t>(d));
  for (int t = 0; t < n; ++t)
    for (int i = 0; i < d; ++i) m(static_cast<std::size_t>(t), static_cast<std::size_t>(i)) = std::sin(t / std::ldexp(1.0, i));
  return m;
}

/// Uniform noise in [-1, 1), like an untrained learned table.
inline posenc::Matrix random(int n, int d, unsigned seed = 7) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  posenc::Matrix m(static_cast<std::size_t>(n), static_cast<std::size_t>(d));
  for (double& v : m.data()) v = u(rng);
  return m;
}

/// Seed 003 §1.1: the position itself.
inline posenc::Matrix integer(int n, int d) {
  posenc::Matrix m(static_cast<std::size_t>(n), static_cast<std::size_t>(d));
  for (int t = 0; t < n; ++t)
    for (int c = 0; c < d; ++c) m(static_cast<std::size_t>(t), static_cast<std::size_t>(c)) = t;
  return m;
}

}  // namespace test_tables
