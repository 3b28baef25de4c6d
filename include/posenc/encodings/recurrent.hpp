#pragma once
/// The recurrent encoding p_{t+1} = f(p_t) of seed 001, with f the block rotation of
/// seed 003 §1.5: iterating it from p_0 reproduces the sinusoidal table, up to the
/// rounding error that accumulates step by step (the drift).
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "posenc/encodings/sinusoidal.hpp"
#include "posenc/matrix.hpp"
#include "posenc/table.hpp"

namespace posenc::encodings {

/// recurrent: p_0 = (sin 0, cos 0, …) = (0, 1, 0, 1, …); for each pair k with the paper's
/// w_k = base^(−2k/d), (s, c)_{t+1} = [[cos w_k, sin w_k], [−sin w_k, cos w_k]]·(s, c)_t,
/// i.e. s' = s cos w + c sin w = sin(w(t+1)), c' = c cos w − s sin w = cos(w(t+1)).
/// The rotation entries are computed once, in double precision.
///
/// Streaming: the constructor runs the recurrence over all rows once, keeping only the drift
/// and the state (s, c) at every `checkpoint_rows()`-th row; fill() restarts from the nearest
/// saved state at or before its first row. Blocks can so be filled in any order, on any
/// thread, in memory independent of N, and every value is bit-identical to one sequential run.
class RecurrentTable final : public Table {
 public:
  /// d must be even; len × dim at most kMaxRecurrentValues (throws Error otherwise).
  RecurrentTable(TableInfo info, std::int64_t len, std::int64_t dim, double base, SinusoidalLayout layout);
  void fill(std::size_t first, std::size_t count, std::span<double> out) const override;

  /// max over t, i of |p_t[i] − PE_sinusoidal[t, i]| (the sinusoidal row in the same layout).
  double max_drift() const { return max_drift_; }
  /// The first t where max_drift occurs.
  std::size_t max_drift_position() const { return max_drift_position_; }
  std::size_t checkpoint_rows() const { return every_; }

 private:
  /// Writes row `t`'s values from the state (s, c) into `row`, in the layout.
  void put(std::span<const double> s, std::span<const double> c, std::span<double> row) const;
  /// One step of the rotation on (s, c).
  void step(std::span<double> s, std::span<double> c) const;

  std::size_t pairs_;
  SinusoidalLayout layout_;
  std::vector<double> cos_w_, sin_w_;
  std::size_t every_ = 1;            ///< rows between saved states
  std::vector<double> saved_;        ///< per checkpoint: s (pairs values), then c (pairs values)
  double max_drift_ = 0.0;
  std::size_t max_drift_position_ = 0;
};

/// The whole recurrent table in memory (for tests and small tables).
struct RecurrentResult {
  Matrix table;                          ///< the iterated rows p_0 … p_{N−1}
  double max_drift = 0.0;                ///< max over t, i of |p_t[i] − PE_sinusoidal[t, i]|
  std::size_t max_drift_position = 0;    ///< first t where max_drift occurs
};
RecurrentResult recurrent_table(std::int64_t len, std::int64_t dim, double base = 10000.0,
                                SinusoidalLayout layout = SinusoidalLayout::kInterleaved);

/// Largest len × dim of recurrent: the constructor's sequential pass (about 30 ns per pair
/// of values) would otherwise run for hours before the first byte is written.
inline constexpr std::int64_t kMaxRecurrentValues = std::int64_t{1} << 34;

/// Bytes of saved states the table keeps at most (the checkpoint spacing grows to fit).
inline constexpr std::size_t kRecurrentCheckpointBytes = std::size_t{8} << 20;

}  // namespace posenc::encodings
