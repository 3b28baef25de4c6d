#include "posenc/analysis/rope_identity.hpp"

#include <fmt/format.h>

#include <cmath>
#include <numbers>
#include <random>

#include "identity_util.hpp"
#include "posenc/rope/rope_apply.hpp"
#include "posenc/error.hpp"

namespace posenc::analysis {
using namespace detail;

namespace {

using Pos = std::vector<std::pair<std::string, std::int64_t>>;

double norm_rope(const std::vector<double>& x) { return std::sqrt(dot(x, x)); }

double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

std::vector<std::int64_t> spread(std::int64_t len, std::int64_t first) {
  std::vector<std::int64_t> out;
  for (std::int64_t p = first; p < std::min<std::int64_t>(len, 16); ++p) out.push_back(p);
  if (len > 16)
    for (int s = 1; s <= 48; ++s) {
      const std::int64_t p = 16 + (len - 1 - 16) * s / 48;
      if (p > out.back()) out.push_back(p);
    }
  return out;
}

double rotated_score(const RopeCheckCase& c, double m, double n) {
  return dot(c.apply(c.q, m, c.layout), c.apply(c.k, n, c.layout));
}

std::string vectors_note(const RopeCheckCase& c) {
  return fmt::format("d = {}, {} positions up to {}", c.q.size(), c.positions.size(),
                     c.positions.empty() ? 0 : c.positions.back());
}

}  // namespace

QkChoice parse_qk(const std::string& name) {
  if (name == "random") return QkChoice::kRandom;
  if (name == "same") return QkChoice::kSame;
  if (name == "ones") return QkChoice::kOnes;
  throw Error(fmt::format("--qk must be random, same or ones (got '{}')", name));
}

std::vector<double> normal_vector(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> out(n);
  for (std::size_t i = 0; i < n; i += 2) {
    const double u1 = static_cast<double>((rng() >> 11) + 1) * 0x1.0p-53;  // (0, 1]
    const double u2 = static_cast<double>(rng() >> 11) * 0x1.0p-53;        // [0, 1)
    const double r = std::sqrt(-2.0 * std::log(u1));
    out[i] = r * std::cos(2.0 * std::numbers::pi * u2);
    if (i + 1 < n) out[i + 1] = r * std::sin(2.0 * std::numbers::pi * u2);
  }
  return out;
}

RopeCheckCase make_rope_case(std::vector<double> theta, RopeLayout layout, std::int64_t len, QkChoice qk,
                             std::uint64_t seed) {
  RopeCheckCase c;
  const std::size_t d = 2 * theta.size();
  c.theta = std::move(theta);
  c.layout = layout;
  if (qk == QkChoice::kOnes) {
    c.q.assign(d, 1.0);
    c.k = c.q;
  } else {
    c.q = normal_vector(d, seed);
    c.k = qk == QkChoice::kSame ? c.q : normal_vector(d, seed + 1);
  }
  auto angles = [theta = c.theta](double m) {
    std::vector<double> a(theta.size());
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = m * theta[i];
    return a;
  };
  c.apply = [angles](std::span<const double> x, double m, RopeLayout l) {
    return rope::rope_rotate(x, angles(m), l);
  };
  c.apply_complex = [angles](std::span<const double> x, double m, RopeLayout l) {
    return rope::rope_rotate_complex(x, angles(m), l);
  };
  c.apply_matrix = [angles](std::span<const double> x, double m, RopeLayout l) {
    const Matrix r = rope::rope_rotation_matrix(angles(m), x.size(), l);
    std::vector<double> y(x.size());
    for (std::size_t i = 0; i < y.size(); ++i) y[i] = dot(r.row(i), x);
    return y;
  };
  c.positions = spread(std::max<std::int64_t>(len, 1), 0);
  c.offsets = spread(std::max<std::int64_t>(len, 2), 1);
  return c;
}

IdentityResult check_rope_relative(const RopeCheckCase& c, double tol) {
  IdentityResult r = start("rope-relative", tol,
                           "max |<R_m q, R_n k> - <R_0 q, R_{n-m} k>|, |.. - Re sum q k* e^{i(m-n)theta}| / (|q||k|)");
  const double scale = std::max(norm_rope(c.q) * norm_rope(c.k), 1e-300);
  const auto r0q = c.apply(c.q, 0.0, c.layout);  // = scale · q
  for (std::int64_t m : c.positions)
    for (std::int64_t n : c.positions) {
      const auto md = static_cast<double>(m), nd = static_cast<double>(n);
      const double lhs = rotated_score(c, md, nd);
      const double mid = dot(r0q, c.apply(c.k, nd - md, c.layout));
      const double rhs = c.scale * c.scale * rope_complex_score(c.q, c.k, md, nd, c.theta, c.layout);
      record(r, std::max(std::abs(lhs - mid), std::abs(lhs - rhs)) / scale, Pos{{"m", m}, {"n", n}});
    }
  r.note = vectors_note(c) + "; " + c.implementation +
           (c.scale != 1.0 ? fmt::format("; R_0 = {} I (attention factor), so both sides carry its square", c.scale) : "");
  finish(r);
  return r;
}

IdentityResult check_rope_norm(const RopeCheckCase& c, double tol) {
  // The attention factor s (R_0 = s·I) is divided out: what must keep norms is R_m / s.
  const bool scaled = c.scale != 1.0;
  IdentityResult r = start("rope-norm", tol,
                           scaled ? "max ||R_m x| - s|x|| / (s|x|), x = q, k, s = R_0's factor"
                                  : "max ||R_m x| - |x|| / |x|, x = q, k");
  const double s = std::abs(c.scale) > 1e-300 ? std::abs(c.scale) : 1.0;
  for (std::int64_t m : c.positions)
    for (const auto* x : {&c.q, &c.k}) {
      const double nx = s * std::max(norm_rope(*x), 1e-300);
      record(r, std::abs(norm_rope(c.apply(*x, static_cast<double>(m), c.layout)) - nx) / nx, Pos{{"m", m}});
    }
  r.note = vectors_note(c) + "; " + c.implementation +
           (scaled ? fmt::format("; cos and sin carry the attention factor s = {} (divided out here: |R_m x| = s |x|)",
                                 c.scale)
                   : "");
  finish(r);
  return r;
}

IdentityResult check_rope_forms_agree(const RopeCheckCase& c, double tol) {
  IdentityResult r = start("rope-forms-agree", tol, "max |matrix - element-wise|, |complex - element-wise| / |q|");
  const double scale = std::max(norm_rope(c.q), 1e-300);
  for (std::int64_t m : c.positions) {
    const auto md = static_cast<double>(m);
    const auto e = c.apply(c.q, md, c.layout);
    const double err = std::max(max_abs_diff(c.apply_matrix(c.q, md, c.layout), e),
                                max_abs_diff(c.apply_complex(c.q, md, c.layout), e));
    record(r, err / scale, Pos{{"m", m}});
  }
  r.note = vectors_note(c);
  finish(r);
  return r;
}

IdentityResult check_layouts_agree(const RopeCheckCase& c, double tol) {
  IdentityResult r = start("layouts-agree", tol, "max |P R_m^interleaved q - R_m^half P q| / |q|, score differences / (|q||k|)");
  const std::size_t d = c.q.size();
  const auto perm = interleaved_to_half(d);
  auto permute = [&](const std::vector<double>& x) {
    std::vector<double> y(d);
    for (std::size_t i = 0; i < d; ++i) y[perm[i]] = x[i];
    return y;
  };
  const auto pq = permute(c.q), pk = permute(c.k);
  const double nq = std::max(norm_rope(c.q), 1e-300), scale = std::max(norm_rope(c.q) * norm_rope(c.k), 1e-300);
  for (std::int64_t m : c.positions) {
    const auto md = static_cast<double>(m);
    const auto inter = permute(c.apply(c.q, md, RopeLayout::kInterleaved));
    const auto half = c.apply(pq, md, RopeLayout::kHalf);
    record(r, max_abs_diff(inter, half) / nq, Pos{{"m", m}});
    for (std::int64_t n : c.positions) {
      const auto nd = static_cast<double>(n);
      const double si = dot(c.apply(c.q, md, RopeLayout::kInterleaved), c.apply(c.k, nd, RopeLayout::kInterleaved));
      const double sh = dot(half, c.apply(pk, nd, RopeLayout::kHalf));
      record(r, std::abs(si - sh) / scale, Pos{{"m", m}, {"n", n}});
    }
  }
  r.note = vectors_note(c) + "; permutation 2i+s -> s*d/2+i";
  finish(r);
  return r;
}

IdentityResult check_rope_dot_shift_invariant(const RopeCheckCase& c, double tol) {
  IdentityResult r = start("dot-shift-invariant", tol, "max |<R_m q, R_{m+delta} k> - <q, R_delta k>| / (|q||k|)");
  const double scale = std::max(norm_rope(c.q) * norm_rope(c.k), 1e-300);
  for (std::int64_t d : c.offsets) {
    const double ref = rotated_score(c, 0.0, static_cast<double>(d));
    for (std::int64_t m : c.positions)
      record(r, std::abs(rotated_score(c, static_cast<double>(m), static_cast<double>(m + d)) - ref) / scale,
             Pos{{"m", m}, {"delta", d}});
  }
  r.note = vectors_note(c);
  finish(r);
  return r;
}

IdentityResult check_rope_dot_symmetric(const RopeCheckCase& c, double tol) {
  IdentityResult r = start("dot-symmetric", tol, "max |<R_m q, R_{m+delta} k> - <R_m q, R_{m-delta} k>| / (|q||k|)");
  const double scale = std::max(norm_rope(c.q) * norm_rope(c.k), 1e-300);
  for (std::int64_t d : c.offsets)
    for (std::int64_t m : c.positions) {
      const auto md = static_cast<double>(m), dd = static_cast<double>(d);
      record(r, std::abs(rotated_score(c, md, md + dd) - rotated_score(c, md, md - dd)) / scale,
             Pos{{"m", m}, {"delta", d}});
    }
  r.note = vectors_note(c) + (c.q == c.k ? " (q = k)" : " (q != k: expected to fail)");
  finish(r);
  return r;
}

}  // namespace posenc::analysis
