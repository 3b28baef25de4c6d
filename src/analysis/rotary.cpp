#include "posenc/analysis/rotary.hpp"

#include <fmt/format.h>

#include <cmath>
#include <complex>

#include "posenc/error.hpp"

namespace posenc::analysis {

std::vector<double> rope_theta(double base, std::int64_t dim) {
  if (dim <= 0 || dim % 2 != 0) throw Error(fmt::format("--dim must be even for rope (got {})", dim));
  if (!(base > 0.0) || !std::isfinite(base)) throw Error(fmt::format("--base must be positive (got {})", base));
  std::vector<double> theta(static_cast<std::size_t>(dim / 2));
  for (std::size_t i = 0; i < theta.size(); ++i)
    theta[i] = std::pow(base, -2.0 * static_cast<double>(i) / static_cast<double>(dim));
  return theta;
}

std::pair<std::size_t, std::size_t> rope_pair(RopeLayout layout, std::size_t d, std::size_t i) {
  if (layout == RopeLayout::kInterleaved) return {2 * i, 2 * i + 1};
  return {i, i + d / 2};
}

std::vector<double> rope_elementwise(std::span<const double> x, double m, const std::vector<double>& theta,
                                     RopeLayout layout) {
  const std::size_t d = x.size();
  std::vector<double> cos_v(d), sin_v(d), rotated(d);
  for (std::size_t i = 0; i < theta.size(); ++i) {
    const auto [a, b] = rope_pair(layout, d, i);
    cos_v[a] = cos_v[b] = std::cos(m * theta[i]);
    sin_v[a] = sin_v[b] = std::sin(m * theta[i]);
    rotated[a] = -x[b];
    rotated[b] = x[a];
  }
  std::vector<double> out(d);
  for (std::size_t c = 0; c < d; ++c) out[c] = x[c] * cos_v[c] + rotated[c] * sin_v[c];
  return out;
}

Matrix rope_matrix(double m, const std::vector<double>& theta, RopeLayout layout) {
  const std::size_t d = 2 * theta.size();
  Matrix r(d, d);
  for (std::size_t i = 0; i < theta.size(); ++i) {
    const auto [a, b] = rope_pair(layout, d, i);
    const double c = std::cos(m * theta[i]), s = std::sin(m * theta[i]);
    r(a, a) = c;
    r(a, b) = -s;
    r(b, a) = s;
    r(b, b) = c;
  }
  return r;
}

std::vector<double> rope_matrix_form(std::span<const double> x, double m, const std::vector<double>& theta,
                                     RopeLayout layout) {
  const Matrix r = rope_matrix(m, theta, layout);
  std::vector<double> out(x.size(), 0.0);
  for (std::size_t i = 0; i < r.rows(); ++i) out[i] = dot(r.row(i), x);
  return out;
}

std::vector<double> rope_complex_form(std::span<const double> x, double m, const std::vector<double>& theta,
                                      RopeLayout layout) {
  std::vector<double> out(x.size());
  for (std::size_t i = 0; i < theta.size(); ++i) {
    const auto [a, b] = rope_pair(layout, x.size(), i);
    const std::complex<double> z = std::complex<double>(x[a], x[b]) * std::polar(1.0, m * theta[i]);
    out[a] = z.real();
    out[b] = z.imag();
  }
  return out;
}

std::vector<std::size_t> interleaved_to_half(std::size_t d) {
  std::vector<std::size_t> perm(d);
  for (std::size_t i = 0; i < d / 2; ++i)
    for (std::size_t s = 0; s < 2; ++s) perm[2 * i + s] = s * (d / 2) + i;
  return perm;
}

double rope_complex_score(std::span<const double> q, std::span<const double> k, double m, double n,
                          const std::vector<double>& theta, RopeLayout layout) {
  double sum = 0.0;
  for (std::size_t i = 0; i < theta.size(); ++i) {
    const auto [a, b] = rope_pair(layout, q.size(), i);
    const std::complex<double> h = std::complex<double>(q[a], q[b]) * std::conj(std::complex<double>(k[a], k[b]));
    sum += (h * std::polar(1.0, (m - n) * theta[i])).real();
  }
  return sum;
}

}  // namespace posenc::analysis
