#include "posenc/analysis/sinusoids.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "posenc/error.hpp"

namespace posenc::analysis {

Sinusoids interleaved_sinusoids(std::vector<double> omega, std::size_t dim) {
  Sinusoids s;
  for (std::size_t k = 0; k < omega.size(); ++k) {
    s.sin_col.push_back(2 * k);
    s.cos_col.push_back(2 * k + 1);
  }
  s.omega = std::move(omega);
  s.dim = dim;
  return s;
}

Sinusoids split_sinusoids(std::vector<double> omega, std::size_t dim) {
  Sinusoids s;
  const std::size_t k_pairs = omega.size();
  for (std::size_t k = 0; k < k_pairs; ++k) {
    s.sin_col.push_back(k);
    s.cos_col.push_back(k_pairs + k);
  }
  s.omega = std::move(omega);
  s.dim = dim;
  return s;
}

Matrix sinusoid_table(const Sinusoids& s, std::size_t len) {
  Matrix m(len, s.dim);
  for (std::size_t r = 0; r < len; ++r) {
    const double p = s.first_position + static_cast<double>(r);
    for (std::size_t k = 0; k < s.omega.size(); ++k) {
      m(r, s.sin_col[k]) = std::sin(s.omega[k] * p);
      m(r, s.cos_col[k]) = std::cos(s.omega[k] * p);
    }
  }
  return m;
}

double sinusoid_dot(const Sinusoids& s, double delta) {
  double sum = 0.0;
  for (double w : s.omega) sum += std::cos(w * delta);
  return sum;
}

Metric parse_metric(const std::string& name) {
  if (name == "dot") return Metric::kDot;
  if (name == "cosine") return Metric::kCosine;
  if (name == "distance") return Metric::kDistance;
  throw Error(fmt::format("--metric must be dot, cosine or distance (got '{}')", name));
}

std::string metric_name(Metric m) {
  switch (m) {
    case Metric::kDot: return "dot";
    case Metric::kCosine: return "cosine";
    case Metric::kDistance: return "distance";
  }
  return "dot";
}

double metric_from_dot(Metric m, double dot, double norm2_a, double norm2_b) {
  switch (m) {
    case Metric::kDot: return dot;
    case Metric::kCosine:
      if (norm2_a <= 0.0 || norm2_b <= 0.0) return std::numeric_limits<double>::quiet_NaN();
      return dot / std::sqrt(norm2_a * norm2_b);
    case Metric::kDistance: return std::sqrt(std::max(0.0, norm2_a + norm2_b - 2.0 * dot));
  }
  return dot;
}

}  // namespace posenc::analysis
