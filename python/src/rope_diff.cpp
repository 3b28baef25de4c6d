#include "rope_diff.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <optional>
#include <sstream>

#include "posenc/encodings/scheme.hpp"
#include "posenc/error.hpp"
#include "posenc/models/gguf_check.hpp"
#include "posenc/models/rope_settings.hpp"
#include "posenc/models/rope_sides.hpp"
#include "posenc/reports/gguf_check_writers.hpp"
#include "posenc/reports/rope_writers.hpp"
#include "posenc/rope/rope_report.hpp"
#include "posenc/schemes/registry.hpp"

namespace py = pybind11;

namespace posenc::python {
namespace {

/// One side: its config file, and the settings given for it (name, value as text), in order.
struct PySide {
  std::optional<std::string> config;
  std::vector<std::pair<std::string, ParamValue>> given;
};

PySide take_side(Keywords& kw, const std::string& x) {
  PySide s;
  ParamValue config = std::string();
  if (kw.take_one(option_spec("config-" + x, std::string(), -1e300, 1e300, {}, true), config))
    s.config = std::get<std::string>(config);
  for (const auto& spec : schemes::find_scheme("rope").params) {
    if (spec.name == "len" || spec.name == "table" || spec.name == "hf-config") continue;
    ParamSpec side = spec;
    side.name += "-" + x;
    ParamValue v = spec.default_value;
    if (kw.take_one(side, v)) s.given.emplace_back(spec.name, std::move(v));
  }
  return s;
}

// As the command names a side: "ggml", "b.json (ggml)", "hf f64", "hf factor=8".
std::string py_side_label(const PySide& s, const ParamMap& shared) {
  std::optional<std::string> convention, precision;
  std::string rest;
  for (const auto& [name, v] : s.given) {
    const std::string value = posenc::to_string(v);
    if (name == "convention") convention = value;
    else if (name == "precision") precision = value;
    else rest += fmt::format(" {}={}", name, value.size() > 24 ? value.substr(0, 21) + "..." : value);
  }
  std::string label = s.config ? std::filesystem::path(*s.config).filename().string() : convention.value_or(shared.text("convention"));
  if (s.config && convention) label += fmt::format(" ({})", *convention);
  if (precision) label += " " + *precision;
  return label + rest;
}

ParamMap py_side_params(ParamMap p, const PySide& s) {
  if (s.config) p.set("hf-config", *s.config, true);
  for (const auto& [name, v] : s.given) p.set(name, v, true);
  return p;
}

}  // namespace

RopeDiffRun rope_diff_run(Keywords& kw) {
  RopeDiffRun run;
  ParamValue len = std::int64_t{4096}, tol = 1e-6, max_model_len = std::int64_t{0};
  kw.take_one(option_spec("len", std::int64_t{4096}, 1, static_cast<double>(encodings::kMaxLen)), len);
  const bool tol_given = kw.take_one(option_spec("tol", 1e-6, 0), tol);
  kw.take_one(option_spec("max-model-len", std::int64_t{0}, 1, static_cast<double>(encodings::kMaxLen)), max_model_len);
  const PySide a = take_side(kw, "a"), b = take_side(kw, "b");
  const ParamMap shared = rope_settings(kw);
  kw.finish();
  py::gil_scoped_release release;
  if (!a.config && !b.config && a.given.empty() && b.given.empty())
    throw Error("rope diff compares two sides, and nothing differs between them: give config_a=/config_b=, "
                "convention_a=/convention_b=, precision_a=/precision_b= or any setting per side (scaling_b='yarn', factor_b=8, ...)");
  const ParamMap pa = py_side_params(shared, a), pb = py_side_params(shared, b);
  const auto ra = models::resolve_rope_config(pa, a.config ? "--config-a" : "--hf-config");
  const auto rb = models::resolve_rope_config(pb, b.config ? "--config-b" : "--hf-config");
  run.labels = {py_side_label(a, shared), py_side_label(b, shared)};
  run.len = std::get<std::int64_t>(len), run.tol = std::get<double>(tol);
  if (rb.gguf && !ra.gguf) {  // config.json against the GGUF converted from it
    const std::int64_t m = std::get<std::int64_t>(max_model_len);
    run.gguf = models::check_gguf_conversion(ra, rb, m > 0 ? m : rb.max_model_len, tol_given ? run.tol : 1e-4, &pa);
    return run;
  }
  run.warning = models::rope_diff_warning(ra, rb);
  run.diff = rope::compare_rope(ra, rb, run.len);
  if (run.labels.a == run.labels.b) run.labels.a += " (a)", run.labels.b += " (b)";
  return run;
}

void warn_rope_diff(const RopeDiffRun& run) {
  if (!run.warning.empty() && PyErr_WarnEx(PyExc_UserWarning, run.warning.c_str(), 1) != 0)
    throw py::error_already_set();
}

std::string rope_diff(py::dict kwargs) {
  Keywords kw(kwargs, "rope_diff");
  const RopeDiffRun run = rope_diff_run(kw);
  warn_rope_diff(run);
  py::gil_scoped_release release;
  std::ostringstream out;
  if (run.gguf) {
    reports::write_gguf_check_json(*run.gguf, run.labels.a, run.labels.b, out);
  } else {
    reports::write_rope_diff_json(*run.diff, run.labels, run.tol, run.len, out);
  }
  return out.str();
}

}  // namespace posenc::python
