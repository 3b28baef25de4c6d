#pragma once
/// The figure of `posenc rope engines`.
#include "posenc/render/figure.hpp"
#include "posenc/rope/engines/rope_engines.hpp"

namespace posenc::render {

/// Two panels over the pair index, log y: each convention's relative inv_freq difference from
/// transformers, and its largest |Δcos|, |Δsin| over the positions; --tol marked.
LineFigure rope_engines_figure(const rope::RopeEnginesReport& r);

/// Every rope of a model: one rope as above; several as those two panels per rope, stacked, each
/// heading naming the rope's layer type (its own pair axis: Gemma 4's ropes differ in width).
LineFigure rope_engines_figure(const rope::ModelEnginesReport& m);

}  // namespace posenc::render
