#include "figures.hpp"

#include <fmt/format.h>

#include "analyses.hpp"
#include "posenc/encodings/scheme.hpp"
#include "posenc/error.hpp"
#include "posenc/render/analysis_figures.hpp"
#include "posenc/render/figure.hpp"
#include "posenc/render/model_figure.hpp"
#include "posenc/render/rope_figures.hpp"
#include "posenc/render/table_figure.hpp"
#include "rope_diff.hpp"
#include "usage.hpp"

namespace py = pybind11;

namespace posenc::python {

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
  // A table heatmap's own keywords (reduce, vmin, vmax: taken before kw.finish()) and its options.
  bool has_vmin = false, has_vmax = false;
  const auto take_table_keywords = [&] {
    kw.take_one(option_spec("reduce", std::string("auto"), -1e300, 1e300, {"auto", "mean", "max"}), reduce);
    has_vmin = kw.take_one(option_spec("vmin", 0.0), vmin);
    has_vmax = kw.take_one(option_spec("vmax", 0.0), vmax);
  };
  const auto table_options = [&] {
    render::TableFigureOptions o;
    o.width = static_cast<int>(std::get<std::int64_t>(width)), o.height = static_cast<int>(std::get<std::int64_t>(height));
    o.scale = std::get<double>(scale), o.title = std::get<std::string>(title), o.cmap = std::get<std::string>(cmap);
    o.reduce = std::get<std::string>(reduce);
    if (has_vmin) o.vmin = std::get<double>(vmin);
    if (has_vmax) o.vmax = std::get<double>(vmax);
    return o;
  };
  if (command == "generate") {
    if (args.size() > 1) throw Error("figure('generate', SCHEME, ...) takes one scheme name");
    take_table_keywords();
    const std::string scheme = args.empty() ? std::string() : py::str(args[0]).cast<std::string>();
    auto table = make_table(scheme, kw);
    kw.finish();
    const render::TableFigureOptions o = table_options();
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
    take_table_keywords();
    bool float64 = false;
    auto table = similarity_table(args.empty() ? std::string() : py::str(args[0]).cast<std::string>(), kw, true, float64);
    const render::TableFigureOptions o = table_options();
    py::gil_scoped_release release;
    FigureData d{render::table_heatmap(*table, o), render::figure_metadata(table->info().title, table->info().params)};
    apply(d.figure);
    return d;
  }
  if (command == "rope_diff" || command == "rope diff") {
    if (!args.empty()) throw Error("figure('rope_diff', ...) takes keywords only (those of rope_diff())");
    const RopeDiffRun run = rope_diff_run(kw);
    if (run.gguf) throw Error("figure('rope_diff'): a .gguf config_b is checked as text or json, not drawn (use rope_diff())");
    warn_rope_diff(run);
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
    const DecayOutcome o = decay_outcome(scheme, kw, /*for_figure=*/true);
    py::gil_scoped_release release;
    const auto& st = o.settings;
    render::DecayFigureText t;
    t.who = st.scheme.empty() ? st.input : st.scheme;
    t.scheme = st.scheme, t.metric = st.metric, t.vary = st.vary, t.compared = !st.compare.empty();
    t.normalised = o.normalised, t.from = st.from;
    render::LineFigure line = render::decay_figure(t, o.offsets, o.run);
    std::vector<std::pair<std::string, ParamValue>> params;  // what the command's figure metadata lists
    const std::string varied = st.vary.substr(0, st.vary.find('='));
    for (const auto& n : st.params.names())
      if (st.vary.empty() || n != varied) params.emplace_back(n, st.params.value(n));
    if (o.run.uses_metric) params.emplace_back("metric", st.metric);
    if (o.run.uses_qk) params.emplace_back("qk", fmt::format("{} (seed {})", st.qk, st.seed));
    params.emplace_back("method", o.run.method());
    if (!st.vary.empty()) params.emplace_back("vary", st.vary);
    for (const auto& spec : st.compare) params.emplace_back("compare", spec);
    render::Metadata metadata = render::figure_metadata(line.title, params);
    FigureData d{std::move(line), std::move(metadata)};
    apply(d.figure);
    return d;
  }
  if (command == "model") {
    if (args.size() != 1) throw Error("figure('model', PATH, ...) takes one path (a config.json, a folder or a .gguf)");
    ParamValue weights = std::string();
    const bool has_weights = kw.take_one(
        option_spec("weights-figure", std::string(), -1e300, 1e300,
                    std::vector<std::string>(std::begin(render::kWeightsFigures), std::end(render::kWeightsFigures))),
        weights);
    take_table_keywords();
    kw.finish();
    const render::TableFigureOptions o = table_options();
    const std::string path = py::str(args[0]).cast<std::string>();
    py::gil_scoped_release release;
    const models::ModelReport r = model_report(path);
    FigureData d;
    if (has_weights) {
      d.figure = render::weights_figure(r, std::get<std::string>(weights), o);
      apply(d.figure);
      d.metadata = render::figure_metadata(std::visit([](const auto& x) { return x.title; }, d.figure), {});
    } else {
      d.figure = render::model_figure(r);
      apply(d.figure);
      d.metadata = render::figure_metadata(std::get<render::LineFigure>(d.figure).title, {});
    }
    // As `posenc model PATH -o x.png` writes them.
    d.metadata.emplace_back("source", r.source);
    if (!has_weights) d.metadata.emplace_back("convention", r.convention);
    return d;
  }
  if (command == "usage") {
    if (args.size() != 1) throw Error("figure('usage', PATH, ...) takes one path (a model folder or a .gguf)");
    const render::TableFigureOptions o = table_options();  // as `posenc usage`: no reduce, vmin, vmax keywords
    return usage_figure(py::str(args[0]).cast<std::string>(), kw, o, apply);
  }
  throw Error(fmt::format("figure('{}'): the figures of generate, rope, decay, project, similarity, extrapolate, "
                          "rope_engines, rope_diff, model and usage are drawn here; choose one of: generate, rope, "
                          "decay, project, similarity, extrapolate, rope_engines, rope_diff, model, usage",
                          command));
}

}  // namespace posenc::python
