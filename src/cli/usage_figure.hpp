#pragma once
// The figures of `posenc usage`: layer × pair heatmap (mean over heads, the critical dimension
// and the first pair whose wavelength exceeds the training length marked on the cells), head ×
// pair heatmap of one layer, and the per-pair mean against the wavelength.
#include <cstdint>
#include <string>

#include "figure_options.hpp"
#include "posenc/analysis/usage.hpp"

namespace posenc::cli {

struct UsageFigureRequest {
  std::string kind = "layers";  ///< layers | heads | wavelength
  std::string table = "rho";    ///< the array drawn (usage_table_names)
  std::int64_t layer = 0;       ///< for heads
};

render::Figure usage_figure(const analysis::UsageReport& r, const UsageFigureRequest& q, const FigureOptions& o);

}  // namespace posenc::cli
