// render::heatmap_range: the colour range a heatmap figure needs before it draws its cells.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <tuple>
#include <vector>

#include "heatmap_internal.hpp"
#include "posenc/formats/writers.hpp"
#include "posenc/parallel.hpp"

namespace posenc::render {
namespace {

struct RangeBlock {
  std::vector<double> values;
  std::vector<float> values32;
  double lo = 0, hi = 0;
  std::size_t masked = 0;
};

template <class V>
void scan(const V& v, RangeBlock& b) {
  using T = std::decay_t<decltype(v[0])>;
  T l = std::numeric_limits<T>::infinity(), h = -l;  // locals: kept in registers
  std::size_t bad = 0;
  for (const T x : v) {
    const bool ok = std::isfinite(x);
    bad += ok ? 0 : 1;
    l = ok && x < l ? x : l;
    h = ok && x > h ? x : h;
  }
  b.lo = l, b.hi = h, b.masked = bad;
}

/// From the diagonals: every offset of an N×M slice occurs, offset Δ in min(N, M − Δ) − max(0, −Δ) cells.
std::pair<double, double> toeplitz_range(const ToeplitzTable& t, std::size_t slices, bool float32, std::size_t& masked) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  const auto n = static_cast<std::int64_t>(t.slice_rows()), m = static_cast<std::int64_t>(t.slice_cols());
  for (std::size_t s = 0; s < slices; ++s) {
    std::vector<double> g = t.all_diagonals(s);
    for (std::size_t k = 0; k < g.size(); ++k) {
      const double v = float32 ? static_cast<double>(to_f32(g[k])) : g[k];
      if (std::isfinite(v)) {
        lo = std::min(lo, v), hi = std::max(hi, v);
      } else {
        const std::int64_t d = static_cast<std::int64_t>(k) - (n - 1);
        masked += static_cast<std::size_t>(std::min(n, m - d) - std::max<std::int64_t>(0, -d));
      }
    }
  }
  return {lo, hi};
}

}  // namespace

std::pair<double, double> heatmap_range(const Table& t, std::size_t slices, Reduction reduction, std::size_t& masked) {
  const auto& shape = t.info().shape;
  const std::size_t rows = (shape.size() >= 2 ? shape[shape.size() - 2] : 1) * slices;
  // The mean reads float32 values (within 1.6e-7 of the double values); maxima are the values.
  const bool float32 = reduction == Reduction::kMean;
  masked = 0;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  if (const ToeplitzTable* tt = as_toeplitz(t)) {
    std::tie(lo, hi) = toeplitz_range(*tt, slices, float32, masked);
  } else {
    const std::size_t cols = t.cols();
    pipeline<RangeBlock>(
        rows, formats::block_rows(cols),
        [&](std::size_t first, std::size_t n, RangeBlock& b) {
          if (float32) {
            b.values32.resize(n * cols);
            t.fill_f32(first, n, b.values32);
            scan(b.values32, b);
          } else {
            b.values.resize(n * cols);
            t.fill(first, n, b.values);
            scan(b.values, b);
          }
        },
        [&](std::size_t, std::size_t, const RangeBlock& b) {
          lo = std::min(lo, b.lo), hi = std::max(hi, b.hi), masked += b.masked;
        });
  }
  if (lo > hi) lo = hi = 0;
  return {lo, hi};
}

}  // namespace posenc::render
