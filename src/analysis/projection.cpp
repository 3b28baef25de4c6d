#include "posenc/analysis/projection.hpp"

#include <fmt/format.h>

#include <cmath>

#include "posenc/analysis/linalg.hpp"
#include "posenc/error.hpp"

namespace posenc::analysis {

Matrix project_dims(const Matrix& pe, const std::vector<std::size_t>& dims) {
  for (std::size_t d : dims)
    if (d >= pe.cols())
      throw Error(fmt::format("--dims {} is outside the table's {} columns (0-based)", d, pe.cols()));
  Matrix out(pe.rows(), dims.size());
  for (std::size_t r = 0; r < pe.rows(); ++r)
    for (std::size_t c = 0; c < dims.size(); ++c) out(r, c) = pe(r, dims[c]);
  return out;
}

Pca pca(const Matrix& pe, std::size_t k) {
  const std::size_t n = pe.rows(), d = pe.cols();
  Matrix x = pe;
  for (std::size_t c = 0; c < d; ++c) {
    double mean = 0.0;
    for (std::size_t r = 0; r < n; ++r) mean += x(r, c);
    mean /= static_cast<double>(n);
    for (std::size_t r = 0; r < n; ++r) x(r, c) -= mean;
  }
  const double denom = n > 1 ? static_cast<double>(n - 1) : 1.0;
  double total = 0.0;
  for (double v : x.data()) total += v * v;
  total /= denom;

  Pca out{Matrix(n, k), Matrix(k, d), std::vector<double>(k, 0.0), std::vector<double>(k, 0.0)};
  if (d <= n) {
    Matrix cov(d, d);
    for (std::size_t r = 0; r < n; ++r)
      for (std::size_t a = 0; a < d; ++a) {
        const double xa = x(r, a);
        if (xa == 0.0) continue;
        for (std::size_t b = a; b < d; ++b) cov(a, b) += xa * x(r, b);
      }
    for (std::size_t a = 0; a < d; ++a)
      for (std::size_t b = a; b < d; ++b) cov(b, a) = cov(a, b) /= denom;
    const Eigen e = top_eigen(cov, k);
    for (std::size_t c = 0; c < e.values.size(); ++c) {
      out.variance[c] = std::max(0.0, e.values[c]);
      for (std::size_t a = 0; a < d; ++a) out.components(c, a) = e.vectors(a, c);
    }
  } else {
    // Gram G = X Xᵀ: G u = λ u gives the component v = Xᵀu / sqrt(λ), variance λ / (N − 1).
    std::vector<double> g;
    gram_rows(x, 0, n, g);
    Matrix gram(n, n);
    std::copy(g.begin(), g.end(), gram.data().begin());
    const Eigen e = top_eigen(gram, k);
    for (std::size_t c = 0; c < e.values.size(); ++c) {
      const double lambda = std::max(0.0, e.values[c]);
      out.variance[c] = lambda / denom;
      if (lambda <= 0.0) continue;
      double big = 0.0;
      for (std::size_t a = 0; a < d; ++a) {
        double s = 0.0;
        for (std::size_t r = 0; r < n; ++r) s += x(r, a) * e.vectors(r, c);
        out.components(c, a) = s / std::sqrt(lambda);
        if (std::abs(out.components(c, a)) > std::abs(big) + 1e-12) big = out.components(c, a);
      }
      if (big < 0)
        for (std::size_t a = 0; a < d; ++a) out.components(c, a) = -out.components(c, a);
    }
  }
  for (std::size_t c = 0; c < k; ++c) {
    out.explained[c] = total > 0 ? out.variance[c] / total : 0.0;
    for (std::size_t r = 0; r < n; ++r) {
      double s = 0.0;
      for (std::size_t a = 0; a < d; ++a) s += x(r, a) * out.components(c, a);
      out.coords(r, c) = s;
    }
  }
  return out;
}

}  // namespace posenc::analysis
