#include "posenc/analysis/linalg.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "posenc/parallel.hpp"

namespace posenc::analysis {
double dot(std::span<const double> a, std::span<const double> b) {
  double s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

namespace {

// Sorts eigenpairs by descending value, fixes signs, keeps the first k.
Eigen sorted(const std::vector<double>& values, const Matrix& vectors, std::size_t k) {
  const std::size_t n = vectors.rows();
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values[a] > values[b]; });
  k = std::min(k, order.size());
  Eigen e{std::vector<double>(k), Matrix(n, k)};
  for (std::size_t c = 0; c < k; ++c) {
    e.values[c] = values[order[c]];
    std::size_t big = 0;
    for (std::size_t r = 0; r < n; ++r)
      if (std::abs(vectors(r, order[c])) > std::abs(vectors(big, order[c])) + 1e-12) big = r;
    const double sign = vectors(big, order[c]) < 0 ? -1.0 : 1.0;
    for (std::size_t r = 0; r < n; ++r) e.vectors(r, c) = sign * vectors(r, order[c]);
  }
  return e;
}

// Orthonormalises the columns of v in place (modified Gram–Schmidt, twice for stability).
void orthonormalize(Matrix& v) {
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t c = 0; c < v.cols(); ++c) {
      for (std::size_t p = 0; p < c; ++p) {
        double s = 0.0;
        for (std::size_t r = 0; r < v.rows(); ++r) s += v(r, p) * v(r, c);
        for (std::size_t r = 0; r < v.rows(); ++r) v(r, c) -= s * v(r, p);
      }
      double norm = 0.0;
      for (std::size_t r = 0; r < v.rows(); ++r) norm += v(r, c) * v(r, c);
      norm = std::sqrt(norm);
      for (std::size_t r = 0; r < v.rows(); ++r) v(r, c) = norm > 0 ? v(r, c) / norm : (r == c ? 1.0 : 0.0);
    }
  }
}

Matrix multiply(const Matrix& a, const Matrix& v) {  // a (n×n) · v (n×p)
  Matrix w(a.rows(), v.cols());
  for (std::size_t i = 0; i < a.rows(); ++i)
    for (std::size_t k = 0; k < a.cols(); ++k) {
      const double aik = a(i, k);
      if (aik == 0.0) continue;
      for (std::size_t c = 0; c < v.cols(); ++c) w(i, c) += aik * v(k, c);
    }
  return w;
}

}  // namespace

Eigen jacobi_eigen(Matrix a) {
  const std::size_t n = a.rows();
  Matrix v(n, n);
  for (std::size_t i = 0; i < n; ++i) v(i, i) = 1.0;
  double total = 0.0;
  for (double x : a.data()) total += x * x;
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0.0;
    for (std::size_t p = 0; p < n; ++p)
      for (std::size_t q = p + 1; q < n; ++q) off += a(p, q) * a(p, q);
    if (off <= 1e-30 * total || off == 0.0) break;
    for (std::size_t p = 0; p < n; ++p) {
      for (std::size_t q = p + 1; q < n; ++q) {
        const double apq = a(p, q);
        if (std::abs(apq) < 1e-300) continue;
        // Rotation that zeroes a(p, q) (Golub & Van Loan, Algorithm 8.5.1).
        const double theta = (a(q, q) - a(p, p)) / (2.0 * apq);
        const double t = (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1.0));
        const double c = 1.0 / std::sqrt(t * t + 1.0);
        const double s = t * c;
        for (std::size_t k = 0; k < n; ++k) {
          const double akp = a(k, p), akq = a(k, q);
          a(k, p) = c * akp - s * akq;
          a(k, q) = s * akp + c * akq;
        }
        for (std::size_t k = 0; k < n; ++k) {
          const double apk = a(p, k), aqk = a(q, k);
          a(p, k) = c * apk - s * aqk;
          a(q, k) = s * apk + c * aqk;
        }
        for (std::size_t k = 0; k < n; ++k) {
          const double vkp = v(k, p), vkq = v(k, q);
          v(k, p) = c * vkp - s * vkq;
          v(k, q) = s * vkp + c * vkq;
        }
      }
    }
  }
  std::vector<double> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = a(i, i);
  return sorted(values, v, n);
}

