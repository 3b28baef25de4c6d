#pragma once
/// xPos's promise (Sun et al. 2022): with queries scaled by ζ_i^((m−c)/γ) and keys by
/// ζ_i^(−(n−c)/γ), the score ⟨q̃_m, k̃_n⟩ = Σ_i ζ_i^((m−n)/γ)·[(q_{2i}k_{2i} + q_{2i+1}k_{2i+1})
/// cos((m−n)θ_i) − (q_{2i+1}k_{2i} − q_{2i}k_{2i+1}) sin((m−n)θ_i)] depends on m − n only,
/// although every norm changes with the position (rope-norm fails by design).
#include <cstdint>
#include <vector>

#include "posenc/analysis/identity.hpp"
#include "posenc/analysis/rope_identity.hpp"
#include "posenc/rope/xpos.hpp"

namespace posenc::analysis {

struct XposCase {
  rope::XposOptions options;
  /// How the implementation under test scales keys: kKey (reciprocal, xPos) or kQuery (keys
  /// scaled like queries, `--key-scale same`: the score then depends on m + n).
  rope::XposRole key_role = rope::XposRole::kKey;
  std::vector<double> q, k;             ///< d entries each
  std::vector<std::int64_t> positions;  ///< m and n range over these
};

/// q, k per `qk` (as make_rope_case: seeds `seed`, `seed + 1`), positions 0..len−1 (at most 64).
XposCase make_xpos_case(const rope::XposOptions& o, rope::XposRole key_role, QkChoice qk, std::uint64_t seed);

/// The closed form above for m − n = delta.
double xpos_closed_score(const XposCase& c, std::int64_t delta);

/// xpos-relative: max over m, n of |⟨q̃_m, k̃_n⟩ − closed form(m − n)| / (|q̃_m||k̃_n|), the
/// scores computed by rotating and scaling q and k as torchscale's apply_rotary_pos_emb does.
IdentityResult check_xpos_relative(const XposCase& c, double tol);

/// Decay curves at query position `from`, key at from + Δ for each offset: xPos's score, and
/// plain RoPE's (the same q, k, θ, no scale) to compare.
std::vector<double> xpos_decay(const XposCase& c, std::int64_t from, const std::vector<std::int64_t>& offsets);
std::vector<double> xpos_rope_decay(const XposCase& c, const std::vector<std::int64_t>& offsets);

}  // namespace posenc::analysis
