#include "posenc/encodings/rope_apply.hpp"

#include <fmt/format.h>

#include <cassert>
#include <cmath>
#include <complex>

#include "posenc/error.hpp"

namespace posenc::encodings {
namespace {

/// Dimension indices (a, b) of pair i among `pairs` pairs.
std::pair<std::size_t, std::size_t> pair_dims(std::size_t i, std::size_t pairs, RopeLayout layout) {
  if (layout == RopeLayout::kInterleaved) return {2 * i, 2 * i + 1};
  return {i, i + pairs};
}

void check_width(std::size_t n, std::size_t pairs) {
  if (n < 2 * pairs) throw Error(fmt::format("vector of length {} is shorter than the rotary width {}", n, 2 * pairs));
}

}  // namespace

void place_pairs(std::span<const double> pair_values, RopeLayout layout, double pass_value,
                 std::span<double> out_row) {
  const std::size_t pairs = pair_values.size();
  check_width(out_row.size(), pairs);
  for (std::size_t i = 0; i < pairs; ++i) {
    const auto [a, b] = pair_dims(i, pairs, layout);
    out_row[a] = pair_values[i];
    out_row[b] = pair_values[i];
  }
  for (std::size_t k = 2 * pairs; k < out_row.size(); ++k) out_row[k] = pass_value;
}

void rope_table_row(const RopeConfig& c, const RopeFrequencies& f, RopeTableKind kind, std::int64_t position,
                    std::span<double> out_row) {
  const auto v = rope_pair_values(c, f, position);
  switch (kind) {
    case RopeTableKind::kAngle: place_pairs(v.angle, c.layout, 0.0, out_row); break;
    case RopeTableKind::kCos: place_pairs(v.cos, c.layout, 1.0, out_row); break;
    case RopeTableKind::kSin: place_pairs(v.sin, c.layout, 0.0, out_row); break;
  }
}

std::vector<double> rope_rotate(std::span<const double> x, std::span<const double> angles, RopeLayout layout,
                                double scale) {
  const std::size_t pairs = angles.size();
  check_width(x.size(), pairs);
  std::vector<double> out(x.begin(), x.end());
  for (std::size_t i = 0; i < pairs; ++i) {
    const auto [a, b] = pair_dims(i, pairs, layout);
    const double c = std::cos(angles[i]) * scale;
    const double s = std::sin(angles[i]) * scale;
    out[a] = x[a] * c - x[b] * s;
    out[b] = x[b] * c + x[a] * s;
  }
  return out;
}

std::vector<double> rope_rotate_complex(std::span<const double> x, std::span<const double> angles,
                                        RopeLayout layout, double scale) {
  const std::size_t pairs = angles.size();
  check_width(x.size(), pairs);
  std::vector<double> out(x.begin(), x.end());
  for (std::size_t i = 0; i < pairs; ++i) {
    const auto [a, b] = pair_dims(i, pairs, layout);
    const std::complex<double> z(x[a], x[b]);
    const std::complex<double> r = z * std::polar(scale, angles[i]);
    out[a] = r.real();
    out[b] = r.imag();
  }
  return out;
}

Matrix rope_rotation_matrix(std::span<const double> angles, std::size_t n, RopeLayout layout, double scale) {
  const std::size_t pairs = angles.size();
  check_width(n, pairs);
  Matrix r(n, n, 0.0);
  for (std::size_t k = 2 * pairs; k < n; ++k) r(k, k) = 1.0;
  for (std::size_t i = 0; i < pairs; ++i) {
    const auto [a, b] = pair_dims(i, pairs, layout);
    const double c = std::cos(angles[i]) * scale;
    const double s = std::sin(angles[i]) * scale;
    r(a, a) = c;
    r(a, b) = -s;
    r(b, a) = s;
    r(b, b) = c;
  }
  return r;
}

RopePermutation rope_permutation(std::int64_t dim) {
  if (dim < 2 || dim % 2 != 0) throw Error(fmt::format("--dim must be even and at least 2 (got {})", dim));
  const auto half = dim / 2;
  RopePermutation p;
  p.to_half.resize(static_cast<std::size_t>(dim));
  p.to_interleaved.resize(static_cast<std::size_t>(dim));
  for (std::int64_t i = 0; i < half; ++i) {
    for (std::int64_t j = 0; j < 2; ++j) {
      const auto old_row = 2 * i + j;     // interleaved: pair i at (2i, 2i+1)
      const auto new_row = j * half + i;  // half: pair i at (i, i + d/2)
      p.to_half[static_cast<std::size_t>(new_row)] = old_row;
      p.to_interleaved[static_cast<std::size_t>(old_row)] = new_row;
    }
  }
  return p;
}

std::vector<double> apply_permutation(std::span<const double> x, std::span<const std::int64_t> perm) {
  assert(x.size() == perm.size());
  std::vector<double> y(perm.size());
  for (std::size_t k = 0; k < perm.size(); ++k) y[k] = x[static_cast<std::size_t>(perm[k])];
  return y;
}

}  // namespace posenc::encodings
