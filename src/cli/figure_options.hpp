#pragma once
// `--width`, `--height`, `--title`, `--cmap` (and `--log-x`, `--log-y` for line plots) of the
// commands that draw, and the figures of tables: heatmaps with axes, colorbar and panels.
#include <CLI/CLI.hpp>

#include <cmath>
#include <string>

#include "posenc/formats/format.hpp"
#include "posenc/render/figure.hpp"
#include "posenc/table.hpp"

namespace posenc::cli {

struct FigureOptions {
  int width = 0;   ///< 0 = automatic
  int height = 0;
  double scale = 1.0;  ///< --scale: text sizes × this
  std::string title;  ///< "" = the figure's own title
  std::string cmap;   ///< "" = the figure's default
  bool log_x = false, log_y = false;
  std::string reduce = "auto";  ///< heatmaps larger than the image: auto (max for bias/bucket tables), mean, max
  double vmin = NAN, vmax = NAN;  ///< heatmap colour range ends (NaN: from the data)

  /// Binds --width, --height, --title and --cmap.
  void bind(CLI::App& app);
  /// Binds --reduce, --vmin and --vmax (commands that draw heatmaps of tables).
  void bind_reduce(CLI::App& app);
  /// Binds --log-x and --log-y (commands that draw line plots).
  void bind_log_axes(CLI::App& app);
  /// --width, --height, --title, and --cmap / log axes where the figure has them.
  void apply(render::Figure& f) const;
};

/// True for png, svg and ansi.
bool draws(formats::Format f);

/// The heatmap figure of a 2-D table, or of a 3-D table as one panel per slice (the first
/// 16 slices, e.g. heads); axis labels from TableInfo.axis_names, colorbar from value_name,
/// a subtitle saying how a large matrix was reduced (--reduce auto: by max for alibi and t5,
/// whose cells are biases and bucket ids, else by area averaging). Colour range: the finite
/// values' [min, max], with --vmin / --vmax in place of either end (values beyond are drawn
/// in the end colours, and the subtitle says so). Default colormap: RdBu when the range has
/// both signs, else viridis (--cmap overrides); a diverging map is centred on 0 (±max|end|)
/// for a range with negative values unless both --vmin and --vmax are given.
render::HeatmapFigure table_heatmap(const Table& t, const FigureOptions& o);

/// "Software" (posenc and its version), "Title" and each parameter, for PNG tEXt and SVG <desc>.
render::Metadata figure_metadata(const std::string& title, const std::vector<std::pair<std::string, ParamValue>>& params);

/// The figure in format `f`: PNG bytes, an SVG document, or a preview as wide as the terminal.
std::string figure_bytes(const render::Figure& fig, formats::Format f, const render::Metadata& metadata);

}  // namespace posenc::cli
