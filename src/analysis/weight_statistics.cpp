// Statistics of trained position tables (see weight_statistics.hpp).
#include "posenc/analysis/weight_statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "posenc/analysis/similarity.hpp"
#include "posenc/analysis/sinusoids.hpp"

namespace posenc::analysis {
namespace {

double cosine_of(std::span<const double> a, std::span<const double> b) {
  double ab = 0, aa = 0, bb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    ab += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  return ab / std::sqrt(aa * bb);
}

/// Σ over used pairs of (S(i, j) − g(j − i))², from the per-offset sums of S: O(N) per base.
double fit_rms(const std::vector<double>& diag_sum, double total_sq, const std::vector<double>& g, std::size_t n) {
  double s = total_sq;
  for (std::size_t d = 0; d < n; ++d) {
    const double w = d == 0 ? 1.0 : 2.0;  // offsets ±d
    s += w * (-2.0 * g[d] * diag_sum[d] + static_cast<double>(n - d) * g[d] * g[d]);
  }
  return std::sqrt(std::max(0.0, s) / static_cast<double>(n * n));
}

}  // namespace

models::TableStatistics table_statistics(const models::TableWeights& t) {
  models::TableStatistics out;
  const auto width = static_cast<std::size_t>(t.width);
  const auto row = [&](std::int64_t i) {
    return std::span<const double>(t.values.data() + static_cast<std::size_t>(i) * width, width);
  };
  if (t.grid_rows > 0 && t.grid_cols > 0) {
    const std::int64_t first = t.class_token ? 1 : 0;
    for (std::int64_t y = 0; y < t.grid_rows; ++y)
      for (std::int64_t x = 0; x + 1 < t.grid_cols; ++x) {
        const std::int64_t i = first + y * t.grid_cols + x;
        if (i + 1 < t.rows) out.neighbour_cosine.push_back(cosine_of(row(i), row(i + 1)));
      }
  } else {
    for (std::int64_t i = t.first_row; i < t.last_row; ++i) out.neighbour_cosine.push_back(cosine_of(row(i), row(i + 1)));
  }
  if (!out.neighbour_cosine.empty()) {
    double s = 0, lo = std::numeric_limits<double>::infinity();
    for (double c : out.neighbour_cosine) {
      s += c;
      lo = std::min(lo, c);
    }
    out.neighbour_cosine_mean = s / static_cast<double>(out.neighbour_cosine.size());
    out.neighbour_cosine_min = lo;
  }
  const std::int64_t used = std::min<std::int64_t>(t.last_row - t.first_row + 1, kMaxFitRows);
  if (t.grid_rows > 0 || used < 2 || t.width < 2) return out;
  // The table's cosine-similarity matrix over its used rows, summed along each offset.
  const auto n = static_cast<std::size_t>(used);
  std::vector<double> rows(t.values.begin() + static_cast<std::ptrdiff_t>(t.first_row * t.width),
                           t.values.begin() + static_cast<std::ptrdiff_t>((t.first_row + used) * t.width));
  const Matrix s = similarity(Matrix(n, width, std::move(rows)), Metric::kCosine);
  std::vector<double> diag_sum(n, 0.0);
  double total_sq = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const double v = std::isfinite(s(i, j)) ? s(i, j) : 0.0;
      total_sq += v * v;
      if (j >= i) diag_sum[j - i] += v;
    }
  std::vector<std::int64_t> offsets(n);
  for (std::size_t d = 0; d < n; ++d) offsets[d] = static_cast<std::int64_t>(d);
  const std::size_t pairs = width / 2;
  const auto rms_for = [&](double base) {
    std::vector<double> omega(pairs);
    for (std::size_t k = 0; k < pairs; ++k)
      omega[k] = std::pow(base, -2.0 * static_cast<double>(k) / static_cast<double>(width));
    std::vector<double> g = sinusoid_dots(split_sinusoids(omega, width), offsets);
    for (double& v : g) v /= static_cast<double>(pairs);  // every row of the sinusoid table has norm² = pairs
    return fit_rms(diag_sum, total_sq, g, n);
  };
  out.sinusoid_rms = std::numeric_limits<double>::infinity();
  for (int e = 20; e <= 140; ++e) {  // bases 10^1 .. 10^7, 20 per decade
    const double base = std::pow(10.0, e / 20.0);
    const double rms = rms_for(base);
    if (rms < out.sinusoid_rms) {
      out.sinusoid_rms = rms;
      out.sinusoid_base = base;
    }
  }
  out.sinusoid_rms_base_1e4 = rms_for(10000.0);
  return out;
}

void add_weight_statistics(models::ModelReport& r) {
  for (auto& m : r.mechanisms)
    if (m.weights && m.weights->table) m.weights->table->statistics = table_statistics(*m.weights->table);
}

}  // namespace posenc::analysis
