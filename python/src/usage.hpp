#pragma once
// posenc.usage: `posenc usage PATH` over the library (analysis/usage.hpp), usage.cpp.
#include <pybind11/pybind11.h>

#include <functional>
#include <string>

#include "commands.hpp"
#include "kwargs.hpp"
#include "posenc/render/figure.hpp"
#include "posenc/render/table_figure.hpp"

namespace posenc::python {

/// `posenc usage PATH --format json` (high_band=, positional_share=): (JSON text, None); with
/// table=NAME the array `--table NAME -o x.npy` writes: (None, float64 array).
pybind11::tuple usage(const std::string& path, pybind11::dict kwargs);

/// figure("usage", PATH, figure=, table=, layer=, high_band=, positional_share=): what
/// `posenc usage PATH … -o x.png` draws, with the heatmap options `o` and `apply` (the figure
/// options of figure()) applied as the command applies --width, --height, --title, --scale.
FigureData usage_figure(const std::string& path, Keywords& kw, const render::TableFigureOptions& o,
                        const std::function<void(render::Figure&)>& apply);

}  // namespace posenc::python
