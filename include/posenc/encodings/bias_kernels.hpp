#pragma once
/// Additive attention biases that are functions of the distance |i − j| (or of a normalised
/// distance), after ALiBi: KERPLE (Chi et al., NeurIPS 2022, "KERPLE: Kernelized Relative
/// Positional Embedding for Length Extrapolation", arXiv 2205.09921), Sandwich (Chi et al.,
/// ACL 2023, "Dissecting Transformer Length Extrapolation via the Lens of Receptive Field
/// Analysis", arXiv 2212.10356) and the input of FIRE's MLP (Li et al. 2023, "Functional
/// Interpolation for Relative Positions Improves Long Context Transformers", arXiv 2310.04418).
#include <cstdint>
#include <string>
#include <vector>

namespace posenc::encodings {

enum class KerpleKind {
  kLog,    ///< −p·ln(1 + a·n): chijames/KERPLE `ParallelKerpleLog`
  kPower,  ///< −a·n^p: chijames/KERPLE `ParallelKerplePower`
};

/// Parses --kind (log, power); throws Error otherwise.
KerpleKind parse_kerple_kind(const std::string& name);

/// KERPLE's bias at distance n >= 0 (chijames/KERPLE megatron/mpu/layers.py @ 73f1ee2d):
/// log −p·ln(1 + a·n), power −a·n^p. 0 at n = 0.
double kerple_bias(KerpleKind kind, double p, double a, std::int64_t n);

/// The per-head (p, a) of --p and --a: a list of one value is every head's; otherwise both
/// lists have H values. Throws Error naming --p/--a for lists of different lengths (neither
/// of length 1), for p <= 0 or not finite, power p > 2 and a < 0.01 (chijames/KERPLE clamps a to
/// its eps 0.01, p to [0.01, 2] for power). A p in (0, 0.01) is kept with a warning: the reference
/// would clamp it, but NVIDIA/NeMo's KERPLERelativePositionEmbedding (position_embedding/
/// kerple_relative_position_embedding.py @ d5cc8b44) initialises that factor (its kerple_b) with
/// the ALiBi slopes, down to 1/256 for 8 heads, and clamps nothing.
struct KerpleHeads {
  std::vector<double> p, a;
  std::vector<std::string> warnings;  ///< one line each, for p below the reference's eps 0.01
};
KerpleHeads kerple_heads(KerpleKind kind, const std::vector<double>& p, const std::vector<double>& a);

/// Sandwich's bias of head h (1-based, of H) at distance n >= 0, head width d (even):
/// (Σ_{k=1}^{d/2} cos(n·10000^(−2k/d)) − d/2) / (8h/H)
/// (NVIDIA/NeMo sandwich_relative_position_embedding.py @ c42ec1b8; the sum starts at k = 1).
double sandwich_bias(std::int64_t n, std::int64_t dim, std::int64_t head, std::int64_t heads);

/// Σ_{k=1}^{d/2} cos(n·10000^(−2k/d)) − d/2, every head's numerator (summed as −2 Σ sin²(nω_k/2),
/// which is the same number without the cancellation against d/2 at small n).
double sandwich_numerator(std::int64_t n, std::int64_t dim);

/// FIRE's normalised input of query i, key j (mcleish7/arithmetic cramming/architectures/
/// embeddings.py @ 55af9d5e, class FIRE, eval mode):
///   ψ(i − j) / (ψ(max(i, L)) + eps), ψ(x) = ln(|c·x| + 1), L = threshold.
double fire_input(std::int64_t i, std::int64_t j, double c, double threshold, double eps);

}  // namespace posenc::encodings
