#include "posenc/analysis/axial_identity.hpp"

#include <fmt/format.h>

#include <cmath>
#include <unordered_map>

#include "identity_util.hpp"

namespace posenc::analysis {
using namespace detail;

namespace {

double norm_axial(const std::vector<double>& x) { return std::sqrt(dot(x, x)); }

/// x rotated pair by pair with row n of the table: (x cos − y sin, x sin + y cos).
std::vector<double> rotate(const AxialCase& c, std::size_t n, const std::vector<double>& x) {
  std::vector<double> out(x.size());
  for (std::size_t j = 0; j < c.cos.cols(); ++j) {
    const double co = c.cos(n, j), si = c.sin(n, j);
    out[2 * j] = x[2 * j] * co - x[2 * j + 1] * si;
    out[2 * j + 1] = x[2 * j] * si + x[2 * j + 1] * co;
  }
  return out;
}

struct OffsetHash {
  std::size_t operator()(const std::array<std::int64_t, 3>& a) const {
    std::uint64_t h = 1469598103934665603ull;
    for (auto v : a) h = (h ^ static_cast<std::uint64_t>(v)) * 1099511628211ull;
    return static_cast<std::size_t>(h);
  }
};

std::string qk_note(const AxialCase& c) {
  return fmt::format("{} tokens, {} pairs; {}", c.ids.size(), c.cos.cols(), c.implementation);
}

}  // namespace

void set_qk(AxialCase& c, QkChoice qk, std::uint64_t seed) {
  const std::size_t d = 2 * c.cos.cols();
  if (qk == QkChoice::kOnes) {
    c.q.assign(d, 1.0);
    c.k = c.q;
  } else {
    c.q = normal_vector(d, seed);
    c.k = qk == QkChoice::kSame ? c.q : normal_vector(d, seed + 1);
  }
}

IdentityResult check_axial_relative(const AxialCase& c, double tol) {
  IdentityResult r = start("axial-relative", tol,
                           "max |<R_a q, R_b k> - <R_a' q, R_b' k>| / (|q||k|) over token pairs with equal offsets per axis");
  const std::size_t n = c.ids.size();
  std::vector<std::vector<double>> rq(n), rk(n);
  for (std::size_t t = 0; t < n; ++t) {
    rq[t] = rotate(c, t, c.q);
    rk[t] = rotate(c, t, c.k);
  }
  const double scale = std::max(norm_axial(c.q) * norm_axial(c.k), 1e-300);
  std::unordered_map<std::array<std::int64_t, 3>, double, OffsetHash> first;
  first.reserve(4 * n);
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b) {
      const std::array<std::int64_t, 3> off{c.ids[a][0] - c.ids[b][0], c.ids[a][1] - c.ids[b][1],
                                            c.ids[a][2] - c.ids[b][2]};
      const double s = dot(rq[a], rk[b]);
      const auto [it, inserted] = first.emplace(off, s);
      record(r, inserted ? 0.0 : std::abs(s - it->second) / scale, {{"a", i64(a)}, {"b", i64(b)}});
    }
  r.note = fmt::format("{} distinct offsets over {} token pairs; {}", first.size(), n * n, qk_note(c));
  finish(r);
  return r;
}

IdentityResult check_text_reduces_to_rope(const AxialCase& c, double tol) {
  IdentityResult r = start("text-reduces-to-rope", tol,
                           "max |cos - cos(p theta_j)|, |sin - sin(p theta_j)| over tokens with equal ids p");
  std::size_t text = 0;
  for (std::size_t t = 0; t < c.ids.size(); ++t) {
    const auto& id = c.ids[t];
    if (id[0] != id[1] || id[1] != id[2]) continue;
    ++text;
    const auto p = static_cast<double>(id[0]);
    for (std::size_t j = 0; j < c.cos.cols(); ++j) {
      const double a = p * c.theta[j];
      record(r, std::max(std::abs(c.cos(t, j) - std::cos(a)), std::abs(c.sin(t, j) - std::sin(a))),
             {{"token", i64(t)}, {"pair", i64(j)}});
    }
  }
  if (text == 0) {
    r.decided = false;
    r.note = "no token has equal ids on every axis (no text tokens)";
    return r;
  }
  r.note = fmt::format("{} text tokens against 1-D RoPE with theta_j = base^(-2j/d) in double; {}", text,
                       c.implementation);
  finish(r);
  return r;
}

IdentityResult check_axial_norm(const AxialCase& c, double tol) {
  IdentityResult r = start("rope-norm", tol, "max ||R_n x| - |x|| / |x|, x = q, k");
  for (std::size_t t = 0; t < c.ids.size(); ++t)
    for (const auto* x : {&c.q, &c.k}) {
      const double nx = std::max(norm_axial(*x), 1e-300);
      record(r, std::abs(norm_axial(rotate(c, t, *x)) - nx) / nx, {{"token", i64(t)}});
    }
  r.note = qk_note(c);
  finish(r);
  return r;
}

}  // namespace posenc::analysis
