#pragma once
/// Decay curves of the relative schemes of issue 19 (xpos, shaw), for scheme_decay_curves.
#include "posenc/analysis/scheme_decay.hpp"

namespace posenc::analysis {

/// xpos: ⟨q̃_T, k̃_(T+Δ)⟩ for q, k from `qk` (keys at T + Δ, so m − n = −Δ: xPos is causal and
/// decays for Δ < 0), preceded with `extras` by plain RoPE's score of the same q, k (same θ,
/// interleaved pairs, no scale).
DecayCurves xpos_curves(const ParamMap& p, const DecayRequest& r);

/// shaw: the index (or distance) query T reads for the key at T + Δ: clip(Δ, −k, k) + k (t2t)
/// or −Δ + max − 1 (hf; |Δ| ≥ max refused).
DecayCurves shaw_curves(const ParamMap& p, const DecayRequest& r);

}  // namespace posenc::analysis
