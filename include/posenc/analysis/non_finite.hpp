#pragma once
// What a run says when its output holds nan or infinite values, and when float32 rounds its
// positions: the tables are counted as they are written, so the check costs no second pass.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "posenc/formats/format.hpp"
#include "posenc/table.hpp"
#include "posenc/toeplitz.hpp"

namespace posenc::analysis {

/// Passes a table through, counting the nan and infinite values its reader sees. Both fills
/// are forwarded, so the inner table's float32 fast path stays in use; blocks are filled on
/// worker threads, hence the atomics.
class FiniteCountingTable : public Table {
 public:
  explicit FiniteCountingTable(const Table& t) : Table(t.info()), inner_(t) {}
  void fill(std::size_t first, std::size_t count, std::span<double> out) const override;
  void fill_f32(std::size_t first, std::size_t count, std::span<float> out) const override;
  std::size_t nan_count() const { return nan_.load(); }
  std::size_t inf_count() const { return inf_.load(); }
  /// Flat index (row * cols + col) of the first nan / infinite value seen; SIZE_MAX when none.
  std::size_t first_nan() const { return first_nan_.load(); }
  std::size_t first_inf() const { return first_inf_.load(); }
  /// Counts the nan and infinite values of `values`, whose first is at flat index `at`.
  void count(std::span<const double> values, std::size_t at) const;
  void count(std::span<const float> values, std::size_t at) const;

 private:
  template <class T>
  void count_values(std::span<const T> values, std::size_t at) const;
  const Table& inner_;
  mutable std::atomic<std::size_t> nan_{0}, inf_{0};
  mutable std::atomic<std::size_t> first_nan_{SIZE_MAX}, first_inf_{SIZE_MAX};
};

/// True when every value of every slice of `t`, and its float32 rounding, is finite (read
/// from the diagonals, without filling the rows).
bool toeplitz_all_finite(const ToeplitzTable& t);

/// "the output holds nan values (the cosine with a zero vector is 0/0)" when `counted` (which
/// wrapped `table` while it was written with element type `dtype`) saw nan or infinite values;
/// "" when it saw none. The causes are told apart: float32 overflow of finite doubles, an
/// --input file holding them, a scheme's masked entries, 0/0 cosines, or the computation.
std::string non_finite_note(const Table& table, const FiniteCountingTable& counted, formats::DType dtype);

/// "positions above 16777216 (2^24) are rounded in float32 (...): use --dtype float64" when
/// `table` holds integer positions past 2^24 stored as float32; "" otherwise.
std::string rounded_positions_note(const Table& table, formats::DType dtype);

}  // namespace posenc::analysis
