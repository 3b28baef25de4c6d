#pragma once
/// Identities of rotary encodings with several position axes (M-RoPE's t, h, w; axial 2-D/3-D
/// RoPE): each token n has ids (one per axis) and each pair j rotates by an angle taken from
/// one axis. Checked on the scheme's own cos/sin, with q, k from rope_identity's QkChoice.
#include <array>
#include <cstdint>
#include <vector>

#include "posenc/analysis/identity.hpp"
#include "posenc/analysis/rope_identity.hpp"
#include "posenc/matrix.hpp"

namespace posenc::analysis {

struct AxialCase {
  std::vector<std::array<std::int64_t, 3>> ids;  ///< per token; unused axes 0
  Matrix cos, sin;                               ///< tokens × pairs: what the scheme rotates with
  std::vector<double> theta;                     ///< θ_j of each pair (1-D RoPE ladder for text)
  std::vector<int> pair_axis;                    ///< the axis each pair follows
  std::vector<double> q, k;                      ///< 2 × pairs entries, pair j = (2j, 2j+1)
  std::string implementation;                    ///< for notes
};

/// q, k per `qk` (normal_vector with seeds seed and seed + 1, as rope's checks).
void set_qk(AxialCase& c, QkChoice qk, std::uint64_t seed);

/// axial-relative: <R_a q, R_b k> depends only on the offsets ids_a − ids_b per axis:
/// every token pair (a, b) with the same offsets gives the first such pair's score;
/// max |difference| / (|q||k|).
IdentityResult check_axial_relative(const AxialCase& c, double tol);

/// text-reduces-to-rope: a token whose ids are all equal (text) rotates as 1-D RoPE at that
/// position: cos, sin of pair j equal cos(p·θ_j), sin(p·θ_j) (θ as given, in double);
/// max absolute difference; undecided when no token has equal ids.
IdentityResult check_text_reduces_to_rope(const AxialCase& c, double tol);

/// rope-norm: |R_n q| = |q|, |R_n k| = |k| with the table's cos/sin; max relative difference.
IdentityResult check_axial_norm(const AxialCase& c, double tol);

}  // namespace posenc::analysis
