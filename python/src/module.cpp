// The extension module posenc._posenc: the library's answers as numpy arrays, JSON text (turned
// into dicts by posenc/__init__.py) and figures. Over the library only (no src/cli code).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fmt/format.h>

#include <sys/mman.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>

#include "analyses.hpp"
#include "arrays.hpp"
#include "checkpoint.hpp"
#include "commands.hpp"
#include "kwargs.hpp"
#include "figures.hpp"
#include "rope_diff.hpp"
#include "listings.hpp"
#include "usage.hpp"
#include "posenc/error.hpp"
#include "posenc/render/analysis_figures.hpp"
#include "posenc/render/figure.hpp"
#include "posenc/render/rope_figures.hpp"
#include "posenc/render/table_figure.hpp"
#include "posenc/schemes/registry.hpp"

namespace py = pybind11;

namespace posenc::python {

/// generate's own keywords besides the scheme's: --dtype, --hf-config (gguf= names a .gguf).
std::string take_model_path(Keywords& kw) {
  ParamValue hf = std::string(), gguf = std::string();
  const bool has_hf = kw.take_one(option_spec("hf-config", std::string(), -1e300, 1e300, {}, true), hf);
  const bool has_gguf = kw.take_one(option_spec("gguf", std::string(), -1e300, 1e300, {}, true), gguf);
  if (has_hf && has_gguf)
    throw Error(fmt::format("give hf_config= or gguf=, not both (got '{}' and '{}')", std::get<std::string>(hf),
                            std::get<std::string>(gguf)));
  return std::get<std::string>(has_gguf ? gguf : hf);
}

std::unique_ptr<Table> make_table(const std::string& scheme_arg, Keywords& kw) {
  const std::string hf_config = take_model_path(kw);
  std::string scheme;
  {
    py::gil_scoped_release release;
    scheme = generate_scheme(scheme_arg, hf_config);
  }
  ParamMap values;
  std::vector<ParamSpec> specs = schemes::find_scheme(scheme).params;
  if (!hf_config.empty())  // the scheme's own hf-config (rope's) is the keyword taken above
    specs.erase(std::remove_if(specs.begin(), specs.end(), [](const ParamSpec& s) { return s.name == "hf-config"; }), specs.end());
  kw.take(specs, values);
  py::gil_scoped_release release;
  return schemes::make_table(scheme, generate_values(scheme, std::move(values), hf_config));
}

namespace {

py::array generate(const std::string& scheme, py::dict kwargs) {
  Keywords kw(kwargs, scheme.empty() ? "generate" : "generate " + scheme);
  ParamValue dtype = std::string("float32");
  kw.take_one(option_spec("dtype", std::string("float32"), -1e300, 1e300, {"float32", "float64"}), dtype);
  auto table = make_table(scheme, kw);
  kw.finish();
  const auto shape = table->info().shape;
  std::size_t n = 1;
  for (const auto s : shape) n *= s;
  // numpy allocates the array (its allocator asks Linux for huge pages for large arrays, which
  // halves the cost of a fresh 512 MB table: 4 KiB page faults cost more than the sin/cos) and
  // the library writes straight into its buffer, with the GIL released.
  const std::vector<py::ssize_t> dims(shape.begin(), shape.end());
  if (std::get<std::string>(dtype) == "float64") {
    py::array_t<double> a(dims);
    double* out = a.mutable_data();
    py::gil_scoped_release release;
    fill_table(*table, out);
    return a;
  }
  py::array_t<float> a(dims);
  float* out = a.mutable_data();
  {
    py::gil_scoped_release release;
    fill_table(*table, out);
  }
  return a;
}

/// For bench/python.sh: seconds the library takes to fill the same float32 table into a buffer
/// allocated as numpy allocates generate()'s (malloc, then madvise(MADV_HUGEPAGE) past the first
/// page, numpy's alloc.c for arrays of 4 MiB or more), allocation included, no Python object made.
double library_seconds(const std::string& scheme, py::dict kwargs) {
  Keywords kw(kwargs, "generate " + scheme);
  auto table = make_table(scheme, kw);
  kw.finish();
  std::size_t n = 1;
  for (const auto s : table->info().shape) n *= s;
  py::gil_scoped_release release;
  const auto start = std::chrono::steady_clock::now();
  const std::size_t bytes = n * sizeof(float);
  std::unique_ptr<float, decltype(&std::free)> data(static_cast<float*>(std::malloc(bytes)), &std::free);
  if (!data) throw Error("_library_seconds: out of memory");
#ifdef MADV_HUGEPAGE
  if (bytes >= (std::size_t{1} << 22)) {
    const auto p = reinterpret_cast<std::uintptr_t>(data.get());
    const std::uintptr_t offset = 4096 - p % 4096;
    madvise(reinterpret_cast<void*>(p + offset), bytes - offset, MADV_HUGEPAGE);
  }
#endif
  fill_table(*table, data.get());
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string rope(py::dict kwargs) {
  Keywords kw(kwargs, "rope");
  const ParamMap p = rope_settings(kw);
  kw.finish();
  py::gil_scoped_release release;
  return rope_json(p);
}

py::tuple rope_engines(py::dict kwargs) {
  Keywords kw(kwargs, "rope_engines");
  ParamValue len = std::int64_t{4096}, tol = 1e-2;
  kw.take_one(option_spec("len", std::int64_t{4096}, 1, static_cast<double>(encodings::kMaxLen)), len);
  kw.take_one(option_spec("tol", 1e-2, 0), tol);
  const ParamMap p = rope_settings(kw);
  kw.finish();
  bool within = false;
  std::string json;
  {
    py::gil_scoped_release release;
    json = rope_engines_json(p, std::get<std::int64_t>(len), std::get<double>(tol), within);
  }
  return py::make_tuple(json, within);
}

std::string extrapolate(py::dict kwargs) {
  Keywords kw(kwargs, "extrapolate");
  const ExtrapolateArgs a = extrapolate_args(kw);
  kw.finish();
  py::gil_scoped_release release;
  return extrapolate_json(a);
}

std::string model(const std::string& path) {
  py::gil_scoped_release release;
  return model_json(path);
}

}  // namespace

ExtrapolateArgs extrapolate_args(Keywords& kw) {
  ExtrapolateArgs a;
  ParamMap own;
  kw.take(extrapolate_specs(), own);
  for (const char* required : {"train-len", "target-len"})
    if (!own.given(required)) throw Error(fmt::format("extrapolate needs {}=", keyword_name(required)));
  a.train_len = own.integer("train-len"), a.target_len = own.integer("target-len");
  a.samples = own.integer("samples"), a.seed = static_cast<std::uint64_t>(own.integer("seed"));
  a.methods = own.text("methods"), a.schemes = own.text("schemes");
  for (const auto& [scheme, names] : extrapolate_scheme_settings()) {
    ParamMap& p = scheme == "rope" ? a.rope : scheme == "alibi" ? a.alibi : scheme == "t5" ? a.t5 : a.kerple;
    p = ParamMap(schemes::find_scheme(scheme).params);
    for (const auto& spec : schemes::find_scheme(scheme).params) {
      if (std::find(names.begin(), names.end(), spec.name) == names.end()) continue;
      ParamValue v = spec.default_value;
      if (kw.take_one(spec, v)) p.set(spec.name, std::move(v), true);
    }
  }
  return a;
}

ParamMap rope_settings(Keywords& kw) {
  ParamMap p;
  const std::string model = take_model_path(kw);
  for (const auto& spec : schemes::find_scheme("rope").params) {
    if (spec.name == "len" || spec.name == "table" || spec.name == "hf-config") continue;
    ParamValue v = spec.default_value;
    const bool given = kw.take_one(spec, v);
    p.set(spec.name, std::move(v), given);
  }
  p.set("hf-config", model, !model.empty());
  return p;
}

}  // namespace posenc::python

PYBIND11_MODULE(_posenc, m) {
  using namespace posenc::python;
  namespace render = posenc::render;
  m.doc() = "posenc's library: positional encodings of transformers (see the package posenc)";
  py::register_exception<posenc::Error>(m, "Error", PyExc_ValueError);
  m.def("generate", &generate, py::arg("scheme"), py::arg("kwargs"));
  m.def("_library_seconds", &library_seconds, py::arg("scheme"), py::arg("kwargs"));
  m.def("rope", &rope, py::arg("kwargs"));
  m.def("rope_diff", &rope_diff, py::arg("kwargs"));
  m.def("rope_engines", &rope_engines, py::arg("kwargs"));
  m.def("extrapolate", &extrapolate, py::arg("kwargs"));
  m.def("model", &model, py::arg("path"));
  m.def("usage", &usage, py::arg("path"), py::arg("kwargs"));
  m.def("tensors", &tensors_json, py::arg("path"), py::arg("kwargs"));
  m.def("rope_permutation", &rope_permutation_json, py::arg("kwargs"));
  m.def("list", &list_json);
  m.def("similarity", &similarity, py::arg("scheme"), py::arg("kwargs"));
  m.def("decay", &decay, py::arg("scheme"), py::arg("kwargs"));
  m.def("project", &project, py::arg("scheme"), py::arg("kwargs"));
  m.def("check", &check, py::arg("scheme"), py::arg("kwargs"));
  m.def("figure", &figure, py::arg("command"), py::arg("args"), py::arg("kwargs"));
  py::class_<FigureData>(m, "FigureData")
      .def("png",
           [](const FigureData& d) {
             std::vector<std::uint8_t> png;
             {
               py::gil_scoped_release release;
               png = render::to_png(d.figure, d.metadata);
             }
             return py::bytes(reinterpret_cast<const char*>(png.data()), png.size());
           })
      .def("svg", [](const FigureData& d) {
        std::string svg;
        {
          py::gil_scoped_release release;
          svg = render::to_svg(d.figure, d.metadata);
        }
        return svg;
      })
      .def_property_readonly("size", [](const FigureData& d) { return render::figure_size(d.figure); });
  py::class_<Checkpoint>(m, "Checkpoint")
      .def(py::init<const std::string&>())
      .def_property_readonly("format", &Checkpoint::format)
      .def("keys", &Checkpoint::keys)
      .def("metadata", &Checkpoint::metadata)
      .def("dtype", &Checkpoint::dtype)
      .def("shape", &Checkpoint::shape)
      .def("get_tensor", &Checkpoint::tensor);
}
