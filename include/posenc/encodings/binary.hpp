#pragma once
/// The binary encoding of the seeds (seed 003 §1.3): each column holds one bit of t.
#include <cstdint>
#include <span>

#include "posenc/matrix.hpp"

namespace posenc::encodings {

/// Which bit column 0 holds.
enum class BitOrder {
  kMsb,  ///< column k holds bit D−1−k: position 1 of 8 columns is 0 0 0 0 0 0 0 1 (the seed's table)
  kLsb,  ///< column k holds bit k: position 1 is 1 0 0 0 0 0 0 0
};

/// Throws Error unless D bits can encode positions 0 … len−1, i.e. len ≤ 2^D.
void check_binary_range(std::int64_t len, std::int64_t dim);

/// Writes the D bits of `position` (0.0 or 1.0) into `out` (out.size() = D).
/// Bits above 63 are 0.
void binary_row(std::uint64_t position, BitOrder order, std::span<double> out);

/// binary: PE[t, k] = ⌊t / 2^b⌋ mod 2 with b = D−1−k (msb) or b = k (lsb) (seed 003 §1.3).
/// Values are 0 or 1; D bits encode only 2^D positions, so len > 2^D throws Error.
Matrix binary_table(std::int64_t len, std::int64_t dim, BitOrder order = BitOrder::kMsb);

}  // namespace posenc::encodings
