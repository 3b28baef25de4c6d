#pragma once
/// Tables whose every slice is Toeplitz: entry (i, j) of slice s is g_s(j − i). T5 buckets,
/// symmetric ALiBi biases and the similarity of a shift-invariant table (sinusoidal, RoPE's
/// q·k score) are such tables: an N×M slice is known from its N + M − 1 diagonals, so a
/// figure reduces it from those values in O(N + M) per pixel row instead of reading N·M cells
/// (render::heatmap does, issue 15 item 9).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "posenc/table.hpp"

namespace posenc {

class ToeplitzTable : public Table {
 public:
  using Table::Table;
  /// Rows and columns of one slice (the last two axes; a 1-D table is one row).
  std::size_t slice_rows() const;
  std::size_t slice_cols() const { return cols(); }
  /// Slices: the product of the axes before the last two (1 for a 2-D table).
  std::size_t slices() const;

  /// Slice s's diagonals: out[Δ − first_delta] = g_s(Δ) for Δ = first_delta …
  /// first_delta + out.size() − 1, within −(slice_rows − 1) … slice_cols − 1.
  virtual void diagonals(std::size_t slice, std::int64_t first_delta, std::span<double> out) const = 0;

  /// All N + M − 1 diagonals of slice s: element Δ + N − 1 is g_s(Δ).
  std::vector<double> all_diagonals(std::size_t slice) const;

  /// Rows from the diagonals: each block computes the diagonals its rows use once.
  void fill(std::size_t first, std::size_t count, std::span<double> out) const override;
};

/// g(slice, first_delta, out): out[k] = g_slice(first_delta + k).
using DiagonalFn = std::function<void(std::size_t slice, std::int64_t first_delta, std::span<double> out)>;

/// A Toeplitz table computing its diagonals with `g`; `info.shape` is {N, M} or {S, N, M}.
std::unique_ptr<ToeplitzTable> toeplitz_function_table(TableInfo info, DiagonalFn g);

/// The Toeplitz table behind `t` when it is one, else nullptr.
const ToeplitzTable* as_toeplitz(const Table& t);

}  // namespace posenc
