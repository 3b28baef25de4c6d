// render::heatmap of a ToeplitzTable (entry (i, j) = g(j − i)) draws a reduced image from the
// N + M − 1 diagonals (issue 15 item 9). Its pixels must be the ones the cell-by-cell reducer
// draws (the same table behind a plain Table), and match values computed here by hand.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "posenc/render/colormap.hpp"
#include "posenc/render/heatmap.hpp"
#include "posenc/toeplitz.hpp"

namespace {

using posenc::render::heatmap;
using posenc::render::HeatmapOptions;
using posenc::render::Reduction;

/// The same table without its Toeplitz face: render::heatmap reads it cell by cell.
class ToeplitzOpaqueTable : public posenc::Table {
 public:
  explicit ToeplitzOpaqueTable(const posenc::Table& t) : Table(t.info()), t_(t) {}
  void fill(std::size_t first, std::size_t count, std::span<double> out) const override { t_.fill(first, count, out); }
  void fill_f32(std::size_t first, std::size_t count, std::span<float> out) const override {
    t_.fill_f32(first, count, out);
  }

 private:
  const posenc::Table& t_;
};

/// A Toeplitz table of `slices` N×M slices from g(s, Δ).
std::unique_ptr<posenc::ToeplitzTable> toeplitz_test_table(std::size_t slices, std::size_t n, std::size_t m,
                                                           std::function<double(std::size_t, std::int64_t)> g) {
  posenc::TableInfo info;
  info.shape = slices == 1 ? std::vector<std::size_t>{n, m} : std::vector<std::size_t>{slices, n, m};
  return posenc::toeplitz_function_table(std::move(info), [g](std::size_t s, std::int64_t d0, std::span<double> out) {
    for (std::size_t k = 0; k < out.size(); ++k) out[k] = g(s, d0 + static_cast<std::int64_t>(k));
  });
}

/// The same Toeplitz table whose rows cannot be read: the fast path must use the diagonals only.
class ToeplitzNoRowsTable : public posenc::ToeplitzTable {
 public:
  explicit ToeplitzNoRowsTable(const posenc::ToeplitzTable& t) : ToeplitzTable(t.info()), t_(t) {}
  void diagonals(std::size_t s, std::int64_t d0, std::span<double> out) const override { t_.diagonals(s, d0, out); }
  void fill(std::size_t, std::size_t, std::span<double>) const override { throw std::logic_error("rows read"); }

 private:
  const posenc::ToeplitzTable& t_;
};

/// Number of pixels whose colours differ.
std::size_t toeplitz_pixel_diff(const posenc::render::Image& a, const posenc::render::Image& b) {
  REQUIRE(a.width() == b.width());
  REQUIRE(a.height() == b.height());
  std::size_t diff = 0;
  for (int y = 0; y < a.height(); ++y)
    for (int x = 0; x < a.width(); ++x) diff += a.at(x, y) == b.at(x, y) ? 0 : 1;
  return diff;
}

/// Cells [lo, hi] that touch pixel `bin` when n cells are drawn into m pixels: cell c covers
/// [c/n, (c+1)/n) of the axis, pixel b [b/m, (b+1)/m); touching = an overlap of positive length.
std::pair<std::size_t, std::size_t> toeplitz_touching(std::size_t bin, std::size_t n, std::size_t m) {
  std::size_t lo = n, hi = 0;
  for (std::size_t c = 0; c < n; ++c)
    if (c * m < (bin + 1) * n && (c + 1) * m > bin * n) lo = std::min(lo, c), hi = std::max(hi, c);
  return {lo, hi};
}

}  // namespace

TEST_CASE("a Toeplitz table's rows come from its diagonals, across slices", "[toeplitz]") {
  const auto t = toeplitz_test_table(3, 5, 7, [](std::size_t s, std::int64_t d) { return 1000.0 * static_cast<double>(s) + static_cast<double>(d); });
  CHECK(t->slices() == 3);
  CHECK(t->slice_rows() == 5);
  std::vector<double> out(9 * 7);
  t->fill(3, 9, out);  // rows 3, 4 of slice 0, 0..4 of slice 1, 0..1 of slice 2
  for (std::size_t r = 0; r < 9; ++r)
    for (std::size_t j = 0; j < 7; ++j) {
      const std::size_t flat = 3 + r, s = flat / 5, i = flat % 5;
      CHECK(out[r * 7 + j] == 1000.0 * static_cast<double>(s) + static_cast<double>(j) - static_cast<double>(i));
    }
  const auto g = t->all_diagonals(2);
  REQUIRE(g.size() == 11);
  CHECK(g.front() == 2000 - 4);
  CHECK(g.back() == 2000 + 6);
}

