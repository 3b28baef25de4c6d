#include "analyses.hpp"

#include <pybind11/stl.h>

#include <fmt/format.h>

#include <cmath>
#include <sstream>

#include "arrays.hpp"
#include "commands.hpp"
#include "posenc/analysis/decay_sources.hpp"
#include "posenc/analysis/identity.hpp"
#include "posenc/analysis/scheme_identities.hpp"
#include "posenc/analysis/scheme_similarity.hpp"
#include "posenc/analysis/scheme_traits.hpp"
#include "posenc/analysis/sinusoids.hpp"
#include "posenc/encodings/scheme.hpp"
#include "posenc/error.hpp"
#include "posenc/reports/decay_writers.hpp"
#include "posenc/schemes/registry.hpp"
#include "posenc/text.hpp"

namespace py = pybind11;

namespace posenc::python {
namespace {

py::object value_object(const ParamValue& v) {
  return std::visit(
      [](const auto& x) -> py::object {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::vector<double>> || std::is_same_v<T, std::vector<std::int64_t>>) {
          T copy = x;
          const std::size_t n = copy.size();
          return owned_array(std::move(copy), {n});
        } else {
          return py::cast(x);
        }
      },
      v);
}

py::dict entries_dict(const std::vector<std::pair<std::string, ParamValue>>& entries) {
  py::dict d;
  for (const auto& [k, v] : entries) d[py::str(k)] = value_object(v);
  return d;
}

py::dict identity_dict(const analysis::IdentityResult& r, bool with_result) {
  py::dict d;
  d["name"] = r.name;
  if (with_result) {
    d["holds"] = r.holds;
    d["max_error"] = std::isfinite(r.max_error) ? py::object(py::float_(r.max_error)) : py::object(py::none());
    d["tolerance"] = r.tolerance;
    py::dict worst;
    for (const auto& [k, v] : r.worst) worst[py::str(k)] = v;
    d["worst"] = worst;
    d["measure"] = r.measure;
  }
  d["note"] = r.note;
  return d;
}

}  // namespace

ParamMap analysis_values(const std::string& scheme_arg, Keywords& kw, std::string& scheme) {
  ParamValue hf = std::string(), gguf = std::string();
  const bool has_hf = kw.take_one(option_spec("hf-config", std::string(), -1e300, 1e300, {}, true), hf);
  const bool has_gguf = kw.take_one(option_spec("gguf", std::string(), -1e300, 1e300, {}, true), gguf);
  if (has_hf && has_gguf) throw Error("give hf_config= or gguf=, not both");
  const std::string model = std::get<std::string>(has_gguf ? gguf : hf);
  {
    py::gil_scoped_release release;
    scheme = generate_scheme(scheme_arg, model);
  }
  std::vector<ParamSpec> specs = schemes::find_scheme(scheme).params;
  if (!model.empty())
    specs.erase(std::remove_if(specs.begin(), specs.end(), [](const ParamSpec& s) { return s.name == "hf-config"; }), specs.end());
  ParamMap given;
  kw.take(specs, given);
  py::gil_scoped_release release;
  return analysis::analysis_params(scheme, generate_values(scheme, std::move(given), model));
}

std::unique_ptr<Table> analysis_table(const std::string& scheme_arg, Keywords& kw, std::string& scheme, ParamMap& params) {
  params = analysis_values(scheme_arg, kw, scheme);
  py::gil_scoped_release release;
  return schemes::make_table(scheme, params);
}

py::dict table_dict(const Table& t, bool float64) {
  const TableInfo& info = t.info();
  py::dict d;
  d["scheme"] = info.scheme;
  d["params"] = entries_dict(info.params);
  if (!info.results.empty()) d["results"] = entries_dict(info.results);
  d["shape"] = py::tuple(py::cast(info.shape));
  d["axes"] = info.axis_names;
  if (!info.column_names.empty()) d["columns"] = info.column_names;
  d["dtype"] = float64 ? "float64" : "float32";
  if (info.first_position != 0) d["first_position"] = info.first_position;
  std::size_t n = 1;
  for (const auto s : info.shape) n *= s;
  if (float64) {
    std::unique_ptr<double[]> data;
    {
      py::gil_scoped_release release;
      data.reset(new double[n]);
      fill_table(t, data.get());
    }
    d["data"] = owned_array(std::move(data), info.shape);
  } else {
    std::unique_ptr<float[]> data;
    {
      py::gil_scoped_release release;
      data.reset(new float[n]);
      fill_table(t, data.get());
    }
    d["data"] = owned_array(std::move(data), info.shape);
  }
  return d;
}

