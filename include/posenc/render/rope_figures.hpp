#pragma once
/// The figures of `posenc rope` and `posenc rope diff`: line plots over the pair index.
#include <cstdint>

#include "posenc/reports/rope_writers.hpp"
#include "posenc/render/figure.hpp"
#include "posenc/rope/rope_report.hpp"

namespace posenc::render {

/// Two stacked plots over the pair index, both on log axes, before and after the configuration's
/// scaling: the wavelength 2π/θ (with the original and target context lengths as reference
/// lines) and the inverse frequency θ (with 2π/L, one turn within that length); the regime
/// counts are in the subtitle. 720 pixels high unless --height says otherwise.
LineFigure rope_report_figure(const rope::RopeReport& r);
/// The figure of `posenc rope diff`, two plots over the pair index on log axes: the relative
/// difference of inv_freq, and the largest |Δcos|, |Δsin| over positions 0 … len−1, each with
/// the tolerance marked. Pairs without a difference leave a gap (log axis).
LineFigure rope_diff_figure(const rope::RopeDiff& d, const reports::RopeDiffLabels& labels, double tol,
                            std::int64_t len);

}  // namespace posenc::render
