#include "posenc/render/heatmap.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "posenc/error.hpp"
#include "posenc/io/writers.hpp"
#include "posenc/render/colormap.hpp"

namespace posenc::render {

namespace {

/// Calls body(row, values) for rows [0, rows) of `t`, filled in blocks.
template <class Body>
void for_each_row(const Table& t, std::size_t rows, Body&& body) {
  const std::size_t cols = t.cols(), step = io::block_rows(cols);
  std::vector<double> buf(std::min(step, rows) * cols);
  for (std::size_t first = 0; first < rows; first += step) {
    const std::size_t n = std::min(step, rows - first);
    t.fill(first, n, std::span<double>(buf.data(), n * cols));
    for (std::size_t r = 0; r < n; ++r) body(first + r, std::span<const double>(buf.data() + r * cols, cols));
  }
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

}  // namespace

HeatmapResult heatmap(const Table& t, const HeatmapOptions& opt) {
  const auto& shape = t.info().shape;
  const std::size_t rows = shape.size() >= 2 ? shape[shape.size() - 2] : 1, cols = t.cols();
  if (rows == 0 || cols == 0 || t.rows() == 0) throw Error("cannot draw a heatmap of an empty table");

  // Pass 1: the range of the finite values.
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for_each_row(t, rows, [&](std::size_t, std::span<const double> v) {
    for (const double x : v) {
      if (!std::isfinite(x)) continue;
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
  });
  if (lo > hi) lo = hi = 0;  // no finite value
  if (std::isfinite(opt.range_lo) && std::isfinite(opt.range_hi)) lo = opt.range_lo, hi = opt.range_hi;
  HeatmapResult res;
  res.cmap = opt.cmap.empty() ? (lo < 0 ? "RdBu" : "viridis") : opt.cmap;
  const Colormap cmap(res.cmap);
  res.cmap = cmap.info().name;
  if (cmap.info().diverging && lo < 0) {
    hi = std::max(std::abs(lo), std::abs(hi));
    lo = -hi;
  }
  res.lo = lo;
  res.hi = hi;
  res.rows = rows;
  res.cols = cols;
  const Range norm{lo, hi};

  // Pass 2: the colours.
  const std::size_t max_w = static_cast<std::size_t>(std::max(1, opt.max_width));
  const std::size_t max_h = static_cast<std::size_t>(std::max(1, opt.max_height));
  if (cols <= max_w && rows <= max_h) {
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

  const std::size_t out_w = std::min(cols, max_w), out_h = std::min(rows, max_h);
  res.reduced = true;
  res.image = Image(static_cast<int>(out_w), static_cast<int>(out_h));
  std::vector<Split> col_split(cols);
  for (std::size_t c = 0; c < cols; ++c) col_split[c] = split(c, cols, out_w);
  // Weighted sums and weights of two output rows (y % 2): a source row touches at most two.
  std::vector<double> sum(2 * out_w, 0.0), weight(2 * out_w, 0.0);
  std::size_t done = 0;  // output rows already drawn
  const auto finish = [&](std::size_t y) {
    double* s = sum.data() + (y % 2) * out_w;
    double* w = weight.data() + (y % 2) * out_w;
    for (std::size_t x = 0; x < out_w; ++x) {
      const double mean = w[x] > 0 ? s[x] / w[x] : std::numeric_limits<double>::quiet_NaN();
      res.image.set(static_cast<int>(x), static_cast<int>(y), cmap(norm(mean)));
      s[x] = w[x] = 0;
    }
  };
  const auto add = [&](std::size_t y, double wy, std::span<const double> v) {
    if (wy == 0 || y >= out_h) return;
    double* s = sum.data() + (y % 2) * out_w;
    double* w = weight.data() + (y % 2) * out_w;
    for (std::size_t c = 0; c < cols; ++c) {
      if (std::isnan(v[c])) continue;
      const Split& cs = col_split[c];
      s[cs.bin] += v[c] * wy * cs.w0;
      w[cs.bin] += wy * cs.w0;
      if (cs.w1 > 0) {
        s[cs.bin + 1] += v[c] * wy * cs.w1;
        w[cs.bin + 1] += wy * cs.w1;
      }
    }
  };
  for_each_row(t, rows, [&](std::size_t r, std::span<const double> v) {
    const Split rs = split(r, rows, out_h);
    while (done < rs.bin) finish(done++);  // complete before its slot is reused for rs.bin + 1
    add(rs.bin, rs.w0, v);
    add(rs.bin + 1, rs.w1, v);
  });
  while (done < out_h) finish(done++);
  return res;
}

}  // namespace posenc::render
