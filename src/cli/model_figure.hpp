#pragma once
// The figure of `posenc model`: one plot per position mechanism the model uses.
#include "posenc/models/model_report.hpp"
#include "posenc/render/figure.hpp"

namespace posenc::cli {

/// Stacked plots, each with its own x axis and a heading naming the mechanism and where it is
/// used: RoPE per layer type (wavelength 2π/θ per pair, log axis, the original context marked);
/// NoPE (which layers rotate: 1, or not: 0) and Llama 4's query temperature against position;
/// M-RoPE (the axis t/h/w each pair follows); MLA (which dims of the query head rotate); ALiBi
/// (slope per head, log axis); T5 (bucket against relative position key − query, per stack);
/// DeBERTa (bucket against query − key); learned tables (the row each position reads);
/// sinusoidal tables (⟨PE(0), PE(t)⟩ / (d/2) against t); a table read from the weights adds the
/// L2 norm of each stored row. 300 pixels per plot.
render::LineFigure model_figure(const models::ModelReport& r);

}  // namespace posenc::cli
