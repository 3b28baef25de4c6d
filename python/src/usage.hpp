#pragma once
// posenc.usage: `posenc usage PATH` over the library (analysis/usage.hpp), usage.cpp.
#include <pybind11/pybind11.h>

#include <string>

namespace posenc::python {

/// `posenc usage PATH --format json` (high_band=, positional_share=): (JSON text, None); with
/// table=NAME the array `--table NAME -o x.npy` writes: (None, float64 array).
pybind11::tuple usage(const std::string& path, pybind11::dict kwargs);

}  // namespace posenc::python