TEST_CASE("a reduced Toeplitz heatmap has the pixels of the cell-by-cell reducer", "[toeplitz][heatmap]") {
  std::mt19937 rng(7);
  std::normal_distribution<double> normal(0.0, 3.0);
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  struct Case {
    std::size_t slices, n, m;
    int reduce_to;
    bool holes;  // some NaN and ±inf diagonals
  };
  const Case cases[] = {{1, 700, 700, 512, false}, {1, 1000, 600, 512, false}, {2, 300, 1100, 256, true},
                        {3, 257, 257, 100, false}, {1, 900, 900, 97, true},   {1, 513, 2000, 512, true}};
  for (const Case& c : cases) {
    std::vector<std::vector<double>> diag(c.slices);
    for (auto& d : diag) {
      d.resize(c.n + c.m - 1);
      for (double& v : d) v = normal(rng);
      if (c.holes) {
        for (std::size_t k = 5; k < d.size(); k += 97) d[k] = nan;
        d[d.size() / 3] = -inf;
        d[d.size() / 2] = inf;
        for (std::size_t k = 0; k < 40 && k < d.size(); ++k) d[k] = nan;  // a corner of NaN only
      }
    }
    const auto t = toeplitz_test_table(c.slices, c.n, c.m, [&diag, n = c.n](std::size_t s, std::int64_t d) {
      return diag[s][static_cast<std::size_t>(d + static_cast<std::int64_t>(n) - 1)];
    });
    const ToeplitzOpaqueTable cells(*t);
    const ToeplitzNoRowsTable fast(*t);
    for (const Reduction r : {Reduction::kMax, Reduction::kMean}) {
      std::size_t masked_fast = 0, masked_cells = 0;
      const auto range_fast = posenc::render::heatmap_range(fast, c.slices, r, masked_fast);
      const auto range_cells = posenc::render::heatmap_range(cells, c.slices, r, masked_cells);
      CHECK(range_fast == range_cells);
      CHECK(masked_fast == masked_cells);
      for (const bool given_range : {false, true})
        for (std::size_t s = 0; s < c.slices; ++s) {
          INFO("slices " << c.slices << ", " << c.n << "x" << c.m << " -> " << c.reduce_to << ", slice " << s
                         << (r == Reduction::kMax ? ", max" : ", mean") << (given_range ? ", given range" : ""));
          HeatmapOptions o;
          o.reduce_to = c.reduce_to, o.reduction = r;
          if (given_range) o.range_lo = -4, o.range_hi = 5, o.cmap = "magma";
          o.slice = s;
          const auto a = heatmap(fast, o);
          const auto b = heatmap(cells, o);
          REQUIRE(a.reduced);
          CHECK(a.lo == b.lo);
          CHECK(a.hi == b.hi);
          CHECK(a.cmap == b.cmap);
          CHECK(toeplitz_pixel_diff(a.image, b.image) == 0);
        }
    }
  }
}

