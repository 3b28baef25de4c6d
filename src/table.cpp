#include "posenc/table.hpp"

#include <algorithm>
#include <cassert>
#include <functional>
#include <numeric>

namespace posenc {

std::size_t Table::rows() const {
  const auto& s = info_.shape;
  if (s.empty()) return 0;
  return std::accumulate(s.begin(), s.end() - 1, std::size_t{1}, std::multiplies<>());
}

std::size_t Table::cols() const { return info_.shape.empty() ? 0 : info_.shape.back(); }

Matrix Table::to_matrix() const {
  Matrix m(rows(), cols());
  if (rows() > 0 && cols() > 0) fill(0, rows(), m.data());
  return m;
}

MatrixTable::MatrixTable(TableInfo info, Matrix m) : Table(std::move(info)), m_(std::move(m)) {
  assert(rows() == m_.rows() && cols() == m_.cols());
}

void MatrixTable::fill(std::size_t first, std::size_t count, std::span<double> out) const {
  assert(out.size() >= count * cols());
  const auto src = m_.data().subspan(first * cols(), count * cols());
  std::copy(src.begin(), src.end(), out.begin());
}

void RowFunctionTable::fill(std::size_t first, std::size_t count, std::span<double> out) const {
  const std::size_t c = cols();
  for (std::size_t r = 0; r < count; ++r) fn_->row(first + r, out.subspan(r * c, c));
}

}  // namespace posenc
