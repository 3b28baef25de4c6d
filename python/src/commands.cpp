#include "commands.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "posenc/analysis/extrapolation.hpp"
#include "posenc/analysis/weight_statistics.hpp"
#include "posenc/encodings/scheme.hpp"
#include "posenc/error.hpp"
#include "posenc/memory.hpp"
#include "posenc/models/model_ropes.hpp"
#include "posenc/models/model_report.hpp"
#include "posenc/models/model_schemes.hpp"
#include "posenc/models/model_weights.hpp"
#include "posenc/models/rope_settings.hpp"
#include "posenc/parallel.hpp"
#include "posenc/render/extrapolation_figure.hpp"
#include "posenc/models/model_engines.hpp"
#include "posenc/render/rope_engines_figure.hpp"
#include "posenc/render/rope_figures.hpp"
#include "posenc/render/table_figure.hpp"
#include "posenc/reports/extrapolation_writers.hpp"
#include "posenc/reports/model_writers.hpp"
#include "posenc/reports/rope_engines_writers.hpp"
#include "posenc/reports/rope_writers.hpp"
#include "posenc/rope/engines/rope_engines.hpp"
#include "posenc/rope/rope.hpp"
#include "posenc/rope/rope_report.hpp"
#include "posenc/schemes/registry.hpp"
#include "posenc/text.hpp"

