// The heatmap figure of a table: panels, colour range, colormap, reduction and notes.
#include "posenc/render/table_figure.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "posenc/analysis/scheme_traits.hpp"
#include "posenc/error.hpp"
#include "posenc/render/colormap.hpp"
#include "posenc/render/heatmap.hpp"
#include "table_figure_titles.hpp"

namespace posenc::render {
namespace {

constexpr std::size_t kMaxTablePanels = 16;

}  // namespace

HeatmapFigure table_heatmap(const Table& t, const TableFigureOptions& o) {
  const TableInfo& info = t.info();
  const bool sliced = info.shape.size() == 3;
  const std::size_t rows = info.shape.size() >= 2 ? info.shape[info.shape.size() - 2] : 1;
  const std::size_t slices = sliced ? std::min(info.shape.front(), kMaxTablePanels) : 1;
  HeatmapFigure fig;
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
  // The colour range first (one colorbar for all panels), chosen as heatmap does, so
  // that the layout (colorbar labels) and the panel size are known before drawing cells.
  HeatmapOptions ho;
  const bool discrete = analysis::heatmap_reduces_by_max(info.scheme);
  ho.reduction = o.reduce == "max" || (o.reduce == "auto" && discrete) ? Reduction::kMax : Reduction::kMean;
  fig.reduce_by_max = ho.reduction == Reduction::kMax;
  std::size_t masked = 0;
  const auto [data_lo, data_hi] = heatmap_range(t, slices, ho.reduction, masked);
  fig.lo = std::isfinite(o.vmin) ? o.vmin : data_lo;
  fig.hi = std::isfinite(o.vmax) ? o.vmax : data_hi;
  if ((std::isfinite(o.vmin) || std::isfinite(o.vmax)) && !(fig.lo < fig.hi))
    throw Error(fmt::format("--vmin must be less than --vmax (got a colour range from {} to {}{})", fig.lo, fig.hi,
                            std::isfinite(o.vmin) && std::isfinite(o.vmax) ? "" : ", one end from the data"));
  // Default: diverging only for data of both signs (all-negative biases read better sequential).
  const Colormap cmap(o.cmap.empty() ? (fig.lo < 0 && fig.hi > 0 ? "RdBu" : "viridis") : o.cmap);
  if (cmap.info().diverging && fig.lo < 0 && !(std::isfinite(o.vmin) && std::isfinite(o.vmax))) {
    fig.hi = std::max(-fig.lo, fig.hi);
    fig.lo = -fig.hi;
  }
  ho.range_lo = fig.lo, ho.range_hi = fig.hi;
  fig.cmap = ho.cmap = cmap.info().name;
  const auto [pw, ph] = heatmap_panel_size(fig);
  if (o.width > 0 || o.height > 0) {
    ho.max_width = std::max(1, static_cast<int>(pw)), ho.max_height = std::max(1, static_cast<int>(ph));
  } else {
    const int ncols = static_cast<int>(std::min<std::size_t>(slices, 4));
    const int nrows = static_cast<int>((slices + static_cast<std::size_t>(ncols) - 1) / static_cast<std::size_t>(ncols));
    ho.max_width = 1000 / ncols, ho.max_height = 800 / nrows, ho.target_size = 640 / ncols;
  }
  HeatmapResult r;
  for (std::size_t s = 0; s < slices; ++s) {
    ho.slice = s;
    r = heatmap(t, ho);
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
                                ho.reduction == Reduction::kMax ? "by max" : "by area averaging"));
  if (sliced && info.shape.front() > slices) notes.push_back(fmt::format("first {} of {}", slices, info.shape.front()));
  if (data_lo < fig.lo || data_hi > fig.hi)
    notes.push_back(fmt::format("values outside [{}, {}] in the end colours", typeset(fig.lo), typeset(fig.hi)));
  if (masked > 0) notes.push_back("grey: masked (−inf) or not a number");
  fig.subtitle = fmt::format("{}", fmt::join(notes, "; "));
  return fig;
}

Metadata figure_metadata(const std::string& title, const std::vector<std::pair<std::string, ParamValue>>& params) {
  Metadata m = {{"Software", "posenc " POSENC_VERSION}, {"Title", title}};
  for (const auto& [k, v] : params) m.emplace_back(k, to_string(v));
  return m;
}

}  // namespace posenc::render
