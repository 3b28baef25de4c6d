#include "posenc/analysis/rope_case.hpp"

#include <fmt/format.h>

#include <cmath>
#include <complex>


namespace posenc::analysis {

RopeCheckCase make_rope_case(const rope::RopeConfig& config, const rope::RopeFrequencies& freqs,
                             std::int64_t len, QkChoice qk, std::uint64_t seed) {
  RopeCheckCase c = make_rope_case(freqs.inv_freq, config.layout, len, qk, seed);
  // Position m's cos and sin as the scheme computes them; every form rotates with these.
  auto values = [config, freqs](double m, RopeLayout layout) {
    rope::RopeConfig at = config;
    at.layout = layout;
    return rope::rope_pair_values(at, freqs, static_cast<std::int64_t>(std::llround(m)));
  };
  c.apply = [values](std::span<const double> x, double m, RopeLayout l) {
    const auto v = values(m, l);
    std::vector<double> y(x.begin(), x.end());
    for (std::size_t i = 0; i < v.cos.size(); ++i) {
      const auto [a, b] = rope_pair(l, 2 * v.cos.size(), i);
      y[a] = x[a] * v.cos[i] - x[b] * v.sin[i];
      y[b] = x[b] * v.cos[i] + x[a] * v.sin[i];
    }
    return y;
  };
  c.apply_complex = [values](std::span<const double> x, double m, RopeLayout l) {
    const auto v = values(m, l);
    std::vector<double> y(x.begin(), x.end());
    for (std::size_t i = 0; i < v.cos.size(); ++i) {
      const auto [a, b] = rope_pair(l, 2 * v.cos.size(), i);
      const std::complex<double> z = std::complex<double>(x[a], x[b]) * std::complex<double>(v.cos[i], v.sin[i]);
      y[a] = z.real();
      y[b] = z.imag();
    }
    return y;
  };
  c.apply_matrix = [values](std::span<const double> x, double m, RopeLayout l) {
    const auto v = values(m, l);
    const std::size_t d = x.size();
    Matrix r(d, d);
    for (std::size_t i = 0; i < d; ++i) r(i, i) = 1.0;
    for (std::size_t i = 0; i < v.cos.size(); ++i) {
      const auto [a, b] = rope_pair(l, 2 * v.cos.size(), i);
      r(a, a) = v.cos[i], r(a, b) = -v.sin[i];
      r(b, a) = v.sin[i], r(b, b) = v.cos[i];
    }
    std::vector<double> y(d);
    for (std::size_t i = 0; i < d; ++i) y[i] = dot(r.row(i), x);
    return y;
  };
  const auto v0 = values(0.0, config.layout);
  c.scale = v0.cos.empty() ? 1.0 : v0.cos[0];  // cos 0 times the attention factor
  c.implementation = fmt::format("cos, sin of the rope scheme ({} convention, {} angles)",
                                 rope::to_string(config.convention), rope::to_string(config.precision));
  return c;
}

}  // namespace posenc::analysis