Eigen top_eigen(const Matrix& a, std::size_t k, std::size_t jacobi_limit) {
  const std::size_t n = a.rows();
  if (n <= jacobi_limit) {
    const Eigen all = jacobi_eigen(a);
    return sorted(all.values, all.vectors, k);
  }
  const std::size_t p = std::min(n, k + 4);
  Matrix v(n, p);
  std::mt19937_64 rng(12345);  // fixed start: the same input gives the same output
  for (double& x : v.data()) x = static_cast<double>(rng() >> 11) * 0x1.0p-53 - 0.5;
  orthonormalize(v);
  std::vector<double> previous(k, 0.0);
  Eigen ritz;
  for (int it = 0; it < 2000; ++it) {
    v = multiply(a, v);
    orthonormalize(v);
    if (it % 5 != 4) continue;
    // Rayleigh–Ritz: eigenpairs of Vᵀ A V rotate V onto the best approximations.
    const Matrix av = multiply(a, v);
    Matrix h(p, p);
    for (std::size_t i = 0; i < p; ++i)
      for (std::size_t j = 0; j < p; ++j)
        for (std::size_t r = 0; r < n; ++r) h(i, j) += v(r, i) * av(r, j);
    ritz = jacobi_eigen(h);
    Matrix rotated(n, p);
    for (std::size_t r = 0; r < n; ++r)
      for (std::size_t c = 0; c < p; ++c)
        for (std::size_t j = 0; j < p; ++j) rotated(r, c) += v(r, j) * ritz.vectors(j, c);
    v = std::move(rotated);
    double change = 0.0;
    for (std::size_t c = 0; c < k; ++c) change = std::max(change, std::abs(ritz.values[c] - previous[c]));
    previous.assign(ritz.values.begin(), ritz.values.begin() + static_cast<std::ptrdiff_t>(k));
    if (change <= 1e-14 * std::max(std::abs(ritz.values[0]), 1e-300)) break;
  }
  return sorted(ritz.values, v, k);
}

