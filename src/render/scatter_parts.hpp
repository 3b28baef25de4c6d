#pragma once
// Shared by the 2-D and 3-D scatter plots.
#include <utility>
#include <vector>

#include "posenc/render/axes.hpp"
#include "posenc/render/figure.hpp"

namespace posenc::render {

/// [lo, hi] of the finite values of column c (widened when flat or empty).
std::pair<double, double> column_range(const Matrix& m, std::size_t c);

/// The faint path through the points in row order, then the points coloured by row,
/// far ones (small depth) first; `bare` draws small points for previews.
void draw_points(Canvas& c, const ScatterFigure& f, const std::vector<Point>& px, const std::vector<double>& depth,
                 bool bare);

/// Width the 3-D view needs in an area of that height (the box fitted to the height).
double scatter_3d_width(const Rect& area);

/// The 3-D view's plot bounds, box edges and tick labels inside `area`, into `out`.
void scatter_3d_layout(const ScatterFigure& f, const Rect& area, FigureLayout& out);

/// The 3-D view of the first three columns inside `area`; `bare` leaves out ticks and labels.
void draw_scatter_3d(Canvas& c, const ScatterFigure& f, const Rect& area, bool bare);

}  // namespace posenc::render
