#pragma once
/// The sin-only encoding of the seeds (seed 003 §1.4): one sine per column, with
/// frequencies falling from left to right like the digits of a binary counter.
#include <cstdint>
#include <span>
#include <vector>

#include "posenc/matrix.hpp"

namespace posenc::encodings {

/// How the seed's sine encoding spaces its frequencies.
enum class SineFrequencies {
  kPow2,   ///< w_i = 1/2^i (the seed's first form)
  kPaper,  ///< w_i = 1/10000^(i/(d−1)) (the seed's "transformer" form); d = 1 gives w_0 = 1
};

/// The d frequencies w_0 … w_{d−1} of the sine encoding.
std::vector<double> sine_frequencies(std::int64_t dim, SineFrequencies kind);

/// sine: PE[t, i] = sin(w_i · t) (seed 003 §1.4), angles in double precision.
/// High frequencies make far-apart positions collide (the seed's "closed loop").
Matrix sine_table(std::int64_t len, std::int64_t dim, SineFrequencies kind = SineFrequencies::kPow2);

}  // namespace posenc::encodings
