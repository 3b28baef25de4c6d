#pragma once
/// The figure of `posenc extrapolate` (docs/extrapolation.md explains each plot).
#include "posenc/analysis/extrapolation.hpp"
#include "posenc/render/figure.hpp"

namespace posenc::render {

/// Stacked plots, the methods side by side in each: with RoPE methods, the angle range per pair
/// (L·θ_i in training, L'·θ'_i per method, log y, 2π marked) and the attention entropy minus
/// ln n against n (log x; each method with its attention factor, and without it where it has
/// one); with alibi, kerple or sandwich,
/// the largest |bias| per head within L and at L' (log y); with t5, the bucket
/// against |offset| per direction (log x). A learned table's missing rows are in the subtitle.
/// 360 pixels per plot unless --height says otherwise.
LineFigure extrapolation_figure(const analysis::Extrapolation& e);

}  // namespace posenc::render
