#pragma once
/// The recurrent encoding p_{t+1} = f(p_t) of seed 001, with f the block rotation of
/// seed 003 §1.5: iterating it from p_0 reproduces the sinusoidal table, up to the
/// rounding error that accumulates step by step (the drift).
#include <cstddef>
#include <cstdint>

#include "posenc/encodings/sinusoidal.hpp"
#include "posenc/matrix.hpp"

namespace posenc::encodings {

struct RecurrentResult {
  Matrix table;                          ///< the iterated rows p_0 … p_{N−1}
  double max_drift = 0.0;                ///< max over t, i of |p_t[i] − PE_sinusoidal[t, i]|
  std::size_t max_drift_position = 0;    ///< first t where max_drift occurs
};

/// recurrent: p_0 = (sin 0, cos 0, …) = (0, 1, 0, 1, …); for each pair k with the paper's
/// w_k = base^(−2k/d), (s, c)_{t+1} = [[cos w_k, sin w_k], [−sin w_k, cos w_k]]·(s, c)_t,
/// i.e. s' = s cos w + c sin w = sin(w(t+1)), c' = c cos w − s sin w = cos(w(t+1)).
/// The rotation entries are computed once, in double precision. The drift compares each row
/// with sinusoidal_row(t) in the same layout. d must be even (throws Error otherwise).
RecurrentResult recurrent_table(std::int64_t len, std::int64_t dim, double base = 10000.0,
                                SinusoidalLayout layout = SinusoidalLayout::kInterleaved);

/// Largest len × dim the recurrent scheme materialises (8 bytes per value).
inline constexpr std::int64_t kMaxRecurrentValues = std::int64_t{1} << 27;

}  // namespace posenc::encodings
