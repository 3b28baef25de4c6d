#pragma once
// posenc.rope_diff: `posenc rope diff … --format json` over the library (rope_diff.cpp).
#include <pybind11/pybind11.h>

#include <string>

#include "kwargs.hpp"
#include "posenc/params.hpp"

namespace posenc::python {

/// The settings of `posenc rope` from the keywords (hf_config=/gguf= included; module.cpp).
ParamMap rope_settings(Keywords& kw);

/// `posenc rope diff`: the shared settings, config_a=/config_b= and any setting per side with
/// _a/_b (convention_b="ggml", factor_b=8), len=, tol=, max_model_len=. Returns the JSON text
/// (a .gguf config_b: the conversion check's JSON).
std::string rope_diff(pybind11::dict kwargs);

}  // namespace posenc::python