TEST_CASE("symmetric ALiBi reduced by max shows the bias nearest zero of each pixel", "[toeplitz][heatmap]") {
  // 8 heads: slopes 1/2 … 1/256 (the paper). Pixel (x, y) touches rows [r0, r1] and columns
  // [c0, c1]; the largest -m|i - j| there is 0 if the runs overlap, else -m times the gap.
  constexpr std::size_t kN = 1000, kOut = 512;
  const auto t = toeplitz_test_table(8, kN, kN, [](std::size_t h, std::int64_t d) {
    return -std::ldexp(1.0, -static_cast<int>(h + 1)) * static_cast<double>(d < 0 ? -d : d);
  });
  const ToeplitzNoRowsTable fast(*t);
  for (const std::size_t h : {std::size_t{0}, std::size_t{7}}) {
    const double m = std::ldexp(1.0, -static_cast<int>(h + 1));
    HeatmapOptions o;
    o.cmap = "viridis", o.reduction = Reduction::kMax, o.slice = h;  // viridis: the range is the data's
    const auto img = heatmap(fast, o);
    REQUIRE(img.image.width() == 512);
    CHECK(img.lo == -m * (kN - 1));
    CHECK(img.hi == 0);
    const posenc::render::Colormap cmap(img.cmap);
    std::size_t wrong = 0;
    for (std::size_t y = 0; y < kOut; ++y) {
      const auto [r0, r1] = toeplitz_touching(y, kN, kOut);
      for (std::size_t x = 0; x < kOut; ++x) {
        const auto [c0, c1] = toeplitz_touching(x, kN, kOut);
        const double gap = c1 < r0 ? static_cast<double>(r0 - c1) : r1 < c0 ? static_cast<double>(c0 - r1) : 0.0;
        const double want = -m * gap;
        wrong += img.image.at(static_cast<int>(x), static_cast<int>(y)) == cmap((want - img.lo) / (img.hi - img.lo)) ? 0 : 1;
      }
    }
    CHECK(wrong == 0);
  }
}

TEST_CASE("a sinusoidal cosine similarity reduced by mean matches the area-weighted mean of cos(w(j - i))",
          "[toeplitz][heatmap]") {
  // cos similarity of the paper's table (d = 8, base 10000): (1/4) Σ_k cos(ω_k Δ), ω_k = 10000^(-2k/8).
  constexpr std::size_t kN = 700, kOut = 512;
  std::vector<double> by_offset(2 * kN - 1);
  for (std::size_t k = 0; k < by_offset.size(); ++k) {
    long double s = 0;
    for (int p = 0; p < 4; ++p)
      s += std::cos(std::pow(10000.0L, -2.0L * p / 8.0L) * (static_cast<long double>(k) - (kN - 1)));
    by_offset[k] = static_cast<double>(s / 4);
  }
  const auto sim = [&](std::int64_t d) { return by_offset[static_cast<std::size_t>(d + static_cast<std::int64_t>(kN) - 1)]; };
  const auto t = toeplitz_test_table(1, kN, kN, [&](std::size_t, std::int64_t d) { return sim(d); });
  const auto img = heatmap(ToeplitzNoRowsTable(*t));
  REQUIRE(img.image.width() == kOut);
  const posenc::render::Colormap cmap(img.cmap);
  // Weight of cell c in pixel b: the overlap of [c·out, (c+1)·out) and [b·N, (b+1)·N).
  const auto overlap = [](std::size_t c, std::size_t b) {
    const auto lo = std::max(c * kOut, b * kN), hi = std::min((c + 1) * kOut, (b + 1) * kN);
    return hi > lo ? static_cast<long double>(hi - lo) : 0.0L;
  };
  std::size_t wrong = 0, near_edge = 0;
  for (std::size_t y = 0; y < kOut; ++y) {
    const auto [r0, r1] = toeplitz_touching(y, kN, kOut);
    for (std::size_t x = 0; x < kOut; ++x) {
      const auto [c0, c1] = toeplitz_touching(x, kN, kOut);
      long double s = 0, w = 0;
      for (std::size_t i = r0; i <= r1; ++i)
        for (std::size_t j = c0; j <= c1; ++j) {
          const long double wij = overlap(i, y) * overlap(j, x);
          s += wij * sim(static_cast<std::int64_t>(j) - static_cast<std::int64_t>(i)), w += wij;
        }
      // The figure averages float32 cells (within 6e-8): a colour index within 1e-4 of a
      // step of the 256 may fall on either side of it.
      const double at = static_cast<double>((s / w - img.lo) / (img.hi - img.lo)) * 256.0;
      const auto got = img.image.at(static_cast<int>(x), static_cast<int>(y));
      const bool edge = std::abs(at - std::round(at)) < 1e-4;
      near_edge += edge ? 1 : 0;
      const bool ok = got == cmap(at / 256.0) || (edge && (got == cmap((at - 0.5) / 256.0) || got == cmap((at + 0.5) / 256.0)));
      wrong += ok ? 0 : 1;
    }
  }
  CHECK(wrong == 0);
  CHECK(near_edge < kOut * kOut / 1000);
}
