#pragma once
/// The heatmap figure of a table (`posenc generate … -o x.png`, `--input` tables): one panel,
/// or one per head of a 3-D table, with the colour range, colormap and reduction chosen from the
/// data unless the options say otherwise.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "posenc/params.hpp"
#include "posenc/render/figure.hpp"
#include "posenc/table.hpp"

namespace posenc::render {

/// The figure options a table's heatmap uses (--width, --height, --scale, --title, --cmap,
/// --reduce, --vmin, --vmax).
struct TableFigureOptions {
  int width = 0;   ///< 0 = fitted to the data
  int height = 0;
  double scale = 1.0;  ///< text sizes × this
  std::string title;   ///< "" = the table's title
  std::string cmap;    ///< "" = viridis, or RdBu centred on 0 for signed data
  std::string reduce = "auto";  ///< auto (max for bias/bucket tables), mean, max
  double vmin = NAN, vmax = NAN;  ///< colour range ends (NaN: from the data)
};

/// Throws Error (naming --vmin/--vmax) for an empty colour range.
HeatmapFigure table_heatmap(const Table& t, const TableFigureOptions& o);

/// The PNG/SVG metadata of a figure: the software, its title and each parameter as text.
Metadata figure_metadata(const std::string& title, const std::vector<std::pair<std::string, ParamValue>>& params);

}  // namespace posenc::render
