#pragma once
/// The figures of `posenc model`: one plot per position mechanism the model uses, and the
/// figures of a trained position table read from the weights (--weights-figure).
#include <string>

#include "posenc/models/model_report.hpp"
#include "posenc/render/figure.hpp"
#include "posenc/render/table_figure.hpp"

namespace posenc::render {

/// Stacked plots, each with its own x axis and a heading naming the mechanism and where it is
/// used: RoPE per layer type (wavelength 2π/θ per pair, log axis, the original context marked);
/// NoPE (which layers rotate: 1, or not: 0) and Llama 4's query temperature against position;
/// M-RoPE (the axis t/h/w each pair follows); MLA (which dims of the query head rotate); ALiBi
/// (slope per head, log axis); T5 (bucket against relative position key − query, per stack);
/// DeBERTa (bucket against query − key); learned tables (the row each position reads);
/// sinusoidal tables (⟨PE(0), PE(t)⟩ / (d/2) against t); a table read from the weights adds the
/// L2 norm of each stored row. 300 pixels per plot. Throws Error when the report has no
/// mechanism to draw (a model_type posenc does not know, or no position mechanism).
LineFigure model_figure(const models::ModelReport& r);

/// The choices of --weights-figure, for its validator and help.
inline constexpr const char* kWeightsFigures[] = {"heatmap", "similarity", "pca", "norm", "patch"};

/// The figure `kind` of the first mechanism of `r` whose table (or T5 bias: heatmap only) was
/// read from weights: heatmap (stored rows × width; T5: buckets × heads), similarity (cosine of
/// every pair of used rows), pca (the used rows on their first two principal components,
/// coloured by position), norm (L2 norm of every stored row, unused rows included), patch (a
/// grid's patches coloured by their cosine similarity to the centre patch). Heatmaps take `o`.
/// Throws Error when no table was read, or for patch on a 1-D table.
Figure weights_figure(const models::ModelReport& r, const std::string& kind, const TableFigureOptions& o);

}  // namespace posenc::render
