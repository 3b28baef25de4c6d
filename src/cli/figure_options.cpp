#include "figure_options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "posenc/analysis/scheme_traits.hpp"
#include "posenc/cli/colour.hpp"
#include "posenc/error.hpp"
#include "posenc/formats/writers.hpp"
#include "posenc/parallel.hpp"
#include "posenc/render/ansi.hpp"
#include "posenc/render/colormap.hpp"
#include "posenc/render/heatmap.hpp"
#include "posenc/render/table_figure.hpp"
#include "validators.hpp"

namespace posenc::cli {
void FigureOptions::bind(CLI::App& app) {
  std::vector<std::string> names;
  for (const auto& c : render::colormaps()) names.push_back(c.name);
  integer_option(app.add_option("--width", width, "figure width in pixels"), 320, 8000)->default_str("fitted to the data");
  integer_option(app.add_option("--height", height, "figure height in pixels"), 240, 8000)->default_str("fitted to the data");
  app.add_option("--title", title, "figure title (default: the table's title)");
  number_option(app.add_option("--scale", scale, "text size factor for large figures, e.g. --scale 2 with --width 1600 (sizes and spacings of titles, labels, ticks, legends)"),
                0.5, 4);
  app.add_option("--cmap", cmap, "colormap (default: viridis, or RdBu centred on 0 for signed data)")
      ->check(CLI::IsMember(names, CLI::ignore_case));
}

void FigureOptions::bind_reduce(CLI::App& app) {
  app.add_option("--reduce", reduce,
                 "heatmaps of tables larger than the image: mean (area averaging), max (largest cell per pixel), "
                 "or auto: max for alibi and t5 (biases, bucket ids), else mean")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "mean", "max"}));
  constexpr double kFinite = std::numeric_limits<double>::max();
  number_option(app.add_option("--vmin", vmin, "value at the bottom of the colour scale (default: the data's minimum)"),
                -kFinite, kFinite)
      ->default_str("");
  number_option(app.add_option("--vmax", vmax, "value at the top of the colour scale (default: the data's maximum)"),
                -kFinite, kFinite)
      ->default_str("");
}

void FigureOptions::bind_log_axes(CLI::App& app) {
  app.add_flag("--log-x", log_x, "logarithmic x axis (line plots)");
  app.add_flag("--log-y", log_y, "logarithmic y axis (line plots)");
}

void FigureOptions::apply(render::Figure& f) const {
  std::visit(
      [&](auto& x) {
        if (!title.empty()) x.title = title;
        if (width > 0) x.width = width;
        if (height > 0) x.height = height;
        x.text_scale = scale;
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, render::LineFigure>) {
          x.log_x = x.log_x || log_x;
          x.log_y = x.log_y || log_y;
          if (!cmap.empty()) x.cmap = cmap;
        } else if constexpr (std::is_same_v<T, render::ScatterFigure>) {
          if (!cmap.empty()) x.cmap = cmap;
        }
      },
      f);
}

bool draws(formats::Format f) { return f == formats::Format::kPng || f == formats::Format::kSvg || f == formats::Format::kAnsi; }

render::HeatmapFigure table_heatmap(const Table& t, const FigureOptions& o) {
  return render::table_heatmap(t, {o.width, o.height, o.scale, o.title, o.cmap, o.reduce, o.vmin, o.vmax});
}

render::Metadata figure_metadata(const std::string& title, const std::vector<std::pair<std::string, ParamValue>>& params) {
  return render::figure_metadata(title, params);
}

std::string figure_bytes(const render::Figure& fig, formats::Format f, const render::Metadata& metadata) {
  if (f == formats::Format::kSvg) return render::to_svg(fig, metadata);
  if (f == formats::Format::kAnsi) return render::to_ansi(fig, render::terminal_columns(), render::terminal_lines(), preview_colour());
  const auto png = render::to_png(fig, metadata);
  return std::string(png.begin(), png.end());
}

}  // namespace posenc::cli