namespace posenc::python {
namespace {

std::vector<std::string> scheme_names() {
  std::vector<std::string> names;
  for (const auto& s : schemes::schemes()) names.push_back(s.name);
  return names;
}

template <class T>
void fill_rows(const Table& t, T* out) {
  const std::size_t cols = t.cols();
  check_memory(static_cast<std::uint64_t>(t.rows()) * cols, sizeof(T), "the table");
  const std::size_t step = std::max<std::size_t>(1, (std::size_t{1} << 16) / std::max<std::size_t>(cols, 1));
  struct NoBuffer {};
  pipeline<NoBuffer>(
      t.rows(), step,
      [&](std::size_t first, std::size_t n, NoBuffer&) {
        const std::span<T> rows(out + first * cols, n * cols);
        if constexpr (std::is_same_v<T, float>) {
          t.fill_f32(first, n, rows);
        } else {
          t.fill(first, n, rows);
        }
      },
      [](std::size_t, std::size_t, NoBuffer&) {});
}

rope::RopeReport rope_report(const ParamMap& settings) {
  rope::RopeReport r = rope::make_rope_report(models::resolve_rope_config(settings));
  rope::add_rope_bounds(r);
  models::add_layer_ropes(r, settings);
  return r;
}

}  // namespace

std::string generate_scheme(const std::string& scheme, const std::string& hf_config) {
  if (!scheme.empty()) return schemes::find_scheme(scheme).name;
  if (hf_config.empty())
    throw Error(fmt::format("give a scheme ({}) or hf_config=PATH", join_choices(scheme_names())));
  return models::scheme_of_model(hf_config, "", "").scheme;
}

ParamMap generate_values(const std::string& scheme, ParamMap given, const std::string& hf_config) {
  if (hf_config.empty()) return given;
  ParamMap typed;  // the keywords given (T5's mode picks its stack)
  for (const auto& n : given.names())
    if (given.given(n)) typed.set(n, given.value(n), true);
  const models::ModelScheme model = models::scheme_of_model(hf_config, scheme, typed);
  for (const auto& [name, value] : model.values)
    if (!given.given(name)) given.set(name, value, false);
  given.set("hf-config", hf_config, true);
  return given;
}

void fill_table(const Table& t, float* out) { fill_rows(t, out); }
void fill_table(const Table& t, double* out) { fill_rows(t, out); }

std::string rope_json(const ParamMap& settings) {
  std::ostringstream s;
  reports::write_rope_report_json(rope_report(settings), s);
  return s.str();
}

FigureData rope_figure(const ParamMap& settings) {
  const rope::RopeReport r = rope_report(settings);
  FigureData d{render::rope_report_figure(r), {}};
  // As `posenc rope -o x.png` writes them: the resolved settings and where each came from.
  d.metadata = render::figure_metadata(std::get<render::LineFigure>(d.figure).title, {});
  for (const auto& setting : r.config.sources)
    d.metadata.emplace_back(setting.name, fmt::format("{} ({})", setting.value, setting.source));
  d.metadata.emplace_back("attention_factor", fmt::format("{}", r.freqs.attention_factor));
  d.metadata.emplace_back("regimes", fmt::format("{} unchanged, {} interpolated, {} blended, {} rescaled, {} zero",
                                                 r.unchanged, r.interpolated, r.blended, r.rescaled, r.zero));
  return d;
}

std::string rope_engines_json(const ParamMap& settings, std::int64_t len, double tol, bool& within) {
  const auto m = models::compare_model_engines(settings, len, tol);  // every rope, as the command
  within = m.within();
  std::ostringstream s;
  reports::write_model_engines_json(m, s);
  return s.str();
}

models::ModelReport model_report(const std::string& path) {
  models::ModelReport r = models::read_model(path);
  // As `posenc model`: the trained tables and stored RoPE tensors, when the folder or .gguf holds them.
  models::attach_weights(r, r.source);
  analysis::add_weight_statistics(r);
  return r;
}

std::string model_json(const std::string& path) {
  std::ostringstream s;
  reports::write_model_json(model_report(path), s);
  return s.str();
}

std::vector<ParamSpec> extrapolate_specs() {
  const double max_len = static_cast<double>(analysis::kMaxExtrapolationLen);
  const auto spec = [](const char* name, ParamValue v, double lo = -1e300, double hi = 1e300) {
    ParamSpec s;
    s.name = name, s.default_value = std::move(v), s.min = lo, s.max = hi;
    return s;
  };
  return {spec("train-len", std::int64_t{0}, 2, max_len),
          spec("target-len", std::int64_t{0}, 3, max_len),
          spec("methods", std::string("none,linear,ntk,yarn,llama3")),
          spec("schemes", std::string("alibi,t5")),
          spec("samples", std::int64_t{16}, 1, 4096),
          spec("seed", std::int64_t{0}, 0)};
}

std::vector<std::pair<std::string, std::vector<std::string>>> extrapolate_scheme_settings() {
  // As src/cli/extrapolate_command.cpp binds them.
  return {{"rope",
           {"dim", "base", "rotary-dim", "partial-rotary-factor", "factor", "beta-fast", "beta-slow", "mscale",
            "mscale-all-dim", "attention-factor", "truncate", "low-freq-factor", "high-freq-factor", "short-factor",
            "long-factor", "convention", "precision", "hf-config", "layer-type", "assume-family"}},
          {"alibi", {"heads"}},
          {"t5", {"buckets", "max-distance", "mode"}},
          {"kerple", {"kind", "p", "a"}}};
}

analysis::Extrapolation extrapolation(const ExtrapolateArgs& a) {
  analysis::ExtrapolationRequest r;
  r.train_len = a.train_len;
  r.target_len = a.target_len;
  const auto split = [](const std::string& text, const char* option) {
    std::vector<std::string> out;
    if (text.empty()) return out;
    for (std::size_t start = 0;;) {
      const auto comma = text.find(',', start);
      out.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      if (out.back().empty())
        throw Error(fmt::format("{} has an empty name in '{}': give names separated by commas", option, text));
      if (comma == std::string::npos) return out;
      start = comma + 1;
    }
  };
  r.methods = split(a.methods, "methods");
  r.schemes = split(a.schemes, "schemes");
  for (const auto& m : r.methods)
    if (std::find(rope::rope_scaling_names().begin(), rope::rope_scaling_names().end(), m) == rope::rope_scaling_names().end())
      throw Error(fmt::format("methods: unknown method '{}'{}; choose from: {}", m, did_you_mean(m, rope::rope_scaling_names()),
                              join_choices(rope::rope_scaling_names())));
  for (const auto& m : r.schemes)
    if (std::find(analysis::extrapolation_scheme_names().begin(), analysis::extrapolation_scheme_names().end(), m) ==
        analysis::extrapolation_scheme_names().end())
      throw Error(fmt::format("schemes: unknown scheme '{}'{}; choose from: {}", m,
                              did_you_mean(m, analysis::extrapolation_scheme_names()),
                              join_choices(analysis::extrapolation_scheme_names())));
  r.rope = a.rope;
  analysis::set_bias_settings(r, a.alibi, a.t5, a.kerple);
  r.samples = a.samples;
  r.seed = a.seed;
  return analysis::extrapolate(r);
}

std::string extrapolate_json(const ExtrapolateArgs& a) {
  std::ostringstream s;
  reports::write_extrapolation_json(extrapolation(a), s);
  return s.str();
}

FigureData extrapolate_figure(const ExtrapolateArgs& a) {
  FigureData d{render::extrapolation_figure(extrapolation(a)), {}};
  // As `posenc extrapolate -o x.png` writes them: everything that decides the figure.
  d.metadata = render::figure_metadata(std::get<render::LineFigure>(d.figure).title, {});
  d.metadata.emplace_back("command", "posenc extrapolate");
  d.metadata.emplace_back("train-len", fmt::format("{}", a.train_len));
  d.metadata.emplace_back("target-len", fmt::format("{}", a.target_len));
  d.metadata.emplace_back("methods", a.methods);
  d.metadata.emplace_back("schemes", a.schemes);
  d.metadata.emplace_back("samples", fmt::format("{}", a.samples));
  d.metadata.emplace_back("seed", fmt::format("{}", a.seed));
  for (const ParamMap* p : {&a.rope, &a.alibi, &a.t5, &a.kerple})
    for (const auto& n : p->names())
      if (p->given(n)) d.metadata.emplace_back(n, posenc::to_string(p->value(n)));
  return d;
}

FigureData rope_engines_figure(const ParamMap& settings, std::int64_t len, double tol) {
  const auto m = models::compare_model_engines(settings, len, tol);
  FigureData d{render::rope_engines_figure(m), {}};
  // As `posenc rope engines -o x.png` writes them.
  d.metadata = render::figure_metadata(std::get<render::LineFigure>(d.figure).title, {});
  d.metadata.emplace_back("len", fmt::format("{}", len));
  d.metadata.emplace_back("tol", fmt::format("{}", tol));
  for (const auto& t : m.ropes)
    for (const auto& row : t.report.rows)
      d.metadata.emplace_back(t.layer_type.empty() ? std::string(to_string(row.convention))
                                                   : fmt::format("{} {}", t.layer_type, to_string(row.convention)),
                              row.verdict);
  return d;
}

}  // namespace posenc::python
