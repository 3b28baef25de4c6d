#pragma once
/// The figures of `posenc usage`: layer × pair heatmap (mean over heads, the critical dimension
/// and the first pair whose wavelength exceeds the training length marked on the cells), head ×
/// pair heatmap of one layer, and the per-pair mean against the wavelength.
#include <cstdint>
#include <optional>
#include <string>

#include "posenc/analysis/usage.hpp"
#include "posenc/render/figure.hpp"
#include "posenc/render/table_figure.hpp"

namespace posenc::render {

/// What `posenc usage PATH -o x.png` draws (--figure, --table, --layer).
struct UsageFigureRequest {
  std::string kind = "layers";  ///< layers | heads | wavelength
  std::string table = "rho";    ///< the array drawn (reports::usage_table_names)
  std::optional<std::int64_t> layer;  ///< the layer of heads; given with kind layers, draws heads

  /// The figure drawn: "heads" for kind layers with a layer given, else kind.
  std::string drawn() const { return kind == "layers" && layer ? "heads" : kind; }
};

/// The choices of --figure, for its validator and help.
inline constexpr const char* kUsageFigures[] = {"layers", "heads", "wavelength"};

/// The figure of `q` over report `r`; heatmaps take `o` (their colour range and reduction as a
/// table's heatmap). Throws Error for a table name not in usage_table_names() or a layer out of range.
Figure usage_figure(const analysis::UsageReport& r, const UsageFigureRequest& q, const TableFigureOptions& o);

/// The PNG/SVG metadata of that figure, as the command writes it: the software, `title` (the
/// figure's title as drawn), and the command, path, figure and table.
Metadata usage_figure_metadata(const std::string& title, const std::string& path, const UsageFigureRequest& q);

}  // namespace posenc::render
