#include "usage.hpp"

#include <pybind11/numpy.h>

#include <sstream>

#include "commands.hpp"
#include "kwargs.hpp"
#include "posenc/analysis/usage.hpp"
#include "posenc/models/qk_weights.hpp"
#include "posenc/render/usage_figure.hpp"
#include "posenc/reports/usage_writers.hpp"

namespace py = pybind11;

namespace posenc::python {

namespace {

/// high_band= and positional_share=, as --high-band and --positional-share.
analysis::UsageOptions usage_options(Keywords& kw) {
  ParamValue high_band = std::int64_t{0}, share = 0.5;
  kw.take_one(option_spec("high-band", std::int64_t{0}, 1, 1 << 20), high_band);
  kw.take_one(option_spec("positional-share", 0.5, 0, 1), share);
  analysis::UsageOptions o;
  o.high_band = std::get<std::int64_t>(high_band);
  o.positional_share = std::get<double>(share);
  return o;
}

}  // namespace

py::tuple usage(const std::string& path, py::dict kwargs) {
  Keywords kw(kwargs, "usage");
  ParamValue table = std::string();
  const bool has_table =
      kw.take_one(option_spec("table", std::string(), -1e300, 1e300, reports::usage_table_names()), table);
  const analysis::UsageOptions o = usage_options(kw);
  kw.finish();
  std::string json;
  std::unique_ptr<Table> t;
  {
    py::gil_scoped_release release;
    const models::QkModel m = models::open_qk_model(path);
    const analysis::UsageReport r = analysis::frequency_usage(m, o);
    if (has_table) {
      t = reports::usage_table(r, std::get<std::string>(table));
    } else {
      std::ostringstream s;
      reports::write_usage_json(r, s);
      json = s.str();
    }
  }
  if (!t) return py::make_tuple(py::str(json), py::none());
  const auto& shape = t->info().shape;
  py::array_t<double> a(std::vector<py::ssize_t>(shape.begin(), shape.end()));
  double* out = a.mutable_data();
  {
    py::gil_scoped_release release;
    fill_table(*t, out);
  }
  return py::make_tuple(py::none(), a);
}

FigureData usage_figure(const std::string& path, Keywords& kw, const render::TableFigureOptions& o,
                        const std::function<void(render::Figure&)>& apply) {
  render::UsageFigureRequest q;
  ParamValue kind = q.kind, table = q.table, layer = std::int64_t{0};
  kw.take_one(option_spec("figure", q.kind, -1e300, 1e300,
                          std::vector<std::string>(std::begin(render::kUsageFigures), std::end(render::kUsageFigures))),
              kind);
  kw.take_one(option_spec("table", q.table, -1e300, 1e300, reports::usage_table_names()), table);
  if (kw.take_one(option_spec("layer", std::int64_t{0}, 0, 1 << 20), layer)) q.layer = std::get<std::int64_t>(layer);
  const analysis::UsageOptions uo = usage_options(kw);
  kw.finish();
  q.kind = std::get<std::string>(kind), q.table = std::get<std::string>(table);
  py::gil_scoped_release release;
  const models::QkModel m = models::open_qk_model(path);
  const analysis::UsageReport r = analysis::frequency_usage(m, uo);
  FigureData d{render::usage_figure(r, q, o), {}};
  apply(d.figure);
  d.metadata = render::usage_figure_metadata(std::visit([](const auto& x) { return x.title; }, d.figure), path, q);
  return d;
}

}  // namespace posenc::python
