#pragma once
/// Two config-level bounds of the RoPE literature (../shared/reference/weights.md §5.4, §5.5).
#include <cstdint>
#include <optional>

namespace posenc::rope {

/// Liu et al. 2023, "Scaling Laws of RoPE-based Extrapolation" (arXiv 2310.05209): the critical
/// dimension d_extra = 2·⌈(d/2)·log_β(T/2π)⌉ for rotary width d, base β and training length T:
/// pairs i < d_extra/2 complete a full period within T, the others see only part of one.
/// Clamped to [0, d]. Llama 2 (d 128, β 10⁴, T 4096): 92.
std::int64_t critical_dimension(std::int64_t rotary_dim, double base, std::int64_t train_len);

/// Men et al. 2024, "Base of RoPE Bounds Context Length" (arXiv 2405.14591): the smallest base b
/// on the grid 10^(2 + k/200) (k = 0, 1, …) with B_m = Σ_{i<d/2} cos(m·b^(−2i/d)) ≥ 0 for every
/// m in [0, L]. The passing set is not an interval in b, so the grid is scanned upward from 10²
/// and the first pass is returned (a bisection gives wrong bounds). d = 128: L = 1024 → 4.32e3,
/// 8192 → 8.41e4, 131072 → 8.91e6. Work grows with L·d: nullopt above kMaxMinBaseLength.
std::optional<double> min_base(std::int64_t rotary_dim, std::int64_t context_len);

/// The longest context min_base scans (2^21 positions: about a second).
inline constexpr std::int64_t kMaxMinBaseLength = std::int64_t{1} << 21;

}  // namespace posenc::rope
