#include "posenc/render/heatmap.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "posenc/error.hpp"
#include "posenc/io/writers.hpp"
#include "posenc/parallel.hpp"
#include "posenc/render/colormap.hpp"

namespace posenc::render {

namespace {

/// Calls body(row, values) for rows [0, rows) of `t` in order; blocks are filled on worker threads.
template <class Body>
void for_each_row(const Table& t, std::size_t rows, Body&& body) {
  const std::size_t cols = t.cols();
  pipeline<std::vector<double>>(
      rows, io::block_rows(cols),
      [&](std::size_t first, std::size_t n, std::vector<double>& buf) {
        buf.resize(n * cols);
        t.fill(first, n, buf);
      },
      [&](std::size_t first, std::size_t n, const std::vector<double>& buf) {
        for (std::size_t r = 0; r < n; ++r) body(first + r, std::span<const double>(buf.data() + r * cols, cols));
      });
}

/// The same through Table::fill_f32 (the fast float path where a table has one), for reduced
/// images: a pixel averages many cells, so float32 values (within 1.6e-7) draw the same picture.
template <class Body>
void for_each_row_f32(const Table& t, std::size_t rows, Body&& body) {
  const std::size_t cols = t.cols();
  std::vector<double> row(cols);
  pipeline<std::vector<float>>(
      rows, io::block_rows(cols),
      [&](std::size_t first, std::size_t n, std::vector<float>& buf) {
        buf.resize(n * cols);
        t.fill_f32(first, n, buf);
      },
      [&](std::size_t first, std::size_t n, const std::vector<float>& buf) {
        for (std::size_t r = 0; r < n; ++r) {
          std::copy_n(buf.data() + r * cols, cols, row.begin());
          body(first + r, std::span<const double>(row));
        }
      });
}

/// Where source cell i of n lands among m <= n bins: in units where a cell is m long and a bin
/// n long (all integers, so the split is exact), cell i covers [i*m, (i+1)*m).
struct Split {
  std::size_t bin;     ///< first bin
  double w0, w1;       ///< overlap with `bin` and with `bin + 1`
};

Split split(std::size_t i, std::size_t n, std::size_t m) {
  const std::size_t start = i * m, bin = start / n;
  const std::size_t first = std::min(start + m, (bin + 1) * n) - start;
  return {bin, static_cast<double>(first), static_cast<double>(m - first)};
}

struct Range {
  double lo, hi;
  // ±inf (masked causal biases) get the NaN colour, not the colour of an end of the range.
  double operator()(double v) const {
    if (std::isinf(v)) return std::numeric_limits<double>::quiet_NaN();
    return hi > lo ? (v - lo) / (hi - lo) : 0.5;
  }
};

/// Range of the finite values and the colormap it selects; fills res.lo, hi, cmap.
Colormap choose_colors(double lo, double hi, const HeatmapOptions& opt, HeatmapResult& res) {
  if (lo > hi) lo = hi = 0;  // no finite value
  if (std::isfinite(opt.range_lo) && std::isfinite(opt.range_hi)) lo = opt.range_lo, hi = opt.range_hi;
  res.cmap = opt.cmap.empty() ? (lo < 0 ? "RdBu" : "viridis") : opt.cmap;
  const Colormap cmap(res.cmap);
  res.cmap = cmap.info().name;
  if (cmap.info().diverging && lo < 0) {
    hi = std::max(std::abs(lo), std::abs(hi));
    lo = -hi;
  }
  res.lo = lo;
  res.hi = hi;
  return cmap;
}

void widen(double& lo, double& hi, std::span<const double> v) {
  double l = lo, h = hi;  // in registers: lo and hi could alias v for the compiler
  for (const double x : v) {
    const bool ok = std::isfinite(x);
    l = ok && x < l ? x : l;
    h = ok && x > h ? x : h;
  }
  lo = l, hi = h;
}

}  // namespace

HeatmapResult heatmap(const Table& t, const HeatmapOptions& opt) {
  const auto& shape = t.info().shape;
  const std::size_t rows = shape.size() >= 2 ? shape[shape.size() - 2] : 1, cols = t.cols();
  if (rows == 0 || cols == 0 || t.rows() == 0) throw Error("cannot draw a heatmap of an empty table");
  HeatmapResult res;
  res.rows = rows;
  res.cols = cols;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  const std::size_t max_w = static_cast<std::size_t>(std::max(1, opt.max_width));
  const std::size_t max_h = static_cast<std::size_t>(std::max(1, opt.max_height));
  const std::size_t reduce = static_cast<std::size_t>(std::max(1, opt.reduce_to));
  std::size_t lim_w = std::min(max_w, reduce), lim_h = std::min(max_h, reduce);
  if (rows == cols) lim_w = lim_h = std::min(lim_w, lim_h);  // a square matrix (i against j) stays square

  if (cols <= lim_w && rows <= lim_h) {
    // Pass 1: the range of the finite values; pass 2: the colours.
    for_each_row(t, rows, [&](std::size_t, std::span<const double> v) { widen(lo, hi, v); });
    const Colormap cmap = choose_colors(lo, hi, opt, res);
    const Range norm{res.lo, res.hi};
    std::size_t k = std::max<std::size_t>(static_cast<std::size_t>(std::max(1, opt.min_cell)),
                                          static_cast<std::size_t>(std::max(0, opt.target_size)) / std::max(rows, cols));
    k = std::max<std::size_t>(1, std::min({k, max_w / cols, max_h / rows}));
    const int px = static_cast<int>(k);
    res.cell_px = px;
    res.image = Image(static_cast<int>(cols * k), static_cast<int>(rows * k));
    for_each_row(t, rows, [&](std::size_t r, std::span<const double> v) {
      for (std::size_t c = 0; c < cols; ++c) {
        res.image.fill_rect(static_cast<int>(c) * px, static_cast<int>(r) * px, px, px, cmap(norm(v[c])));
      }
    });
    return res;
  }

  // Reduced: one pass accumulates each output pixel's cells (area-weighted sums, or maxima)
  // and finds the range; the colours follow, so the table is computed once.
  const std::size_t out_w = std::min(cols, lim_w), out_h = std::min(rows, lim_h);
  res.reduced = true;
  std::vector<Split> col_split(cols);
  for (std::size_t c = 0; c < cols; ++c) col_split[c] = split(c, cols, out_w);
  std::vector<double> sum(out_h * out_w, 0.0), weight(out_h * out_w, 0.0);
  // kMean: a row is first binned along the columns (running sums in registers, since the
  // bins of consecutive cells are the same or the next), then added to its one or two pixel
  // rows with the row's weights.
  std::vector<double> row_sum(out_w), row_weight(out_w);
  const auto bin_columns = [&](std::span<const double> v) {
    std::fill(row_sum.begin(), row_sum.end(), 0.0);
    std::fill(row_weight.begin(), row_weight.end(), 0.0);
    double acc = 0, acc_w = 0;
    std::size_t bin = col_split[0].bin;
    for (std::size_t c = 0; c < cols; ++c) {
      const Split& cs = col_split[c];
      if (cs.bin != bin) {
        row_sum[bin] += acc, row_weight[bin] += acc_w;
        acc = acc_w = 0, bin = cs.bin;
      }
      if (std::isnan(v[c])) continue;
      acc += v[c] * cs.w0, acc_w += cs.w0;
      if (cs.w1 > 0) row_sum[cs.bin + 1] += v[c] * cs.w1, row_weight[cs.bin + 1] += cs.w1;
    }
    row_sum[bin] += acc, row_weight[bin] += acc_w;
  };
  const auto add = [&](std::size_t y, double wy) {
    if (wy == 0 || y >= out_h) return;
    double* s = sum.data() + y * out_w;
    double* w = weight.data() + y * out_w;
    for (std::size_t x = 0; x < out_w; ++x) s[x] += wy * row_sum[x], w[x] += wy * row_weight[x];
  };
  // kMax: `sum` holds the largest finite cell touching the pixel, `weight` counts them.
  const auto take_max = [&](std::size_t y, double wy, std::span<const double> v) {
    if (wy == 0 || y >= out_h) return;
    double* m = sum.data() + y * out_w;
    double* n = weight.data() + y * out_w;
    for (std::size_t c = 0; c < cols; ++c) {
      if (!std::isfinite(v[c])) continue;
      const Split& cs = col_split[c];
      for (std::size_t b = cs.bin; b <= cs.bin + (cs.w1 > 0 ? 1 : 0); ++b) {
        m[b] = n[b] == 0 ? v[c] : std::max(m[b], v[c]);
        n[b] += 1;
      }
    }
  };
  const bool by_max = opt.reduction == Reduction::kMax;
  const bool given_range = std::isfinite(opt.range_lo) && std::isfinite(opt.range_hi);
  const auto accumulate = [&](std::size_t r, std::span<const double> v) {
    if (!given_range) widen(lo, hi, v);
    const Split rs = split(r, rows, out_h);
    if (by_max) {
      take_max(rs.bin, rs.w0, v);
      take_max(rs.bin + 1, rs.w1, v);
    } else {
      bin_columns(v);
      add(rs.bin, rs.w0);
      add(rs.bin + 1, rs.w1);
    }
  };
  // Maxima are cell values, so they come through the double path; means may use float32.
  if (by_max) for_each_row(t, rows, accumulate);
  else for_each_row_f32(t, rows, accumulate);
  const Colormap cmap = choose_colors(lo, hi, opt, res);
  const Range norm{res.lo, res.hi};
  res.image = Image(static_cast<int>(out_w), static_cast<int>(out_h));
  for (std::size_t y = 0; y < out_h; ++y)
    for (std::size_t x = 0; x < out_w; ++x) {
      const std::size_t i = y * out_w + x;
      const double value = weight[i] == 0 ? std::numeric_limits<double>::quiet_NaN() : by_max ? sum[i] : sum[i] / weight[i];
      res.image.set(static_cast<int>(x), static_cast<int>(y), cmap(norm(value)));
    }
  return res;
}

}  // namespace posenc::render
