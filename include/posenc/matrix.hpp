#pragma once
/// A dense row-major matrix of doubles.
#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "posenc/memory.hpp"

namespace posenc {

class Matrix {
 public:
  Matrix() = default;
  /// A rows×cols matrix filled with `value`; throws Error (before allocating) when it would
  /// exceed memory_limit().
  Matrix(std::size_t rows, std::size_t cols, double value = 0.0)
      : rows_(rows), cols_(cols), data_((check_matrix_memory(rows, cols), rows * cols), value) {}

  /// A rows×cols matrix taking over `data` (row-major, data.size() == rows * cols).
  Matrix(std::size_t rows, std::size_t cols, std::vector<double>&& data)
      : rows_(rows), cols_(cols), data_(std::move(data)) {
    data_.resize(rows * cols);  // no shrink_to_fit: that would copy
  }

  std::size_t rows() const { return rows_; }
  std::size_t cols() const { return cols_; }
  double& operator()(std::size_t r, std::size_t c) { return data_[r * cols_ + c]; }
  double operator()(std::size_t r, std::size_t c) const { return data_[r * cols_ + c]; }
  std::span<double> row(std::size_t r) { return {data_.data() + r * cols_, cols_}; }
  std::span<const double> row(std::size_t r) const { return {data_.data() + r * cols_, cols_}; }
  std::span<double> data() { return data_; }
  std::span<const double> data() const { return data_; }

 private:
  std::size_t rows_ = 0;
  std::size_t cols_ = 0;
  std::vector<double> data_;
};

}  // namespace posenc
