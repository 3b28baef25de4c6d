#pragma once
// posenc.list, posenc.tensors and posenc.rope_permutation: the JSON of `posenc list`,
// `posenc tensors PATH` and `posenc rope permutation` over the library (listings.cpp).
#include <pybind11/pybind11.h>

#include <string>

namespace posenc::python {

/// `posenc list --format json` (no keywords).
std::string list_json();
/// `posenc tensors PATH --format json` (filter=GLOB).
std::string tensors_json(const std::string& path, pybind11::dict kwargs);
/// `posenc rope permutation --dim D --format json` (dim= required, rotary_dim=).
std::string rope_permutation_json(pybind11::dict kwargs);

}  // namespace posenc::python
