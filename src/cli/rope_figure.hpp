#pragma once
// The figure of `posenc rope`: each pair's wavelength and inverse frequency before and after scaling.
#include "posenc/encodings/rope_report.hpp"
#include "posenc/render/figure.hpp"

namespace posenc::cli {

/// Two stacked plots over the pair index, both on log axes, before and after the configuration's
/// scaling: the wavelength 2π/θ (with the original and target context lengths as reference
/// lines) and the inverse frequency θ (with 2π/L, one turn within that length); the regime
/// counts are in the subtitle. 720 pixels high unless --height says otherwise.
render::LineFigure rope_report_figure(const encodings::RopeReport& r);

}  // namespace posenc::cli
