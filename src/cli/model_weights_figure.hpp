#pragma once
// The figures of a trained position table `posenc model` read from weights (--weights-figure).
#include <string>

#include "figure_options.hpp"
#include "posenc/models/model_weights.hpp"
#include "posenc/render/figure.hpp"

namespace posenc::cli {

/// The choices of --weights-figure, for its validator and help.
inline constexpr const char* kWeightsFigures[] = {"heatmap", "similarity", "pca", "norm", "patch"};

/// The figure `kind` of the first mechanism of `r` whose table (or T5 bias: heatmap only) was
/// read from weights: heatmap (stored rows × width; T5: buckets × heads), similarity (cosine of
/// every pair of used rows), pca (the used rows on their first two principal components,
/// coloured by position), norm (L2 norm of every stored row, unused rows included), patch (a
/// grid's patches coloured by their cosine similarity to the centre patch). Throws Error when
/// no table was read, or for patch on a 1-D table.
render::Figure weights_figure(const models::ModelReport& r, const std::string& kind, const FigureOptions& o);

}  // namespace posenc::cli
