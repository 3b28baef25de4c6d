#include "posenc/toeplitz.hpp"

#include <algorithm>
#include <cassert>

namespace posenc {
namespace {

class FunctionToeplitzTable : public ToeplitzTable {
 public:
  FunctionToeplitzTable(TableInfo info, DiagonalFn g) : ToeplitzTable(std::move(info)), g_(std::move(g)) {}
  void diagonals(std::size_t slice, std::int64_t first_delta, std::span<double> out) const override {
    g_(slice, first_delta, out);
  }

 private:
  DiagonalFn g_;
};

}  // namespace

std::size_t ToeplitzTable::slice_rows() const {
  const auto& shape = info().shape;
  return shape.size() >= 2 ? shape[shape.size() - 2] : 1;
}

std::size_t ToeplitzTable::slices() const {
  const std::size_t n = slice_rows();
  return n == 0 ? 0 : rows() / n;
}

std::vector<double> ToeplitzTable::all_diagonals(std::size_t slice) const {
  const std::size_t n = slice_rows(), m = slice_cols();
  std::vector<double> g(n + m - 1);
  diagonals(slice, -static_cast<std::int64_t>(n) + 1, g);
  return g;
}

void ToeplitzTable::fill(std::size_t first, std::size_t count, std::span<double> out) const {
  const std::size_t n = slice_rows(), m = slice_cols();
  std::vector<double> g;
  for (std::size_t r = 0; r < count;) {
    // The rows of this call within one slice: i = i0 … i1 − 1 use Δ = −(i1 − 1) … m − 1 − i0.
    const std::size_t slice = (first + r) / n, i0 = (first + r) % n;
    const std::size_t i1 = std::min(n, i0 + (count - r));
    const auto lo = -static_cast<std::int64_t>(i1 - 1);
    g.resize(m + (i1 - i0) - 1);
    diagonals(slice, lo, g);
    for (std::size_t i = i0; i < i1; ++i, ++r) {
      // (i, j) has Δ = j − i, at g[j − i − lo] = g[j + (i1 − 1 − i)].
      std::copy_n(g.begin() + static_cast<std::ptrdiff_t>(i1 - 1 - i), m, out.begin() + static_cast<std::ptrdiff_t>(r * m));
    }
  }
}

std::unique_ptr<ToeplitzTable> toeplitz_function_table(TableInfo info, DiagonalFn g) {
  assert(info.shape.size() == 2 || info.shape.size() == 3);
  return std::make_unique<FunctionToeplitzTable>(std::move(info), std::move(g));
}

const ToeplitzTable* as_toeplitz(const Table& t) { return dynamic_cast<const ToeplitzTable*>(&t); }

}  // namespace posenc
