#pragma once
/// The case `posenc check axial-rope` verifies: the scheme's own cos/sin of every grid cell.
#include <cstdint>

#include "posenc/analysis/axial_identity.hpp"
#include "posenc/rope/axial_rope.hpp"

namespace posenc::analysis {

/// ids = the grid indices; pairs = the rotated pairs (pass-through columns left out). Throws
/// Error past kMaxAxialCheckTokens cells (every pair of cells is compared).
AxialCase make_axial_rope_case(const rope::AxialRopeOptions& o, std::int64_t len, QkChoice qk,
                               std::uint64_t seed);

}  // namespace posenc::analysis
