// render::heatmap of a reduced ToeplitzTable (entry (i, j) = g(j − i)) from its N + M − 1
// diagonals. A pixel touches a rectangle of cells, rows [r0, r1] × columns [c0, c1], whose
// offsets j − i are exactly c0 − r1 … c1 − r0; so
// - by max: the largest finite g over that run of offsets (a sparse table of maxima);
// - by mean: the rectangle splits into at most 3 × 3 blocks of equal weight (whole cells,
//   and the cells a pixel edge cuts), and the sum over a block of g(c − i) is a difference of
//   second-order prefix sums of g (extended precision): O(1) per pixel after O(N + M).
// Both follow heatmap.cpp's rules (NaN cells left out, ±inf cells make the pixel grey under
// the mean, float32 values under the mean), so the pixels are the ones it draws.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "heatmap_internal.hpp"

namespace posenc::render::detail {
namespace {

/// Cells [lo, hi] (inclusive) touched by each bin, and the weighted cells of each bin.
struct Bins {
  std::vector<std::size_t> lo, hi;
  /// bin b: cells [full0[b], full1[b]) with weight m, plus up to two partial cells.
  std::vector<std::size_t> full0, full1;
  struct Part {
    std::size_t cell;
    double w;
  };
  std::vector<std::vector<Part>> parts;
};

/// How n cells fall into m bins, as split() assigns them.
Bins bins_of(std::size_t n, std::size_t m) {
  Bins b;
  const std::size_t none = std::numeric_limits<std::size_t>::max();
  b.lo.assign(m, none), b.hi.assign(m, 0);
  b.full0.assign(m, none), b.full1.assign(m, 0);
  b.parts.resize(m);
  const auto touch = [&](std::size_t bin, std::size_t c) {
    b.lo[bin] = std::min(b.lo[bin], c);
    b.hi[bin] = std::max(b.hi[bin], c);
  };
  const auto full_weight = static_cast<double>(m);
  for (std::size_t c = 0; c < n; ++c) {
    const Split s = split(c, n, m);
    touch(s.bin, c);
    if (s.w0 == full_weight) {
      b.full0[s.bin] = std::min(b.full0[s.bin], c);
      b.full1[s.bin] = c + 1;
    } else {
      b.parts[s.bin].push_back({c, s.w0});
    }
    if (s.w1 > 0 && s.bin + 1 < m) {
      touch(s.bin + 1, c);
      b.parts[s.bin + 1].push_back({c, s.w1});
    }
  }
  for (std::size_t i = 0; i < m; ++i)
    if (b.full0[i] == none) b.full0[i] = b.full1[i] = 0;
  return b;
}

/// Maxima of every run of a sequence in O(1) after O(L log L) set-up; −inf stands for
/// "no finite value".
class RunMax {
 public:
  explicit RunMax(std::vector<double> v) {
    levels_.push_back(std::move(v));
    for (std::size_t w = 1; 2 * w <= levels_[0].size(); w *= 2) {
      const auto& prev = levels_.back();
      std::vector<double> next(prev.size() - w);
      for (std::size_t i = 0; i < next.size(); ++i) next[i] = std::max(prev[i], prev[i + w]);
      levels_.push_back(std::move(next));
    }
  }
  /// max of v[a..b], a <= b.
  double operator()(std::size_t a, std::size_t b) const {
    const auto k = static_cast<std::size_t>(std::bit_width(b - a + 1) - 1);
    return std::max(levels_[k][a], levels_[k][b + 1 - (std::size_t{1} << k)]);
  }

