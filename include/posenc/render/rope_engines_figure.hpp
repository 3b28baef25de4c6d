#pragma once
/// The figure of `posenc rope engines`.
#include "posenc/render/figure.hpp"
#include "posenc/rope/engines/rope_engines.hpp"

namespace posenc::render {

/// Two panels over the pair index, log y: each convention's relative inv_freq difference from
/// transformers, and its largest |Δcos|, |Δsin| over the positions; --tol marked.
LineFigure rope_engines_figure(const rope::RopeEnginesReport& r);

}  // namespace posenc::render
