#pragma once
/// bias-symmetric: a bias that depends on |i − j| only (KERPLE, Sandwich, symmetric ALiBi)
/// gives query i and key j the same bias as query j and key i.
#include "posenc/analysis/identity.hpp"
#include "posenc/table.hpp"

namespace posenc::analysis {

/// max |b[i, j] − b[j, i]| / max |b| over every head of an N × N (or H × N × N) bias table,
/// i < j. Undecided for N ≠ M and for a table with masked (−inf) entries (a causal form: the
/// mask is not symmetric); fails at the first NaN or +inf. Together with bias-relative it says
/// the bias is a function of |i − j|.
IdentityResult check_bias_symmetric(const Table& bias, double tol);

}  // namespace posenc::analysis