ProjectionResidual projection_residual(const Matrix& x_in, const Matrix& y_in, double rank_tol) {
  const std::size_t m = x_in.rows(), n = x_in.cols(), ny = y_in.cols();
  // NaN compares false and would be skipped by the pivoting: a non-finite input has no residual.
  const auto finite = [](const Matrix& a) {
    return std::all_of(a.data().begin(), a.data().end(), [](double v) { return std::isfinite(v); });
  };
  if (!finite(x_in) || !finite(y_in)) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    return {nan, 0, std::vector<double>(m, nan)};
  }
  // Columns stored as contiguous rows (the transposes), so every reflection streams memory.
  Matrix xt(n, m), yt(ny, m);
  for (std::size_t r = 0; r < m; ++r) {
    for (std::size_t c = 0; c < n; ++c) xt(c, r) = x_in(r, c);
    for (std::size_t c = 0; c < ny; ++c) yt(c, r) = y_in(r, c);
  }
  std::vector<std::vector<double>> reflectors;  // v_j over rows j..m-1
  double first_norm = 0.0;
  std::vector<bool> used(n, false);
  auto tail = [&](Matrix& mat, std::size_t c, std::size_t j) { return mat.row(c).subspan(j); };
  // Remaining squared norms, downdated after each step and recomputed when cancellation
  // has eaten most of them (LAPACK xGEQP3's rule, simplified).
  std::vector<double> norm2(n), fresh(n);
  for (std::size_t c = 0; c < n; ++c) fresh[c] = norm2[c] = dot(xt.row(c), xt.row(c));
  for (std::size_t j = 0; j < std::min(m, n); ++j) {
    report_progress(j, std::min(m, n));  // O(m·n²): a bar on a terminal (shift-linear of a large --input)
    // Pivot: the unused column with the largest remaining norm (rows j..m-1).
    std::size_t best = n;
    double best_norm = -1.0;
    for (std::size_t c = 0; c < n; ++c) {
      if (used[c]) continue;
      if (norm2[c] < 1e-4 * fresh[c]) {
        const auto col = tail(xt, c, j);
        fresh[c] = norm2[c] = dot(col, col);
      }
      if (norm2[c] > best_norm) {
        best_norm = norm2[c];
        best = c;
      }
    }
    if (best < n) {  // the pivot's norm exactly, as it decides the rank
      const auto col = tail(xt, best, j);
      best_norm = dot(col, col);
    }
    best_norm = std::sqrt(best_norm);
    if (j == 0) first_norm = best_norm;
    if (best == n || best_norm <= rank_tol * first_norm || best_norm == 0.0) break;
    used[best] = true;
    const auto pivot = tail(xt, best, j);
    std::vector<double> v(pivot.begin(), pivot.end());
    v[0] += v[0] >= 0 ? best_norm : -best_norm;
    const double vv = dot(v, v);
    auto reflect = [&](std::span<double> col) {
      const double s = 2.0 * dot(v, col) / vv;
      for (std::size_t r = 0; r < v.size(); ++r) col[r] -= s * v[r];
    };
    for (std::size_t c = 0; c < n; ++c)
      if (!used[c]) {
        reflect(tail(xt, c, j));
        const double left = norm2[c] - xt(c, j) * xt(c, j);
        norm2[c] = left < 0.0 ? 0.0 : left;  // not std::max(0.0, left): that turns NaN into 0
      }
    for (std::size_t c = 0; c < ny; ++c) reflect(tail(yt, c, j));
    reflectors.push_back(std::move(v));
  }
  ProjectionResidual out;
  out.rank = reflectors.size();
  // The residual in the rotated basis is rows rank..m-1 of Qᵀ·Y; rotate back with Q.
  for (std::size_t c = 0; c < ny; ++c) {
    auto col = yt.row(c);
    for (std::size_t r = 0; r < out.rank; ++r) col[r] = 0.0;
    for (std::size_t jj = out.rank; jj-- > 0;) {
      const auto& v = reflectors[jj];
      const auto part = col.subspan(jj);
      const double s = 2.0 * dot(v, part) / dot(v, v);
      for (std::size_t r = 0; r < v.size(); ++r) part[r] -= s * v[r];
    }
  }
  double res = 0.0, total = 0.0;
  out.row_residual.assign(m, 0.0);
  for (std::size_t c = 0; c < ny; ++c)
    for (std::size_t r = 0; r < m; ++r) out.row_residual[r] += yt(c, r) * yt(c, r);
  for (std::size_t r = 0; r < m; ++r) {
    res += out.row_residual[r];
    out.row_residual[r] = std::sqrt(out.row_residual[r]);
    total += dot(y_in.row(r), y_in.row(r));
  }
  out.relative = total > 0 ? std::sqrt(res / total) : 0.0;
  return out;
}

void gram_rows(const Matrix& a, std::size_t first, std::size_t count, std::vector<double>& out) {
  const std::size_t n = a.rows();
  out.assign(count * n, 0.0);
  constexpr std::size_t kBlock = 64;
  for (std::size_t jb = 0; jb < n; jb += kBlock) {
    const std::size_t je = std::min(n, jb + kBlock);
    for (std::size_t r = 0; r < count; ++r) {
      const auto ar = a.row(first + r);
      for (std::size_t j = jb; j < je; ++j) out[r * n + j] = dot(ar, a.row(j));
    }
  }
}

}  // namespace posenc::analysis