std::unique_ptr<Table> similarity_table(const std::string& scheme_arg, Keywords& kw, bool for_figure, bool& float64) {
  ParamValue metric = std::string("cosine"), qk = std::string("ones"), seed = std::int64_t{0}, dtype = std::string("float32");
  kw.take_one(option_spec("metric", std::string("cosine"), -1e300, 1e300, {"dot", "cosine", "distance"}), metric);
  kw.take_one(option_spec("qk", std::string("ones"), -1e300, 1e300, {"ones", "random", "same"}), qk);
  kw.take_one(option_spec("seed", std::int64_t{0}, 0), seed);
  kw.take_one(option_spec("dtype", std::string("float32"), -1e300, 1e300, {"float32", "float64"}), dtype);
  float64 = std::get<std::string>(dtype) == "float64";
  // As the command: a bias scheme has no vectors, refused before its table is made.
  if (!scheme_arg.empty()) analysis::check_similarity_scheme(schemes::find_scheme(scheme_arg).name);
  std::string scheme;
  ParamMap params;
  auto table = analysis_table(scheme_arg, kw, scheme, params);
  kw.finish();
  py::gil_scoped_release release;
  analysis::check_similarity_scheme(scheme);
  return analysis::scheme_similarity(scheme, *table, std::get<std::string>(metric), std::get<std::string>(qk),
                                     static_cast<std::uint64_t>(std::get<std::int64_t>(seed)), for_figure);
}

py::dict similarity(const std::string& scheme_arg, py::dict kwargs) {
  Keywords kw(kwargs, scheme_arg.empty() ? "similarity" : "similarity " + scheme_arg);
  bool float64 = false;
  const auto result = similarity_table(scheme_arg, kw, false, float64);
  return table_dict(*result, float64);
}

