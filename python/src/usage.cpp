#include "usage.hpp"

#include <pybind11/numpy.h>

#include <sstream>

#include "commands.hpp"
#include "kwargs.hpp"
#include "posenc/analysis/usage.hpp"
#include "posenc/models/qk_weights.hpp"
#include "posenc/reports/usage_writers.hpp"

namespace py = pybind11;

namespace posenc::python {

py::tuple usage(const std::string& path, py::dict kwargs) {
  Keywords kw(kwargs, "usage");
  ParamValue table = std::string(), high_band = std::int64_t{0}, share = 0.5;
  const bool has_table =
      kw.take_one(option_spec("table", std::string(), -1e300, 1e300, reports::usage_table_names()), table);
  kw.take_one(option_spec("high-band", std::int64_t{0}, 1, 1 << 20), high_band);
  kw.take_one(option_spec("positional-share", 0.5, 0, 1), share);
  kw.finish();
  analysis::UsageOptions o;
  o.high_band = std::get<std::int64_t>(high_band);
  o.positional_share = std::get<double>(share);
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

}  // namespace posenc::python
