#pragma once
/// The case `posenc check rope` verifies: the identities of rope_identity.hpp applied to the
/// rope scheme's own rotation rather than to an exact one.
#include <cstdint>

#include "posenc/analysis/rope_identity.hpp"
#include "posenc/rope/rope.hpp"

namespace posenc::analysis {

/// The rope scheme's own rotation as the implementation under test: rope::rope_pair_values
/// gives position m's cos and sin (with the configuration's --precision, --convention and
/// attention factor), and the element-wise, complex and matrix forms all rotate with those
/// values. θ_i = f.inv_freq; positions and q, k as the exact make_rope_case. So float32 angles
/// (`--precision f32`) show up as a drift of <R_m q, R_n k> from the closed form at long range.
RopeCheckCase make_rope_case(const rope::RopeConfig& config, const rope::RopeFrequencies& freqs,
                             std::int64_t len, QkChoice qk, std::uint64_t seed);

}  // namespace posenc::analysis