DecayOutcome decay_outcome(const std::string& scheme_arg, Keywords& kw, bool for_figure) {
  ParamValue max_offset = std::int64_t{100}, from = std::int64_t{0}, metric = std::string("dot"), symmetric = false,
             qk = std::string("ones"), seed = std::int64_t{0}, no_extras = false, dtype = std::string("float32"),
             vary = std::string(), input = std::string();
  kw.take_one(option_spec("max-offset", std::int64_t{100}, 0, 1 << 24), max_offset);
  const bool from_given = kw.take_one(option_spec("from", std::int64_t{0}, 0, 1 << 30), from);
  const bool metric_given = kw.take_one(option_spec("metric", std::string("dot"), -1e300, 1e300, {"dot", "cosine", "distance"}), metric);
  kw.take_one(option_spec("symmetric", false), symmetric);
  const bool qk_given = kw.take_one(option_spec("qk", std::string("ones"), -1e300, 1e300, {"ones", "random", "same"}), qk);
  const bool seed_given = kw.take_one(option_spec("seed", std::int64_t{0}, 0), seed);
  kw.take_one(option_spec("no-extras", false), no_extras);
  kw.take_one(option_spec("dtype", std::string("float32"), -1e300, 1e300, {"float32", "float64"}), dtype);
  kw.take_one(option_spec("vary", std::string()), vary);
  const bool has_input = kw.take_one(option_spec("input", std::string(), -1e300, 1e300, {}, true), input);
  const std::vector<std::string> compare = kw.take_texts("compare");
  DecayOutcome d;
  std::string& scheme = d.settings.scheme;
  const std::string& path = std::get<std::string>(input);
  ParamMap given;
  if (has_input) {  // a table of the user's: as `posenc decay --input FILE`
    if (!scheme_arg.empty())
      throw Error(fmt::format("give either a SCHEME or input=, not both (got '{}' and input='{}')", scheme_arg, path));
    if (kw.has("hf_config") || kw.has("gguf"))
      throw Error(fmt::format("give either hf_config= or input=, not both (input='{}')", path));
  } else {
    given = analysis_values(scheme_arg, kw, scheme);
  }
  kw.finish();
  std::vector<analysis::SchemeWords> compared;
  for (const auto& spec : compare) compared.push_back(analysis::parse_scheme_words(spec));
  py::gil_scoped_release release;
  const std::int64_t k = std::get<std::int64_t>(max_offset);
  const bool sym = std::get<bool>(symmetric), past_only = !scheme.empty() && analysis::is_causal(scheme, given);
  analysis::DecayRequest req;
  req.offsets = analysis::decay_offsets(k, sym, past_only);
  req.from = from_given ? std::get<std::int64_t>(from) : (sym || past_only ? k : 0);
  req.metric = std::get<std::string>(metric), req.qk = std::get<std::string>(qk);
  req.seed = static_cast<std::uint64_t>(std::get<std::int64_t>(seed)), req.extras = !std::get<bool>(no_extras);
  analysis::DecayRequest ends = req;  // what fit_len reads: the first and last offset
  ends.offsets = {req.offsets.front(), req.offsets.back()};
  const ParamMap base = analysis::fit_len(scheme, given, ends);
  // The sources as the command makes them: one per --vary value (or the one setting), or the
  // input table; then each --compare. With --compare, every curve is named after its source.
  const std::string& varied_text = std::get<std::string>(vary);
  const std::string varied = varied_text.substr(0, varied_text.find('='));
  const auto variants = analysis::make_variants(scheme, base, varied_text);
  const std::string own = compare.empty() ? "" : scheme.empty() ? path : scheme;
  std::vector<analysis::DecaySource> sources;
  const auto read_input = [path] { return analysis::input_table(path, formats::ReadOptions{}); };
  for (const auto& v : variants)
    sources.push_back({own.empty() || v.label.empty() ? own + v.label : own + " " + v.label, scheme, v.params,
                       scheme.empty() ? std::function<std::unique_ptr<Table>()>(read_input) : nullptr});
  for (std::size_t i = 0; i < compared.size(); ++i) {
    const auto& c = compared[i];
    const std::string file = c.input;
    sources.push_back({compare[i], c.scheme, c.scheme.empty() ? ParamMap() : analysis::analysis_params(c.scheme, c.values),
                       [file] { return analysis::input_table(file, formats::ReadOptions{}); }});
  }
  for (auto& src : sources) src.params = analysis::fit_len(src.scheme, src.params, ends);
  d.normalised = for_figure && !compare.empty() && req.metric == "dot";
  d.run = analysis::decay_run(sources, req, d.normalised);
  analysis::refuse_unused_decay_options(d.run, scheme.empty() ? "an --input table" : scheme, metric_given,
                                        qk_given || seed_given, std::get<bool>(no_extras));
  d.settings.input = path, d.settings.params = base, d.settings.vary = varied_text;
  for (const auto& v : variants)
    if (!varied_text.empty()) d.settings.varied_values.push_back(v.params.value(varied));
  d.settings.metric = req.metric, d.settings.qk = req.qk, d.settings.seed = req.seed;
  d.settings.no_extras = std::get<bool>(no_extras), d.settings.from = req.from;
  d.settings.compare = compare;
  d.settings.float32 = std::get<std::string>(dtype) == "float32";
  d.offsets = std::move(req.offsets);
  return d;
}

std::string decay(const std::string& scheme_arg, py::dict kwargs) {
  Keywords kw(kwargs, scheme_arg.empty() ? "decay" : "decay " + scheme_arg);
  const DecayOutcome d = decay_outcome(scheme_arg, kw);
  py::gil_scoped_release release;
  std::ostringstream out;
  reports::write_decay_json(d.settings, d.offsets, d.run, out);
  return out.str();
}

analysis::Projection projection(const std::string& scheme_arg, Keywords& kw, bool& float64) {
  ParamValue dims = std::string(), pca = std::int64_t{0}, dtype = std::string("float32");
  kw.take_one(option_spec("dims", std::string()), dims);
  kw.take_one(option_spec("pca", std::int64_t{2}, 2, 3), pca);
  kw.take_one(option_spec("dtype", std::string("float32"), -1e300, 1e300, {"float32", "float64"}), dtype);
  float64 = std::get<std::string>(dtype) == "float64";
  std::vector<std::size_t> columns;
  const std::string& text = std::get<std::string>(dims);
  for (std::size_t start = 0; !text.empty() && start <= text.size();) {
    const auto comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    std::size_t used = 0;
    long long c = -1;
    try {
      c = std::stoll(item, &used);
    } catch (const std::exception&) {
    }
    if (item.empty() || used != item.size() || c < 0 || c >= encodings::kMaxDim)
      throw Error(fmt::format("dims='{}': column indices (0-based) below {}, e.g. dims=[0, 1, 2]", text, encodings::kMaxDim));
    columns.push_back(static_cast<std::size_t>(c));
    start = comma + 1;
  }
  const int components = static_cast<int>(std::get<std::int64_t>(pca));
  analysis::check_project_options(columns, components);
  if (!scheme_arg.empty()) analysis::check_project_scheme(schemes::find_scheme(scheme_arg).name);
  std::string scheme;
  ParamMap params;
  auto table = analysis_table(scheme_arg, kw, scheme, params);
  kw.finish();
  py::gil_scoped_release release;
  analysis::check_project_scheme(scheme);
  return analysis::project_table(*table, columns, components, "");
}

