#include "posenc/analysis/xpos_identity.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "identity_util.hpp"

namespace posenc::analysis {

using namespace detail;
using rope::XposRole;

XposCase make_xpos_case(const rope::XposOptions& o, XposRole key_role, QkChoice qk, std::uint64_t seed) {
  XposCase c;
  c.options = o;
  c.key_role = key_role;
  const auto d = static_cast<std::size_t>(o.dim);
  if (qk == QkChoice::kOnes) {
    c.q.assign(d, 1.0);
    c.k = c.q;
  } else {
    c.q = normal_vector(d, seed);
    c.k = qk == QkChoice::kSame ? c.q : normal_vector(d, seed + 1);
  }
  // 0..15, then evenly spaced to len − 1 (at most 64 positions).
  const std::int64_t len = std::max<std::int64_t>(o.len, 1);
  for (std::int64_t t = 0; t < std::min<std::int64_t>(len, 16); ++t) c.positions.push_back(t);
  if (len > 16)
    for (std::int64_t s = 1; s <= 48; ++s) {
      const std::int64_t t = 15 + (len - 1 - 15) * s / 48;
      if (t > c.positions.back()) c.positions.push_back(t);
    }
  return c;
}

namespace {

/// Σ_i w_i·[(q0 k0 + q1 k1) cos(δθ_i) − (q1 k0 − q0 k1) sin(δθ_i)], w_i = ζ_i^(δ/γ) or 1 (RoPE).
double closed_score(const XposCase& c, std::int64_t delta, bool scaled) {
  const auto zeta = rope::xpos_zeta(c.options.dim);
  const auto theta = rope::xpos_theta(c.options);
  const double dd = static_cast<double>(delta);
  double sum = 0;
  for (std::size_t i = 0; i < zeta.size(); ++i) {
    const double q0 = c.q[2 * i], q1 = c.q[2 * i + 1], k0 = c.k[2 * i], k1 = c.k[2 * i + 1];
    const double w = scaled ? std::pow(zeta[i], dd / c.options.scale_base) : 1.0;
    sum += w * ((q0 * k0 + q1 * k1) * std::cos(dd * theta[i]) - (q1 * k0 - q0 * k1) * std::sin(dd * theta[i]));
  }
  return sum;
}

}  // namespace

double xpos_closed_score(const XposCase& c, std::int64_t delta) { return closed_score(c, delta, true); }

namespace {

/// |x| of q or k after scaling and rotating at position t (rotation keeps each pair's norm).
double scaled_norm(const XposCase& c, const std::vector<double>& x, std::int64_t t, XposRole role) {
  const auto zeta = rope::xpos_zeta(c.options.dim);
  double s2 = 0;
  for (std::size_t i = 0; i < zeta.size(); ++i) {
    const double s = rope::xpos_scale(c.options, zeta[i], t, role);
    s2 += s * s * (x[2 * i] * x[2 * i] + x[2 * i + 1] * x[2 * i + 1]);
  }
  return std::sqrt(s2);
}

}  // namespace

IdentityResult check_xpos_relative(const XposCase& c, double tol) {
  IdentityResult r = start("xpos-relative", tol,
                           "max |<q~_m, k~_n> - sum_i zeta_i^((m-n)/gamma) (pair i of RoPE's score)| / (|q~_m||k~_n|)");
  for (std::int64_t m : c.positions)
    for (std::int64_t n : c.positions) {
      const double lhs = rope::xpos_score(c.options, c.q, c.k, m, n, c.key_role);
      const double rhs = xpos_closed_score(c, m - n);
      const double scale = std::max(scaled_norm(c, c.q, m, XposRole::kQuery) * scaled_norm(c, c.k, n, c.key_role), 1e-300);
      record(r, std::abs(lhs - rhs) / scale, {{"m", m}, {"n", n}});
    }
  r.note = fmt::format("{} positions 0..{}, centre {}, scale base {}{}", c.positions.size(), c.positions.back(),
                       rope::xpos_centre(c.options), c.options.scale_base,
                       c.key_role == XposRole::kQuery ? "; keys scaled like queries (--key-scale same)" : "");
  finish(r);
  return r;
}

std::vector<double> xpos_decay(const XposCase& c, std::int64_t from, const std::vector<std::int64_t>& offsets) {
  std::vector<double> out;
  out.reserve(offsets.size());
  for (std::int64_t d : offsets) out.push_back(rope::xpos_score(c.options, c.q, c.k, from, from + d, c.key_role));
  return out;
}

std::vector<double> xpos_rope_decay(const XposCase& c, const std::vector<std::int64_t>& offsets) {
  std::vector<double> out;
  out.reserve(offsets.size());
  for (std::int64_t d : offsets) out.push_back(closed_score(c, -d, false));  // query m, key m + Δ: m − n = −Δ
  return out;
}

}  // namespace posenc::analysis
