#pragma once
/// The case `posenc check mrope` verifies: the mrope scheme's own ids and cos/sin (with its
/// --precision) for every token of the sequence.
#include <cstdint>

#include "posenc/analysis/axial_identity.hpp"
#include "posenc/rope/mrope.hpp"

namespace posenc::analysis {

/// Throws Error when the sequence has more than kMaxAxialCheckTokens tokens (the checks
/// compare every token pair).
AxialCase make_mrope_case(const rope::MropeOptions& o, QkChoice qk, std::uint64_t seed);

inline constexpr std::int64_t kMaxAxialCheckTokens = 4096;

}  // namespace posenc::analysis
