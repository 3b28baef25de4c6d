#include "posenc/rope/rope_apply.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <complex>

#include "posenc/error.hpp"
#include "posenc/fast_math.hpp"

namespace posenc::rope {
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

void rope_table_row_f32(const RopeConfig& c, const RopeFrequencies& f, RopeTableKind kind, std::int64_t position,
                        std::span<float> out_row) {
  const std::size_t pairs = f.pairs();
  check_width(out_row.size(), pairs);
  if (c.convention == RopeConvention::kGgml || is_engine_convention(c.convention) || kind == RopeTableKind::kAngle) {
    thread_local std::vector<double> row;
    row.resize(out_row.size());
    rope_table_row(c, f, kind, position, row);
    for (std::size_t k = 0; k < row.size(); ++k) out_row[k] = static_cast<float>(row[k]);
    return;
  }
  // Only the function the table holds is computed, straight into the row (pairs values), then
  // scaled and placed: half layout copies the first half, interleaved spreads it out.
  thread_local std::vector<double> angle;
  thread_local std::vector<float> spread;
  const bool inter = c.layout == RopeLayout::kInterleaved;
  float* v = out_row.data();
  if (inter) {
    spread.resize(pairs);
    v = spread.data();
  }
  std::span<const double> w = f.inv_freq;
  double p = static_cast<double>(position);
  if (c.precision == RopePrecision::kF32) {
    // As rope_pair_values: the angle is a float32 product, its cos/sin then scaled in float32.
    const auto t = static_cast<float>(position);
    angle.resize(pairs);
    for (std::size_t i = 0; i < pairs; ++i) angle[i] = static_cast<double>(t * static_cast<float>(f.inv_freq[i]));
    w = angle;
    p = 1.0;
  }
  if (kind == RopeTableKind::kCos) {
    cos_f32(w, p, v);
  } else {
    sin_f32(w, p, v);
  }
  if (c.apply_attention_factor && f.attention_factor != 1.0) {  // × 1.0f would change nothing
    const auto att = static_cast<float>(f.attention_factor);
    for (std::size_t i = 0; i < pairs; ++i) v[i] *= att;
  }
  if (inter) {
    for (std::size_t i = 0; i < pairs; ++i) {
      out_row[2 * i] = v[i];
      out_row[2 * i + 1] = v[i];
    }
  } else {
    std::copy(v, v + pairs, out_row.begin() + static_cast<std::ptrdiff_t>(pairs));
  }
  const float pass = kind == RopeTableKind::kCos ? 1.0f : 0.0f;
  for (std::size_t k = 2 * pairs; k < out_row.size(); ++k) out_row[k] = pass;
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

RopePermutation rope_permutation(std::int64_t dim, std::int64_t rotary_dim) {
  const std::int64_t rotary = rotary_dim > 0 ? rotary_dim : dim;
  if (rotary_dim == 0 && (dim < 2 || dim % 2 != 0))
    throw Error(fmt::format("--dim must be even and at least 2 (got {})", dim));
  if (rotary < 2 || rotary % 2 != 0 || rotary > dim)
    throw Error(fmt::format("--rotary-dim must be even, at least 2 and at most --dim {} (got {})", dim, rotary));
  const auto half = rotary / 2;
  RopePermutation p;
  p.rotary_dim = rotary;
  p.to_half.resize(static_cast<std::size_t>(dim));
  p.to_interleaved.resize(static_cast<std::size_t>(dim));
  for (std::int64_t k = rotary; k < dim; ++k)  // pass-through rows stay
    p.to_half[static_cast<std::size_t>(k)] = p.to_interleaved[static_cast<std::size_t>(k)] = k;
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

}  // namespace posenc::rope
