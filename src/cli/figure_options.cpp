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
#include "figure_titles.hpp"
#include "validators.hpp"

namespace posenc::cli {
namespace {

constexpr std::size_t kMaxPanels = 16;

}  // namespace

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
  const TableInfo& info = t.info();
  const bool sliced = info.shape.size() == 3;
  const std::size_t rows = info.shape.size() >= 2 ? info.shape[info.shape.size() - 2] : 1;
  const std::size_t slices = sliced ? std::min(info.shape.front(), kMaxPanels) : 1;
  render::HeatmapFigure fig;
  fig.title = !o.title.empty() ? o.title : !info.title.empty() ? info.title : default_title(info);
  fig.y_label = axis_label(info, info.shape.size() - 2, "row");
  fig.x_label = axis_label(info, info.shape.size() - 1, "column");
  fig.value_label = info.value_name;
  fig.rows = rows, fig.cols = t.cols();
  if (analysis::values_are_bits(info.scheme)) {
    // Bits: the CSV's column names (bit3 … bit0) on the x axis, and a colorbar of 0 and 1 only.
    fig.column_labels = info.column_names;
    fig.x_label = "bit";
  } else if (info.scheme == "mrope" && info.column_names == std::vector<std::string>{"t", "h", "w"}) {
    // M-RoPE's position ids: the columns are the axes t, h, w, not numbers 0, 1, 2.
    fig.column_labels = info.column_names;
  }
  fig.first_row = static_cast<double>(info.first_position);
  fig.width = o.width, fig.height = o.height;
  fig.text_scale = o.scale;
  fig.panels.resize(slices);

  // Size the cells for their panel: the whole panel when the size is given, else a default.
  // The colour range first (one colorbar for all panels), chosen as render::heatmap does, so
  // that the layout (colorbar labels) and the panel size are known before drawing cells.
  render::HeatmapOptions ho;
  const bool discrete = analysis::heatmap_reduces_by_max(info.scheme);
  ho.reduction = o.reduce == "max" || (o.reduce == "auto" && discrete) ? render::Reduction::kMax : render::Reduction::kMean;
  fig.reduce_by_max = ho.reduction == render::Reduction::kMax;
  std::size_t masked = 0;
  const auto [data_lo, data_hi] = render::heatmap_range(t, slices, ho.reduction, masked);
  fig.lo = std::isfinite(o.vmin) ? o.vmin : data_lo;
  fig.hi = std::isfinite(o.vmax) ? o.vmax : data_hi;
  if ((std::isfinite(o.vmin) || std::isfinite(o.vmax)) && !(fig.lo < fig.hi))
    throw Error(fmt::format("--vmin must be less than --vmax (got a colour range from {} to {}{})", fig.lo, fig.hi,
                            std::isfinite(o.vmin) && std::isfinite(o.vmax) ? "" : ", one end from the data"));
  // Default: diverging only for data of both signs (all-negative biases read better sequential).
  const render::Colormap cmap(o.cmap.empty() ? (fig.lo < 0 && fig.hi > 0 ? "RdBu" : "viridis") : o.cmap);
  if (cmap.info().diverging && fig.lo < 0 && !(std::isfinite(o.vmin) && std::isfinite(o.vmax))) {
    fig.hi = std::max(-fig.lo, fig.hi);
    fig.lo = -fig.hi;
  }
  ho.range_lo = fig.lo, ho.range_hi = fig.hi;
  fig.cmap = ho.cmap = cmap.info().name;
  const auto [pw, ph] = render::heatmap_panel_size(fig);
  if (o.width > 0 || o.height > 0) {
    ho.max_width = std::max(1, static_cast<int>(pw)), ho.max_height = std::max(1, static_cast<int>(ph));
  } else {
    const int ncols = static_cast<int>(std::min<std::size_t>(slices, 4));
    const int nrows = static_cast<int>((slices + static_cast<std::size_t>(ncols) - 1) / static_cast<std::size_t>(ncols));
    ho.max_width = 1000 / ncols, ho.max_height = 800 / nrows, ho.target_size = 640 / ncols;
  }
  render::HeatmapResult r;
  for (std::size_t s = 0; s < slices; ++s) {
    ho.slice = s;
    r = render::heatmap(t, ho);
    const auto [title, short_title] = sliced ? panel_titles(info, s) : std::pair<std::string, std::string>();
    fig.panels[s] = {title, std::move(r.image), short_title};
  }
  // Cells of 0 and 1 drawn as they are get a colorbar of those two values (averaged into a
  // reduced image they take shades between, which the continuous colorbar reads).
  if (analysis::values_are_bits(info.scheme) && !r.reduced && fig.lo == 0 && fig.hi == 1) fig.levels = {0.0, 1.0};
  std::vector<std::string> notes;
  if (r.reduced)
    notes.push_back(fmt::format("reduced {}×{} → {}×{} {}", rows, t.cols(), fig.panels[0].cells.height(),
                                fig.panels[0].cells.width(),
                                ho.reduction == render::Reduction::kMax ? "by max" : "by area averaging"));
  if (sliced && info.shape.front() > slices) notes.push_back(fmt::format("first {} of {}", slices, info.shape.front()));
  if (data_lo < fig.lo || data_hi > fig.hi)
    notes.push_back(fmt::format("values outside [{}, {}] in the end colours", typeset(fig.lo), typeset(fig.hi)));
  if (masked > 0) notes.push_back("grey: masked (−inf) or not a number");
  fig.subtitle = fmt::format("{}", fmt::join(notes, "; "));
  return fig;
}

render::Metadata figure_metadata(const std::string& title, const std::vector<std::pair<std::string, ParamValue>>& params) {
  render::Metadata m = {{"Software", "posenc " POSENC_VERSION}, {"Title", title}};
  for (const auto& [k, v] : params) m.emplace_back(k, to_string(v));
  return m;
}

std::string figure_bytes(const render::Figure& fig, formats::Format f, const render::Metadata& metadata) {
  if (f == formats::Format::kSvg) return render::to_svg(fig, metadata);
  if (f == formats::Format::kAnsi) return render::to_ansi(fig, render::terminal_columns(), render::terminal_lines(), preview_colour());
  const auto png = render::to_png(fig, metadata);
  return std::string(png.begin(), png.end());
}

}  // namespace posenc::cli
