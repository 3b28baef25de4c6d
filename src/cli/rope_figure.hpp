#pragma once
// The figure of `posenc rope`: each pair's wavelength before and after scaling.
#include "posenc/encodings/rope_report.hpp"
#include "posenc/render/figure.hpp"

namespace posenc::cli {

/// Wavelength 2π/θ of every pair (log scale) before and after the configuration's scaling,
/// with the original and target context lengths as reference lines and the regime counts
/// in the subtitle.
render::LineFigure rope_report_figure(const encodings::RopeReport& r);

}  // namespace posenc::cli
