#pragma once
// Pieces shared by render::heatmap's cell reducer (heatmap.cpp) and its Toeplitz path
// (heatmap_toeplitz.cpp), so that both draw the same pixels.
#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

#include "posenc/render/colormap.hpp"
#include "posenc/render/heatmap.hpp"
#include "posenc/toeplitz.hpp"

namespace posenc::render::detail {

/// Where source cell i of n lands among m <= n bins: in units where a cell is m long and a bin
/// n long (all integers, so the split is exact), cell i covers [i*m, (i+1)*m).
struct Split {
  std::size_t bin;     ///< first bin
  double w0, w1;       ///< overlap with `bin` and with `bin + 1`
};

inline Split split(std::size_t i, std::size_t n, std::size_t m) {
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
inline Colormap choose_colors(double lo, double hi, const HeatmapOptions& opt, HeatmapResult& res) {
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

inline void widen(double& lo, double& hi, std::span<const double> v) {
  double l = lo, h = hi;  // in registers: lo and hi could alias v for the compiler
  for (const double x : v) {
    const bool ok = std::isfinite(x);
    l = ok && x < l ? x : l;
    h = ok && x > h ? x : h;
  }
  lo = l, hi = h;
}

/// The reduced image of a Toeplitz table's slice opt.slice (out_w × out_h pixels, as the cell
/// reducer draws it), reading its N + M − 1 diagonals instead of N·M cells. Fills res.
void toeplitz_reduced(const ToeplitzTable& t, std::size_t out_w, std::size_t out_h, const HeatmapOptions& opt,
                      HeatmapResult& res);

}  // namespace posenc::render::detail