 private:
  std::vector<std::vector<double>> levels_;
};

}  // namespace

void toeplitz_reduced(const ToeplitzTable& t, std::size_t out_w, std::size_t out_h, const HeatmapOptions& opt,
                      HeatmapResult& res) {
  const std::size_t n = t.slice_rows(), m = t.slice_cols();
  const bool by_max = opt.reduction == Reduction::kMax;
  std::vector<double> g = t.all_diagonals(opt.slice);  // g[Δ + n − 1]
  // The mean reads float32 values (Table::fill_f32 of a Toeplitz table rounds fill's values).
  if (!by_max)
    for (double& v : g) v = static_cast<double>(to_f32(v));
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  if (!(std::isfinite(opt.range_lo) && std::isfinite(opt.range_hi))) widen(lo, hi, g);  // every Δ occurs
  const Colormap cmap = choose_colors(lo, hi, opt, res);
  const Range norm{res.lo, res.hi};
  const Bins rows = bins_of(n, out_h), cols = bins_of(m, out_w);
  // Prefix counts over the offsets: cells that are not NaN, and cells that are ±inf.
  const std::size_t len = g.size();
  std::vector<std::size_t> kept(len + 1, 0), infinite(len + 1, 0);
  for (std::size_t k = 0; k < len; ++k) {
    kept[k + 1] = kept[k] + (std::isnan(g[k]) ? 0 : 1);
    infinite[k + 1] = infinite[k] + (std::isinf(g[k]) ? 1 : 0);
  }
  // Offset index of cell (i, j) is j − i + n − 1.
  const auto at = [n](std::size_t i, std::size_t j) { return j + n - 1 - i; };
  res.image = Image(static_cast<int>(out_w), static_cast<int>(out_h));
  const double grey = std::numeric_limits<double>::quiet_NaN();
  if (by_max) {
    std::vector<double> finite(g);
    for (double& v : finite) v = std::isfinite(v) ? v : -std::numeric_limits<double>::infinity();
    std::vector<std::size_t> finite_count(len + 1, 0);
    for (std::size_t k = 0; k < len; ++k) finite_count[k + 1] = finite_count[k] + (std::isfinite(g[k]) ? 1 : 0);
    const RunMax run_max(std::move(finite));
    for (std::size_t y = 0; y < out_h; ++y)
      for (std::size_t x = 0; x < out_w; ++x) {
        const std::size_t a = at(rows.hi[y], cols.lo[x]), b = at(rows.lo[y], cols.hi[x]);
        const double v = finite_count[b + 1] == finite_count[a] ? grey : run_max(a, b);
        res.image.set(static_cast<int>(x), static_cast<int>(y), cmap(norm(v)));
      }
    return;
  }
  // Second-order prefix sums over the offsets (extended precision): p[k] = Σ_{t<k} g[t] of
  // the finite values, q[k] = Σ_{t<k} p[t]; likewise the counts of kept (not NaN) cells.
  std::vector<long double> p(len + 1, 0.0L), q(len + 2, 0.0L);
  std::vector<std::uint64_t> kk(len + 2, 0);
  for (std::size_t k = 0; k < len; ++k) p[k + 1] = p[k] + (std::isfinite(g[k]) ? static_cast<long double>(g[k]) : 0.0L);
  for (std::size_t k = 0; k <= len; ++k) q[k + 1] = q[k] + p[k], kk[k + 1] = kk[k] + kept[k];
  // Σ over rows [i0, i1) and columns [c0, c1) of g(c − i): row i adds p[c1 + n − 1 − i] −
  // p[c0 + n − 1 − i], and those run over consecutive k, so the rows sum to differences of q.
  struct Sums {
    long double sum;
    double weight;
  };
  const auto rect = [&](std::size_t i0, std::size_t i1, std::size_t c0, std::size_t c1) -> Sums {
    const auto run = [&](const auto& second, std::size_t c) {  // Σ_{i∈[i0,i1)} first[c + n − 1 − i]
      return second[c + n - i0] - second[c + n - i1];
    };
    return {run(q, c1) - run(q, c0), static_cast<double>(run(kk, c1) - run(kk, c0))};
  };
  // A bin's pieces: its whole cells [full0, full1) at full weight, and its partial cells.
  struct Piece {
    std::size_t first, last;  // [first, last)
    double w;
  };
  const auto pieces = [](const Bins& b, std::size_t bin, double full) {
    std::vector<Piece> out;
    if (b.full1[bin] > b.full0[bin]) out.push_back({b.full0[bin], b.full1[bin], full});
    for (const auto& part : b.parts[bin]) out.push_back({part.cell, part.cell + 1, part.w});
    return out;
  };
  std::vector<std::vector<Piece>> col_pieces(out_w);
  for (std::size_t x = 0; x < out_w; ++x) col_pieces[x] = pieces(cols, x, static_cast<double>(out_w));
  for (std::size_t y = 0; y < out_h; ++y) {
    const auto row_pieces = pieces(rows, y, static_cast<double>(out_h));
    for (std::size_t x = 0; x < out_w; ++x) {
      long double s = 0.0L;
      double w = 0.0;
      for (const Piece& r : row_pieces)
        for (const Piece& c : col_pieces[x]) {
          const Sums part = rect(r.first, r.last, c.first, c.last);
          s += part.sum * static_cast<long double>(r.w * c.w);
          w += part.weight * r.w * c.w;
        }
      // Cells the pixel touches: ±inf among them (sums of ±inf) or none kept (all NaN): grey.
      const std::size_t a = at(rows.hi[y], cols.lo[x]), b = at(rows.lo[y], cols.hi[x]) + 1;
      const bool grey_pixel = infinite[b] > infinite[a] || kept[b] == kept[a];
      const double v = grey_pixel ? grey : static_cast<double>(s / static_cast<long double>(w));
      res.image.set(static_cast<int>(x), static_cast<int>(y), cmap(norm(v)));
    }
  }
}

}  // namespace posenc::render::detail
