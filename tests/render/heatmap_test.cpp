#include "posenc/render/heatmap.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "posenc/error.hpp"
#include "posenc/render/colormap.hpp"
#include "rgb_string.hpp"

using posenc::Matrix;
using posenc::MatrixTable;
using posenc::TableInfo;
using posenc::render::colormap;
using posenc::render::heatmap;
using posenc::render::HeatmapOptions;
using posenc::render::Rgb;

namespace {

MatrixTable table(std::size_t rows, std::size_t cols, std::initializer_list<double> values) {
  TableInfo info;
  info.shape = {rows, cols};
  Matrix m(rows, cols);
  std::copy(values.begin(), values.end(), m.data().begin());
  return MatrixTable(info, std::move(m));
}

/// Every pixel of the k×k block of cell (r, c) has colour `want`.
bool uniform_block(const posenc::render::Image& img, int k, int r, int c, Rgb want) {
  for (int y = r * k; y < (r + 1) * k; ++y) {
    for (int x = c * k; x < (c + 1) * k; ++x) {
      if (!(img.at(x, y) == want)) return false;
    }
  }
  return true;
}

}  // namespace

TEST_CASE("a 2x2 table is scaled up to four uniform blocks", "[heatmap]") {
  const auto t = table(2, 2, {0, 1, 2, 3});
  const auto h = heatmap(t);
  CHECK(h.cmap == "viridis");
  CHECK(h.lo == 0);
  CHECK(h.hi == 3);
  CHECK(!h.reduced);
  REQUIRE(h.cell_px == 320);  // 640 / 2
  REQUIRE(h.image.width() == 640);
  REQUIRE(h.image.height() == 640);
  CHECK(uniform_block(h.image, 320, 0, 0, colormap("viridis", 0)));       // #440154, top left
  CHECK(uniform_block(h.image, 320, 0, 1, colormap("viridis", 1.0 / 3)));  // top right
  CHECK(uniform_block(h.image, 320, 1, 0, colormap("viridis", 2.0 / 3)));
  CHECK(uniform_block(h.image, 320, 1, 1, colormap("viridis", 1)));       // #fde725
  CHECK(h.image.at(0, 0) == Rgb{0x44, 0x01, 0x54});
}

TEST_CASE("signed data is drawn with RdBu centred on zero", "[heatmap]") {
  const auto t = table(2, 2, {-0.5, 2, 0, 1});
  const auto h = heatmap(t, {.cmap = "", .target_size = 2});
  CHECK(h.cmap == "RdBu");
  CHECK(h.lo == -2);
  CHECK(h.hi == 2);
  REQUIRE(h.cell_px == 1);
  CHECK(h.image.at(1, 0) == colormap("RdBu", 1));     // 2 = max: dark blue
  CHECK(h.image.at(0, 1) == colormap("RdBu", 0.5));   // 0: centre
  CHECK(h.image.at(0, 0) == colormap("RdBu", 0.375));  // -0.5
  // an explicit sequential colormap spans [min, max]
  const auto g = heatmap(t, {.cmap = "gray"});
  CHECK(g.lo == -0.5);
  CHECK(g.hi == 2);
}

TEST_CASE("the seeds' 50x128 table gets 5-pixel square cells", "[heatmap]") {
  TableInfo info;
  info.shape = {50, 128};
  const posenc::RowFunctionTable t(info, [](std::size_t r, std::span<double> out) {
    for (std::size_t c = 0; c < out.size(); ++c) out[c] = std::sin(static_cast<double>(r * c));
  });
  const auto h = heatmap(t);
  CHECK(h.cell_px == 5);
  CHECK(h.image.width() == 640);
  CHECK(h.image.height() == 250);
  CHECK(h.rows == 50);
  CHECK(h.cols == 128);
  // min_cell wins over the target, the maximum size over both
  CHECK(heatmap(t, {.cmap = "", .min_cell = 8}).cell_px == 8);
  CHECK(heatmap(t, {.cmap = "", .max_width = 300, .min_cell = 8}).cell_px == 2);
}

TEST_CASE("area reduction averages the cells each pixel covers", "[heatmap]") {
  TableInfo info;
  info.shape = {4, 4};
  Matrix m(4, 4);
  for (std::size_t i = 0; i < 16; ++i) m.data()[i] = static_cast<double>(i);
  const MatrixTable sixteen(info, m);
  const auto h = heatmap(sixteen, {.cmap = "", .max_width = 2, .max_height = 2});
  CHECK(h.reduced);
  CHECK(h.cell_px == 0);
  REQUIRE(h.image.width() == 2);
  REQUIRE(h.image.height() == 2);
  CHECK(h.image.at(0, 0) == colormap("viridis", 2.5 / 15));   // mean of 0, 1, 4, 5
  CHECK(h.image.at(1, 1) == colormap("viridis", 12.5 / 15));  // mean of 10, 11, 14, 15
  CHECK(h.image.at(1, 0) == colormap("viridis", 4.5 / 15));   // mean of 2, 3, 6, 7
}

TEST_CASE("a cell straddling two pixels is split by area; NaN is left out", "[heatmap]") {
  // 3 columns into 2 pixels: the middle cell is half in each
  const auto t = table(1, 3, {0, 3, 6});
  const auto h = heatmap(t, {.cmap = "", .max_width = 2, .max_height = 10});
  REQUIRE(h.image.width() == 2);
  REQUIRE(h.image.height() == 1);
  CHECK(h.image.at(0, 0) == colormap("viridis", 1.0 / 6));  // (0*2 + 3*1) / 3
  CHECK(h.image.at(1, 0) == colormap("viridis", 5.0 / 6));  // (3*1 + 6*2) / 3
  const auto n = table(1, 4, {NAN, NAN, 1, 2});
  const auto hn = heatmap(n, {.cmap = "", .max_width = 2});
  CHECK(hn.image.at(0, 0) == Rgb{128, 128, 128});
  CHECK(hn.image.at(1, 0) == colormap("viridis", 0.5));
}

