#pragma once
/// xPos (Sun et al. 2022, "A Length-Extrapolatable Transformer"): RoPE on interleaved pairs
/// (2i, 2i+1), θ_i = base^(−2i/d), times a per-pair scale that multiplies queries and divides keys:
///   ζ_i = (2i + 0.4·d) / (1.4·d),   query scale ζ_i^((t − c)/γ),   key scale ζ_i^(−(t − c)/γ)
/// so ⟨q̃_m, k̃_n⟩ = Σ_i ζ_i^((m−n)/γ)·(pair i of RoPE's score): it depends on m − n only.
/// The centre c: the paper writes c = 0; every implementation centres on the middle of the
/// sequence of length L:
///   torchscale  (microsoft/torchscale `torchscale/component/xpos_relative_position.py` @ 776b070d,
///                `XPOS.forward`: min_pos = −(L + offset) // 2): c = ⌈L/2⌉;
///   lucidrains  (rotary-embedding-torch @ 4b2b86d8 and x-transformers `RotaryEmbedding`:
///                power = (t − max_pos // 2)/scale_base): c = ⌊L/2⌋.
/// They differ by one position for odd L (a constant per-pair factor that cancels in q·k).
#include <cstdint>
#include <vector>

#include "posenc/params.hpp"

namespace posenc::rope {

enum class XposCentre { kMiddle, kZero };
enum class XposConvention { kTorchscale, kLucidrains };
enum class XposRole { kQuery, kKey };
enum class XposTable { kScale, kCos, kSin };

struct XposOptions {
  std::int64_t dim = 64;       ///< head dimension d (even)
  double base = 10000.0;       ///< RoPE base
  double scale_base = 512.0;   ///< γ (torchscale xpos_scale_base, lucidrains xpos_scale_base / scale_base)
  XposCentre centre = XposCentre::kMiddle;
  XposConvention convention = XposConvention::kTorchscale;
  std::int64_t len = 50;       ///< sequence length L (decides the centre)
};

/// The options of `posenc ... xpos` flags (checked).
XposOptions xpos_options(const ParamMap& p);

/// Throws Error naming --dim / --scale-base / --base for settings the formula cannot take.
void check_xpos(const XposOptions& o);

/// ζ_i = (2i + 0.4·d)/(1.4·d) for the d/2 pairs.
std::vector<double> xpos_zeta(std::int64_t dim);

/// RoPE's θ_i = base^(−2i/d) for the d/2 pairs.
std::vector<double> xpos_theta(const XposOptions& o);

/// The centre c of the exponent: 0, ⌈L/2⌉ (torchscale) or ⌊L/2⌋ (lucidrains).
std::int64_t xpos_centre(const XposOptions& o);

/// The scale ζ_i^(±(t − c)/γ) of pair i at position t (+ for queries, − for keys).
double xpos_scale(const XposOptions& o, double zeta_i, std::int64_t t, XposRole role);

/// One row (d values) of a table at position t: the scale, or cos(tθ_i)·scale, sin(tθ_i)·scale,
/// each repeated for the two dims of its pair (torchscale's duplicate_interleave).
/// zeta and theta: xpos_zeta(o.dim), xpos_theta(o).
void xpos_row(const XposOptions& o, const std::vector<double>& zeta, const std::vector<double>& theta, XposTable table,
              XposRole role, std::int64_t t, double* out);

/// ⟨q̃_m, k̃_n⟩ for q, k of d values, computed by rotating and scaling both vectors
/// (key_role kQuery reproduces the bug of scaling keys like queries, which breaks the
/// relative dependence).
double xpos_score(const XposOptions& o, const std::vector<double>& q, const std::vector<double>& k, std::int64_t m,
                  std::int64_t n, XposRole key_role = XposRole::kKey);

}  // namespace posenc::rope
