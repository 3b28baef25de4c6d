#include "posenc/render/heatmap.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "posenc/error.hpp"
#include "posenc/formats/writers.hpp"
#include "posenc/parallel.hpp"
#include "posenc/render/colormap.hpp"
#include "heatmap_internal.hpp"

namespace posenc::render {

namespace {

using detail::choose_colors;
using detail::Range;
using detail::split;
using detail::Split;
using detail::widen;

/// Calls body(row, values) for rows [0, rows) of `t` (flattened rows offset + row) in order; blocks are filled on worker threads.
template <class Body>
void for_each_row(const Table& t, std::size_t offset, std::size_t rows, Body&& body) {
  const std::size_t cols = t.cols();
  pipeline<std::vector<double>>(
      rows, formats::block_rows(cols),
      [&](std::size_t first, std::size_t n, std::vector<double>& buf) {
        buf.resize(n * cols);
        t.fill(offset + first, n, buf);
      },
      [&](std::size_t first, std::size_t n, const std::vector<double>& buf) {
        for (std::size_t r = 0; r < n; ++r) body(first + r, std::span<const double>(buf.data() + r * cols, cols));
      });
}

/// The same through Table::fill_f32 (the fast float path where a table has one), for reduced
/// images: a pixel averages many cells, so float32 values (within 1.6e-7) draw the same picture.
template <class Body>
void for_each_row_f32(const Table& t, std::size_t offset, std::size_t rows, Body&& body) {
  const std::size_t cols = t.cols();
  std::vector<double> row(cols);
  pipeline<std::vector<float>>(
      rows, formats::block_rows(cols),
      [&](std::size_t first, std::size_t n, std::vector<float>& buf) {
        buf.resize(n * cols);
        t.fill_f32(offset + first, n, buf);
      },
      [&](std::size_t first, std::size_t n, const std::vector<float>& buf) {
        for (std::size_t r = 0; r < n; ++r) {
          std::copy_n(buf.data() + r * cols, cols, row.begin());
          body(first + r, std::span<const double>(row));
        }
      });
}

}  // namespace

HeatmapResult heatmap(const Table& t, const HeatmapOptions& opt) {
  const auto& shape = t.info().shape;
  const std::size_t rows = shape.size() >= 2 ? shape[shape.size() - 2] : 1, cols = t.cols();
  if (rows == 0 || cols == 0 || t.rows() == 0) throw Error("cannot draw a heatmap of an empty table");
  if ((opt.slice + 1) * rows > t.rows()) throw Error("heatmap: no such slice");
  const std::size_t offset = opt.slice * rows;
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
    for_each_row(t, offset, rows, [&](std::size_t, std::span<const double> v) { widen(lo, hi, v); });
    const Colormap cmap = choose_colors(lo, hi, opt, res);
    const Range norm{res.lo, res.hi};
    std::size_t k = std::max<std::size_t>(static_cast<std::size_t>(std::max(1, opt.min_cell)),
                                          static_cast<std::size_t>(std::max(0, opt.target_size)) / std::max(rows, cols));
    k = std::max<std::size_t>(1, std::min({k, max_w / cols, max_h / rows}));
    const int px = static_cast<int>(k);
    res.cell_px = px;
    res.image = Image(static_cast<int>(cols * k), static_cast<int>(rows * k));
    for_each_row(t, offset, rows, [&](std::size_t r, std::span<const double> v) {
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
  if (const ToeplitzTable* tt = as_toeplitz(t)) {
    detail::toeplitz_reduced(*tt, out_w, out_h, opt, res);  // from the N + M − 1 diagonals
    return res;
  }
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
  if (by_max) for_each_row(t, offset, rows, accumulate);
  else for_each_row_f32(t, offset, rows, accumulate);
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
