#pragma once
// The layout of each kind of figure (figure_layout dispatches to these).
#include "posenc/render/figure.hpp"

namespace posenc::render {

FigureLayout heatmap_layout(const HeatmapFigure& f);
FigureLayout line_plot_layout(const LineFigure& f);
FigureLayout scatter_layout(const ScatterFigure& f);

/// The figure's title.
std::string title_of(const Figure& f);

/// `labels` as layout texts of role `part` (empty ones left out).
void add_texts(FigureLayout& out, char part, const std::vector<Label>& labels);

}  // namespace posenc::render