py::dict project(const std::string& scheme_arg, py::dict kwargs) {
  Keywords kw(kwargs, scheme_arg.empty() ? "project" : "project " + scheme_arg);
  bool float64 = false;
  const auto p = projection(scheme_arg, kw, float64);
  if (!p.note.empty() && PyErr_WarnEx(PyExc_UserWarning, p.note.c_str(), 1) != 0) throw py::error_already_set();
  return table_dict(*p.table, float64);
}

py::dict check(const std::string& scheme_arg, py::dict kwargs) {
  Keywords kw(kwargs, scheme_arg.empty() ? "check" : "check " + scheme_arg);
  analysis::CheckSettings s;
  std::vector<std::string> names;
  for (const auto& i : analysis::identity_infos()) names.push_back(i.name);
  ParamValue identity = std::string(), tol = s.tolerance, min_distance = s.min_distance, bound = s.bound,
             max_offset = s.max_offset, max_work = s.max_work, qk = s.qk, seed = std::int64_t{0};
  kw.take_one(option_spec("identity", std::string()), identity);
  kw.take_one(option_spec("tol", s.tolerance, 0), tol);
  kw.take_one(option_spec("min-distance", s.min_distance, 0), min_distance);
  kw.take_one(option_spec("bound", s.bound, 0), bound);
  kw.take_one(option_spec("max-offset", s.max_offset, 0, 1 << 30), max_offset);
  kw.take_one(option_spec("max-work", s.max_work, 0), max_work);
  kw.take_one(option_spec("qk", s.qk, -1e300, 1e300, {"random", "same", "ones"}), qk);
  kw.take_one(option_spec("seed", std::int64_t{0}, 0), seed);
  std::vector<std::string> identities;
  for (std::size_t start = 0; !std::get<std::string>(identity).empty();) {
    const std::string& text = std::get<std::string>(identity);
    const auto comma = text.find(',', start);
    const std::string name = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (std::find(names.begin(), names.end(), name) == names.end())
      throw Error(fmt::format("identity='{}': choose from: {}{}", name, join_choices(names), did_you_mean(name, names)));
    identities.push_back(name);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  s.tolerance = std::get<double>(tol), s.min_distance = std::get<double>(min_distance), s.bound = std::get<double>(bound);
  s.max_offset = std::get<std::int64_t>(max_offset), s.max_work = std::get<double>(max_work);
  s.qk = std::get<std::string>(qk), s.seed = static_cast<std::uint64_t>(std::get<std::int64_t>(seed));
  std::string scheme;
  ParamMap params;
  auto table = analysis_table(scheme_arg, kw, scheme, params);
  kw.finish();
  analysis::CheckRun run;
  {
    py::gil_scoped_release release;
    const auto& shape = table->info().shape;
    const std::size_t positions = shape.size() >= 2 ? shape[shape.size() - 2] : table->rows();
    const bool only_bounded = !identities.empty() && std::all_of(identities.begin(), identities.end(),
                                                                 [](const auto& n) { return n == "bounded"; });
    if (positions < 2 && !only_bounded)
      throw Error(fmt::format("check needs at least 2 positions: the identities compare positions (got {}; give len=2 or more)",
                              positions));
    run = analysis::run_identities(scheme, params, *table, identities, s);
  }
  bool all_hold = true;
  for (const auto& r : run.results) all_hold = all_hold && r.holds;
  py::dict d;
  d["scheme"] = scheme;
  d["params"] = entries_dict(table->info().params);
  d["all_hold"] = all_hold;
  py::list decided, skipped;
  for (const auto& r : run.results) decided.append(identity_dict(r, true));
  for (const auto& r : run.skipped) skipped.append(identity_dict(r, false));
  d["identities"] = decided;
  d["skipped"] = skipped;
  return d;
}

}  // namespace posenc::python
