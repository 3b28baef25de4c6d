#pragma once
// Small helpers shared by the rope_*_test.cpp files.
#include <cstdint>

#include "posenc/rope/rope.hpp"
#include "posenc/rope/rope_config.hpp"

namespace rope_test {

/// A finalized config: head_dim = rotary_dim = dim, base b, hf convention, chosen precision.
inline posenc::rope::RopeConfig config(std::int64_t dim, double base,
                                            posenc::rope::RopePrecision precision =
                                                posenc::rope::RopePrecision::kF64) {
  posenc::rope::RopeConfig c;
  c.head_dim = dim;
  c.base = base;
  c.precision = precision;
  posenc::rope::finalize_rope_config(c);
  return c;
}

/// Relative difference |a − b| / |b|.
inline double rel(double a, double b) { return b == 0 ? a : (a - b) / b; }

}  // namespace rope_test
