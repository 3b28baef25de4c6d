#include "posenc/table.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <functional>
#include <numeric>

namespace posenc {

std::size_t Table::rows() const {
  const auto& s = info_.shape;
  if (s.empty()) return 0;
  return std::accumulate(s.begin(), s.end() - 1, std::size_t{1}, std::multiplies<>());
}

std::size_t Table::cols() const { return info_.shape.empty() ? 0 : info_.shape.back(); }

float to_f32(double v) {
  if (std::isfinite(v) && std::abs(v) >= 0x1p128) return v > 0 ? INFINITY : -INFINITY;
  return static_cast<float>(v);
}

void Table::fill_f32(std::size_t first, std::size_t count, std::span<float> out) const {
  // In slices, so the double scratch stays small whatever `count` is.
  const std::size_t c = std::max<std::size_t>(1, cols());
  const std::size_t step = std::max<std::size_t>(1, 16384 / c);
  std::vector<double> buf(std::min(step, count) * cols());
  for (std::size_t done = 0; done < count; done += step) {
    const std::size_t n = std::min(step, count - done);
    const std::span<double> block(buf.data(), n * cols());
    fill(first + done, n, block);
    std::transform(block.begin(), block.end(), out.begin() + static_cast<std::ptrdiff_t>(done * cols()), to_f32);
  }
}

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

void RowFunctionTable::fill_f32(std::size_t first, std::size_t count, std::span<float> out) const {
  if (!fn32_) return Table::fill_f32(first, count, out);
  const std::size_t c = cols();
  for (std::size_t r = 0; r < count; ++r) fn32_->row(first + r, out.subspan(r * c, c));
}

}  // namespace posenc
