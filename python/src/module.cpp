// The extension module posenc._posenc: the library's answers as numpy arrays, JSON text (turned
// into dicts by posenc/__init__.py) and figures. Over the library only (no src/cli code).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fmt/format.h>

#include <chrono>

#include "analyses.hpp"
#include "arrays.hpp"
#include "checkpoint.hpp"
#include "commands.hpp"
#include "kwargs.hpp"
#include "rope_diff.hpp"
#include "posenc/error.hpp"
#include "posenc/render/analysis_figures.hpp"
#include "posenc/render/figure.hpp"
#include "posenc/render/rope_figures.hpp"
#include "posenc/render/table_figure.hpp"
#include "posenc/schemes/registry.hpp"

namespace py = pybind11;

namespace posenc::python {

namespace {

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

py::array generate(const std::string& scheme, py::dict kwargs) {
  Keywords kw(kwargs, scheme.empty() ? "generate" : "generate " + scheme);
  ParamValue dtype = std::string("float32");
  kw.take_one(option_spec("dtype", std::string("float32"), -1e300, 1e300, {"float32", "float64"}), dtype);
  auto table = make_table(scheme, kw);
  kw.finish();
  const auto shape = table->info().shape;
  std::size_t n = 1;
  for (const auto s : shape) n *= s;
  if (std::get<std::string>(dtype) == "float64") {
    std::unique_ptr<double[]> data;
    {
      py::gil_scoped_release release;
      data.reset(new double[n]);
      fill_table(*table, data.get());
    }
    return owned_array(std::move(data), shape);
  }
  std::unique_ptr<float[]> data;
  {
    py::gil_scoped_release release;
    data.reset(new float[n]);  // not zeroed: every element is written
    fill_table(*table, data.get());
  }
  return owned_array(std::move(data), shape);
}

/// For bench/python.sh: seconds the library takes to fill the same float32 table into a buffer of
/// its own (allocation included), with no Python object made.
double library_seconds(const std::string& scheme, py::dict kwargs) {
  Keywords kw(kwargs, "generate " + scheme);
  auto table = make_table(scheme, kw);
  kw.finish();
  std::size_t n = 1;
  for (const auto s : table->info().shape) n *= s;
  py::gil_scoped_release release;
  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<float[]> data(new float[n]);
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

/// figure("generate", SCHEME, ...) and figure("rope", ...): the figure `posenc COMMAND … -o x.png` draws.
FigureData figure(const std::string& command, py::tuple args, py::dict kwargs) {
  Keywords kw(kwargs, "figure " + command);
  // The figure options of the command line.
  ParamValue width = std::int64_t{0}, height = std::int64_t{0}, scale = 1.0, title = std::string(), cmap = std::string(),
             reduce = std::string("auto"), vmin = 0.0, vmax = 0.0;
  kw.take_one(option_spec("width", std::int64_t{0}, 320, 8000), width);
  kw.take_one(option_spec("height", std::int64_t{0}, 240, 8000), height);
  kw.take_one(option_spec("scale", 1.0, 0.5, 4), scale);
  kw.take_one(option_spec("title", std::string()), title);
  kw.take_one(option_spec("cmap", std::string()), cmap);
  const auto apply = [&](render::Figure& f) {
    std::visit(
        [&](auto& x) {
          if (!std::get<std::string>(title).empty()) x.title = std::get<std::string>(title);
          if (std::get<std::int64_t>(width) > 0) x.width = static_cast<int>(std::get<std::int64_t>(width));
          if (std::get<std::int64_t>(height) > 0) x.height = static_cast<int>(std::get<std::int64_t>(height));
          x.text_scale = std::get<double>(scale);
          if constexpr (!std::is_same_v<std::decay_t<decltype(x)>, render::HeatmapFigure>)
            if (!std::get<std::string>(cmap).empty()) x.cmap = std::get<std::string>(cmap);
        },
        f);
  };
  if (command == "generate") {
    if (args.size() > 1) throw Error("figure('generate', SCHEME, ...) takes one scheme name");
    render::TableFigureOptions o;
    kw.take_one(option_spec("reduce", std::string("auto"), -1e300, 1e300, {"auto", "mean", "max"}), reduce);
    const bool has_vmin = kw.take_one(option_spec("vmin", 0.0), vmin), has_vmax = kw.take_one(option_spec("vmax", 0.0), vmax);
    const std::string scheme = args.empty() ? std::string() : py::str(args[0]).cast<std::string>();
    auto table = make_table(scheme, kw);
    kw.finish();
    o.width = static_cast<int>(std::get<std::int64_t>(width)), o.height = static_cast<int>(std::get<std::int64_t>(height));
    o.scale = std::get<double>(scale), o.title = std::get<std::string>(title), o.cmap = std::get<std::string>(cmap);
    o.reduce = std::get<std::string>(reduce);
    if (has_vmin) o.vmin = std::get<double>(vmin);
    if (has_vmax) o.vmax = std::get<double>(vmax);
    py::gil_scoped_release release;
    FigureData d{render::table_heatmap(*table, o), render::figure_metadata(table->info().title, table->info().params)};
    apply(d.figure);
    return d;
  }
  if (command == "rope") {
    if (!args.empty()) throw Error("figure('rope', ...) takes keywords only (the settings of rope())");
    const ParamMap p = rope_settings(kw);
    kw.finish();
    py::gil_scoped_release release;
    FigureData d = rope_figure(p);
    apply(d.figure);
    return d;
  }
  if (command == "similarity") {
    if (args.size() > 1) throw Error("figure('similarity', SCHEME, ...) takes one scheme name");
    render::TableFigureOptions o;
    kw.take_one(option_spec("reduce", std::string("auto"), -1e300, 1e300, {"auto", "mean", "max"}), reduce);
    const bool has_vmin = kw.take_one(option_spec("vmin", 0.0), vmin), has_vmax = kw.take_one(option_spec("vmax", 0.0), vmax);
    bool float64 = false;
    auto table = similarity_table(args.empty() ? std::string() : py::str(args[0]).cast<std::string>(), kw, true, float64);
    o.width = static_cast<int>(std::get<std::int64_t>(width)), o.height = static_cast<int>(std::get<std::int64_t>(height));
    o.scale = std::get<double>(scale), o.title = std::get<std::string>(title), o.cmap = std::get<std::string>(cmap);
    o.reduce = std::get<std::string>(reduce);
    if (has_vmin) o.vmin = std::get<double>(vmin);
    if (has_vmax) o.vmax = std::get<double>(vmax);
    py::gil_scoped_release release;
    FigureData d{render::table_heatmap(*table, o), render::figure_metadata(table->info().title, table->info().params)};
    apply(d.figure);
    return d;
  }
  if (command == "rope_diff" || command == "rope diff") {
    if (!args.empty()) throw Error("figure('rope_diff', ...) takes keywords only (those of rope_diff())");
    const RopeDiffRun run = rope_diff_run(kw);
    if (run.gguf) throw Error("figure('rope_diff'): a .gguf config_b is checked as text or json, not drawn (use rope_diff())");
    py::gil_scoped_release release;
    FigureData d{render::rope_diff_figure(*run.diff, run.labels, run.tol, run.len), {}};
    apply(d.figure);
    // As `posenc rope diff -o x.png` writes them.
    d.metadata = render::figure_metadata(std::get<render::LineFigure>(d.figure).title, {});
    d.metadata.emplace_back("a", run.labels.a);
    d.metadata.emplace_back("b", run.labels.b);
    d.metadata.emplace_back("len", fmt::format("{}", run.len));
    d.metadata.emplace_back("tol", fmt::format("{}", run.tol));
    return d;
  }
  if (command == "extrapolate") {
    if (!args.empty()) throw Error("figure('extrapolate', ...) takes keywords only (those of extrapolate())");
    const ExtrapolateArgs a = extrapolate_args(kw);
    kw.finish();
    py::gil_scoped_release release;
    FigureData d = extrapolate_figure(a);
    apply(d.figure);
    for (auto& [key, value] : d.metadata)  // the command's metadata has the title drawn
      if (key == "Title") value = std::get<render::LineFigure>(d.figure).title;
    return d;
  }
  if (command == "rope_engines" || command == "rope engines") {
    if (!args.empty()) throw Error("figure('rope_engines', ...) takes keywords only (those of rope_engines())");
    ParamValue len = std::int64_t{4096}, tol = 1e-2;
    kw.take_one(option_spec("len", std::int64_t{4096}, 1, static_cast<double>(encodings::kMaxLen)), len);
    kw.take_one(option_spec("tol", 1e-2, 0), tol);
    const ParamMap p = rope_settings(kw);
    kw.finish();
    py::gil_scoped_release release;
    FigureData d = rope_engines_figure(p, std::get<std::int64_t>(len), std::get<double>(tol));
    apply(d.figure);
    for (auto& [key, value] : d.metadata)  // the command's metadata has the title drawn
      if (key == "Title") value = std::get<render::LineFigure>(d.figure).title;
    return d;
  }
  if (command == "decay" || command == "project") {
    if (args.size() > 1) throw Error(fmt::format("figure('{}', SCHEME, ...) takes one scheme name", command));
    const std::string scheme = args.empty() ? std::string() : py::str(args[0]).cast<std::string>();
    if (command == "project") {
      bool float64 = false;
      const auto p = projection(scheme, kw, float64);
      py::gil_scoped_release release;
      const TableInfo& info = p.table->info();
      FigureData d{render::projection_figure(*p.table), render::figure_metadata(info.title, info.params)};
      apply(d.figure);
      return d;
    }
    const DecayOutcome o = decay_outcome(scheme, kw);
    py::gil_scoped_release release;
    render::DecayFigureText t;
    t.who = t.scheme = o.settings.scheme, t.metric = o.settings.metric, t.from = o.settings.from;
    render::LineFigure line = render::decay_figure(t, o.offsets, o.run);
    std::vector<std::pair<std::string, ParamValue>> params;  // what the command's figure metadata lists
    for (const auto& n : o.settings.params.names()) params.emplace_back(n, o.settings.params.value(n));
    if (o.run.uses_metric) params.emplace_back("metric", o.settings.metric);
    if (o.run.uses_qk) params.emplace_back("qk", fmt::format("{} (seed {})", o.settings.qk, o.settings.seed));
    params.emplace_back("method", o.run.method());
    render::Metadata metadata = render::figure_metadata(line.title, params);
    FigureData d{std::move(line), std::move(metadata)};
    apply(d.figure);
    return d;
  }
  throw Error(fmt::format("figure('{}'): the figures of generate, rope, decay, project, similarity, extrapolate, "
                          "rope_engines and rope_diff are drawn here; choose one of: generate, rope, decay, project, "
                          "similarity, extrapolate, rope_engines, rope_diff",
                          command));
}

}  // namespace

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
