#pragma once
/// The simplest absolute encodings of the seeds (§1.1, §1.2): the position itself,
/// and the position scaled into [0, 1].
#include <cstdint>

#include "posenc/matrix.hpp"

namespace posenc::encodings {

/// integer: PE[t, k] = t for every column k (seed 003 §1.1). Unbounded in t.
Matrix integer_table(std::int64_t len, std::int64_t dim);

/// normalized: PE[t, k] = t / (N − 1) (seed 003 §1.2), 0 for N = 1. The step between
/// neighbours depends on N, which is the scheme's flaw.
Matrix normalized_table(std::int64_t len, std::int64_t dim);

}  // namespace posenc::encodings
