#pragma once
/// Scatter plots of projected positions (posenc project), coloured by position: the seeds'
/// picture of a 3-d sine encoding whose points close into a loop.
#include "posenc/matrix.hpp"
#include "posenc/render/image.hpp"
#include "posenc/render/line_plot.hpp"

namespace posenc::render {

/// Points (rows of `coords`, 2 or 3 columns) coloured by row index t/(N−1) under opt.cmap,
/// joined in order by a faint line (up to 500 points). Three columns are drawn in a fixed oblique view
/// (azimuth −60°, elevation 30°, as matplotlib's default 3-D axes), each axis scaled to [−1, 1].
Image scatter_plot(const Matrix& coords, const PlotOptions& opt = {});

}  // namespace posenc::render