TEST_CASE("max reduction keeps the largest cell each pixel touches; -inf and NaN are left out", "[heatmap]") {
  using posenc::render::Reduction;
  TableInfo info;
  info.shape = {4, 4};
  Matrix m(4, 4);
  for (std::size_t i = 0; i < 16; ++i) m.data()[i] = static_cast<double>(i);
  const MatrixTable sixteen(info, m);
  const auto h = heatmap(sixteen, {.cmap = "", .max_width = 2, .max_height = 2, .reduction = Reduction::kMax});
  CHECK(h.reduced);
  REQUIRE(h.image.width() == 2);
  REQUIRE(h.image.height() == 2);
  CHECK(h.image.at(0, 0) == colormap("viridis", 5.0 / 15));   // max of 0, 1, 4, 5
  CHECK(h.image.at(1, 0) == colormap("viridis", 7.0 / 15));   // max of 2, 3, 6, 7
  CHECK(h.image.at(0, 1) == colormap("viridis", 13.0 / 15));  // max of 8, 9, 12, 13
  CHECK(h.image.at(1, 1) == colormap("viridis", 1.0));        // max of 10, 11, 14, 15
  // 3 columns into 2 pixels: the middle cell touches both; a causal mask's -inf is left out
  const auto t = table(1, 3, {0, 3, -INFINITY});
  const auto ht = heatmap(t, {.cmap = "", .max_width = 2, .max_height = 10, .reduction = Reduction::kMax});
  REQUIRE(ht.image.width() == 2);
  CHECK(ht.image.at(0, 0) == colormap("viridis", 1.0));  // max(0, 3) over range [0, 3]
  CHECK(ht.image.at(1, 0) == colormap("viridis", 1.0));  // max(3, -inf)
  const auto masked = table(1, 4, {-INFINITY, NAN, 1, 2});
  const auto hm = heatmap(masked, {.cmap = "", .max_width = 2, .reduction = Reduction::kMax});
  CHECK(hm.image.at(0, 0) == Rgb{128, 128, 128});  // only masked cells: grey
  CHECK(hm.image.at(1, 0) == colormap("viridis", 1.0));
}

TEST_CASE("a square matrix stays square when it is reduced into a narrow panel", "[heatmap]") {
  TableInfo info;
  info.shape = {1000, 1000};
  const posenc::RowFunctionTable t(info, [](std::size_t r, std::span<double> out) {
    std::fill(out.begin(), out.end(), static_cast<double>(r));
  });
  const auto h = heatmap(t, {.cmap = "", .max_width = 250, .max_height = 800});
  CHECK(h.reduced);
  CHECK(h.image.width() == 250);
  CHECK(h.image.height() == 250);
}

TEST_CASE("a long table is reduced along its long axis only, streaming", "[heatmap]") {
  TableInfo info;
  info.shape = {4000, 100};
  const posenc::RowFunctionTable t(info, [](std::size_t r, std::span<double> out) {
    std::fill(out.begin(), out.end(), static_cast<double>(r));
  });
  const auto h = heatmap(t, {.cmap = "", .max_width = 1600, .max_height = 1600, .reduce_to = 1600});
  CHECK(h.reduced);
  REQUIRE(h.image.width() == 100);
  REQUIRE(h.image.height() == 1600);
  // pixel row 0 covers rows 0, 1 and half of row 2: (0 + 1 + 0.5 * 2) / 2.5
  CHECK(h.image.at(50, 0) == colormap("viridis", 0.8 / 3999));
  CHECK(h.image.at(0, 1599) == colormap("viridis", 1));
}

TEST_CASE("3-D tables show their first slice", "[heatmap]") {
  TableInfo info;
  info.shape = {2, 2, 2};
  Matrix m(4, 2, 100.0);
  m(0, 0) = 0;
  m(0, 1) = 1;
  m(1, 0) = 2;
  m(1, 1) = 3;
  const MatrixTable t(info, m);
  const auto h = heatmap(t);
  CHECK(h.hi == 3);
  CHECK(h.rows == 2);
  CHECK(h.image.at(h.image.width() - 1, h.image.height() - 1) == colormap("viridis", 1));
}

TEST_CASE("heatmap errors", "[heatmap]") {
  TableInfo info;
  info.shape = {0, 4};
  const MatrixTable empty(info, Matrix(0, 4));
  CHECK_THROWS_WITH(heatmap(empty), "cannot draw a heatmap of an empty table");
  CHECK_THROWS_AS(heatmap(table(1, 1, {1}), {.cmap = "jet"}), posenc::Error);
  // a constant table maps to the middle of the colormap
  CHECK(heatmap(table(1, 1, {7})).image.at(0, 0) == colormap("viridis", 0.5));
}

TEST_CASE("by default a large table is reduced to at most 512 x 512, about matplotlib's figure", "[heatmap]") {
  TableInfo info;
  info.shape = {16384, 1024};
  const posenc::RowFunctionTable t(info, [](std::size_t r, std::span<double> out) {
    std::fill(out.begin(), out.end(), static_cast<double>(r % 7));
  });
  const auto h = heatmap(t);
  CHECK(h.reduced);
  CHECK(h.image.width() == 512);
  CHECK(h.image.height() == 512);
}
