#pragma once
/// RoPE identities (RoFormer §3.4.2; PRODUCT.md), checked on vectors q, k at many
/// positions m, n. Errors are relative to |q||k| (scores) or |x| (vectors).
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "posenc/analysis/identity.hpp"
#include "posenc/analysis/rotary.hpp"

namespace posenc::analysis {

/// Which q and k the checks use.
enum class QkChoice {
  kRandom,  ///< independent N(0, 1) entries (q ≠ k)
  kSame,    ///< k = q, random
  kOnes,    ///< q = k = all ones (the "RoPE decays" curve)
};
QkChoice parse_qk(const std::string& name);  ///< "random" | "same" | "ones"

/// The implementation under test: x rotated to position m in `layout`.
using RopeApply = std::function<std::vector<double>(std::span<const double> x, double m, RopeLayout layout)>;

struct RopeCheckCase {
  std::vector<double> theta;           ///< inverse frequencies θ_i (d/2 of them)
  RopeLayout layout = RopeLayout::kInterleaved;
  std::vector<double> q, k;            ///< d entries each
  std::vector<std::int64_t> positions; ///< m and n range over these
  std::vector<std::int64_t> offsets;   ///< Δ for the shift and symmetry checks
  /// The implementation under test, in its three forms; make_rope_case sets the rope
  /// library's rope_rotate (element-wise), rope_rotate_complex and rope_rotation_matrix with
  /// angles m·θ_i. The identities compare them with each other and with the closed forms.
  RopeApply apply;
  RopeApply apply_complex;
  RopeApply apply_matrix;
  /// R_0 = scale·I: the factor the implementation multiplies into cos and sin (HF's attention
  /// factor, e.g. YaRN's 0.1 ln s + 1). rope-relative expects scale² on its closed form;
  /// rope-norm divides it out (|R_m x| = scale·|x|).
  double scale = 1.0;
  std::string implementation = "exact rotation by m theta_i in double";  ///< for notes
};

/// N(0, 1) samples from std::mt19937_64(seed) by Box–Muller (the same on every platform,
/// unlike std::normal_distribution).
std::vector<double> normal_vector(std::size_t n, std::uint64_t seed);

/// q, k per `qk` (seeds `seed` and `seed + 1`), positions 0..len−1 (at most 64 of them: 0..15
/// then evenly spaced to len − 1), offsets likewise up to len − 1.
RopeCheckCase make_rope_case(std::vector<double> theta, RopeLayout layout, std::int64_t len, QkChoice qk,
                             std::uint64_t seed);

/// rope-relative: <R_m q, R_n k> = <R_0 q, R_{n−m} k> = scale² Re Σ q̃_i conj(k̃_i) e^{i(m−n)θ_i}
/// (R_0 q = q when scale = 1).
IdentityResult check_rope_relative(const RopeCheckCase& c, double tol);
/// rope-norm: |R_m q| = scale·|q| and |R_m k| = scale·|k|: R_m / scale keeps norms (the attention
/// factor is divided out; a scale that changes with m still fails).
IdentityResult check_rope_norm(const RopeCheckCase& c, double tol);
/// rope-forms-agree: apply_matrix, apply_complex and apply give the same R_m q.
IdentityResult check_rope_forms_agree(const RopeCheckCase& c, double tol);
/// layouts-agree: P·R^interleaved_m q = R^half_m (P q) with P = interleaved_to_half, and the
/// scores <R_m q, R_n k> agree across layouts.
IdentityResult check_layouts_agree(const RopeCheckCase& c, double tol);
/// dot-shift-invariant for RoPE: <R_m q, R_{m+Δ} k> = <R_0 q, R_Δ k>.
IdentityResult check_rope_dot_shift_invariant(const RopeCheckCase& c, double tol);
/// dot-symmetric for RoPE: <R_m q, R_{m+Δ} k> = <R_m q, R_{m−Δ} k>; holds for q = k, not in
/// general (REFERENCES §3 pitfall 15).
IdentityResult check_rope_dot_symmetric(const RopeCheckCase& c, double tol);

}  // namespace posenc::analysis
