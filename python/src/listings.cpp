#include "listings.hpp"

#include <fmt/format.h>

#include <sstream>

#include "kwargs.hpp"
#include "posenc/encodings/scheme.hpp"
#include "posenc/error.hpp"
#include "posenc/formats/tensor_list.hpp"
#include "posenc/reports/rope_writers.hpp"
#include "posenc/reports/scheme_list_writers.hpp"
#include "posenc/reports/tensors_writers.hpp"
#include "posenc/rope/rope_apply.hpp"

namespace py = pybind11;

namespace posenc::python {

std::string list_json() {
  std::ostringstream s;
  reports::write_scheme_list_json(s);
  return s.str();
}

std::string tensors_json(const std::string& path, py::dict kwargs) {
  Keywords kw(kwargs, "tensors");
  ParamValue filter = std::string();
  kw.take_one(option_spec("filter", std::string()), filter);
  kw.finish();
  py::gil_scoped_release release;
  std::ostringstream s;
  reports::write_tensors_json(formats::list_tensors(path, std::get<std::string>(filter)), s);
  return s.str();
}

std::string rope_permutation_json(py::dict kwargs) {
  Keywords kw(kwargs, "rope_permutation");
  ParamValue dim = std::int64_t{0}, rotary_dim = std::int64_t{0};
  const bool has_dim = kw.take_one(option_spec("dim", std::int64_t{0}, 2, static_cast<double>(encodings::kMaxDim)), dim);
  kw.take_one(option_spec("rotary-dim", std::int64_t{0}, 2, static_cast<double>(encodings::kMaxDim)), rotary_dim);
  kw.finish();
  if (!has_dim) throw Error("rope_permutation needs dim= (the head dimension, as --dim)");
  std::ostringstream s;
  reports::write_rope_permutation_json(rope::rope_permutation(std::get<std::int64_t>(dim), std::get<std::int64_t>(rotary_dim)), s);
  return s.str();
}

}  // namespace posenc::python
