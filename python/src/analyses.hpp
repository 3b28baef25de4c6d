#pragma once
// posenc.similarity and posenc.check: analyses of a scheme's table (analyses.cpp).
#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "kwargs.hpp"
#include "posenc/table.hpp"

namespace posenc::python {

/// The table a command analyses: SCHEME or hf_config=/gguf= (the model's), with the analyses'
/// defaults for what the keywords leave (rope in float64 unless precision=). Sets `scheme`.
std::unique_ptr<Table> analysis_table(const std::string& scheme_arg, Keywords& kw, std::string& scheme, ParamMap& params);
/// The table's JSON keys (`posenc … --format json`) with its values as one array (the buffer
/// the library filled): scheme, params, results, shape, axes, columns, dtype, first_position, data.
pybind11::dict table_dict(const Table& t, bool float64);

pybind11::dict similarity(const std::string& scheme, pybind11::dict kwargs);
/// {"scheme", "params", "options", "all_hold", "identities", "skipped"} as `posenc check
/// --format json` has them (but "command").
pybind11::dict check(const std::string& scheme, pybind11::dict kwargs);

}  // namespace posenc::python
