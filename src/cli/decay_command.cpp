// posenc decay SCHEME [scheme options] [--max-offset K] [--from T] [--metric ...] [--symmetric]
//              [--vary NAME=V1,V2,...] [--compare "SCHEME [options]"]...
//              [-o PATH] [--format csv|json|png|svg|ansi]
#include <fmt/format.h>

#include <algorithm>
#include <list>
#include <nlohmann/json.hpp>
#include <sstream>

#include "analysis_support.hpp"
#include "app.hpp"
#include "output_options.hpp"
#include "posenc/analysis/decay.hpp"
#include "posenc/encodings/alibi.hpp"
#include "posenc/error.hpp"
#include "scheme_options.hpp"
#include "validators.hpp"

namespace posenc::cli {
namespace {

using analysis::Series;

struct DecayOptions {
  SchemeOptions scheme;
  OutputOptions output;
  std::int64_t max_offset = 100;
  std::int64_t from = -1;  // -1: 0, or max_offset with --symmetric
  std::string metric = "dot";
  bool symmetric = false;
  std::string vary;
  std::vector<std::string> compare;  // "SCHEME [options]" per extra scheme in the same plot
};

/// One `--compare "SCHEME [options]"`, parsed the way the words after `posenc decay` are.
struct Compared {
  std::string spec;
  CLI::App app{"", "decay --compare"};
  SchemeOptions source;
};

std::unique_ptr<Compared> parse_compare(const std::string& spec) {
  auto c = std::make_unique<Compared>();
  c->spec = spec;
  c->source.bind(c->app);
  std::vector<std::string> words;
  std::istringstream in(spec);
  for (std::string w; in >> w;) words.push_back(w);
  std::reverse(words.begin(), words.end());  // CLI11 takes argv reversed
  try {
    c->app.parse(words);
    c->source.scheme();  // unknown words, neither or both of SCHEME and --input
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    std::replace(what.begin(), what.end(), '\n', ' ');
    throw Error(fmt::format("--compare '{}': {}", spec, what));
  } catch (const Error& e) {
    throw Error(fmt::format("--compare '{}': {}", spec, e.what()));
  }
  return c;
}

bool is_causal(const std::string& scheme, const ParamMap& p) {
  if (scheme == "alibi") return p.text("form") == "causal";
  if (scheme == "t5") return p.text("mode") == "causal";
  return false;
}

// The curves of one parameter setting.
std::vector<Series> series_for(const std::string& scheme, const ParamMap& p, const SchemeOptions& source,
                               const std::string& metric_name, const std::vector<std::int64_t>& offsets,
                               std::int64_t from, std::string& method) {
  if (scheme == "alibi") {
    const auto slopes = encodings::alibi_slopes(p.integer("heads"));
    const std::int64_t only = p.integer("head");
    std::vector<Series> out;
    for (std::size_t h = 0; h < slopes.size(); ++h)
      if (only < 0 || static_cast<std::size_t>(only) == h)
        out.push_back({fmt::format("head {} (m={})", h, slopes[h]), analysis::alibi_decay(slopes[h], offsets, is_causal(scheme, p))});
    method = "formula: bias -m*|delta| (causal: later keys masked)";
    return out;
  }
  if (scheme == "t5") {
    const encodings::T5Options t5{p.integer("buckets"), p.integer("max-distance"), !is_causal(scheme, p)};
    encodings::check_t5(t5);
    method = "formula: bucket of rp = delta";
    return {{"bucket", analysis::t5_decay(t5, offsets)}};
  }
  if (scheme == "rope") {
    const auto view = rope_view(scheme_table(scheme, p, 1)->info());
    method = "closed form: RoFormer bound and sum_i 2cos(delta theta_i)";
    return {{"roformer bound", analysis::roformer_bound(view.theta, offsets)},
            {"q=k=ones", analysis::rope_ones_dot(view.theta, offsets)}};
  }
  const analysis::Metric metric = analysis::parse_metric(metric_name);
  std::int64_t last = from;
  for (std::int64_t d : offsets) last = std::max(last, from + d);
  const auto table = scheme.empty() ? source.make_table() : scheme_table(scheme, p, static_cast<std::size_t>(last + 1));
  if (table->info().shape.size() != 2) throw Error("decay needs a 2-D table (rows = positions)");
  if (const auto known = analysis::known_sinusoids(table->info())) {
    method = "closed form: sum_k cos(w_k delta)";
    return {{analysis::metric_name(metric), analysis::decay_sinusoids(*known, offsets, metric)}};
  }
  method = "direct: rows of the table";
  // Checked before anything is computed, and only the rows from + offset are filled: the
  // whole table may be far larger than the curve needs.
  const auto n = static_cast<std::int64_t>(table->rows());
  if (from < 0 || from >= n) throw Error(fmt::format("--from {} is outside the table's {} positions", from, n));
  const auto [lo_d, hi_d] = std::minmax_element(offsets.begin(), offsets.end());
  for (const std::int64_t d : {*lo_d, *hi_d})
    if (from + d < 0 || from + d >= n)
      throw Error(fmt::format("--from {} with offset {} needs position {}, outside the table's {} positions "
                              "(lower --max-offset or give more positions)",
                              from, d, from + d, n));
  const std::int64_t lo = std::min(from, from + *lo_d), hi = std::max(from, from + *hi_d);
  Matrix rows(static_cast<std::size_t>(hi - lo + 1), table->cols());
  table->fill(static_cast<std::size_t>(lo), rows.rows(), rows.data());
  return {{analysis::metric_name(metric), analysis::decay_direct(rows, from - lo, offsets, metric)}};
}

void write_csv(std::ostream& s, const std::vector<std::int64_t>& offsets, const std::vector<Series>& series, bool f32) {
  std::string line = "offset";
  for (const auto& x : series) {
    line += ',';  // appended piecewise: GCC 12 warns (-Wrestrict) on "," + std::string
    line += csv_field(x.name);
  }
  s << line << "\n";
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    line = fmt::format("{}", offsets[i]);
    for (const auto& x : series) {
      line += ',';
      line += number_text(x.values[i], f32);
    }
    s << line << "\n";
  }
}

int run_decay(Context& ctx, const DecayOptions& o) {
  const io::Format format = o.output.resolve();
  o.output.check_path();
  const std::string scheme = o.scheme.scheme();
  const ParamMap base = scheme.empty() ? ParamMap() : o.scheme.values();
  const bool past_only = !scheme.empty() && is_causal(scheme, base);
  const auto offsets = analysis::decay_offsets(o.max_offset, o.symmetric, past_only);
  const std::int64_t from = o.from >= 0 ? o.from : (o.symmetric || past_only ? o.max_offset : 0);
  std::vector<Series> all;
  std::vector<std::string> methods;  // how the curves were computed, once each
  std::vector<std::string> legend;   // figure legend: just the variant when it has one curve
  const auto add_curves = [&](const std::string& label, const std::string& sch, const ParamMap& p, const SchemeOptions& source) {
    std::string method;
    auto curves = series_for(sch, p, source, o.metric, offsets, from, method);
    if (std::find(methods.begin(), methods.end(), method) == methods.end()) methods.push_back(method);
    for (auto& s : curves) {
      legend.push_back(label.empty() || curves.size() > 1 ? (label.empty() ? s.name : label + ": " + s.name) : label);
      if (!label.empty()) s.name = label + ": " + s.name;
      all.push_back(std::move(s));
    }
  };
  std::vector<std::unique_ptr<Compared>> compared;
  for (const auto& spec : o.compare) compared.push_back(parse_compare(spec));
  // With --compare, every curve is named after what made it.
  const std::string own = compared.empty() ? "" : scheme.empty() ? o.scheme.input() : scheme;
  for (const auto& v : make_variants(scheme, base, o.vary))
    add_curves(own.empty() || v.label.empty() ? own + v.label : own + " " + v.label, scheme, v.params, o.scheme);
  for (const auto& c : compared) {
    const std::string sch = c->source.scheme();
    add_curves(c->spec, sch, sch.empty() ? ParamMap() : c->source.values(), c->source);
  }
  const std::string method = fmt::format("{}", fmt::join(methods, "; "));
  const bool f32 = o.output.dtype == "float32";
  if (format == io::Format::kCsv) {
    emit(ctx, o.output, false, [&](std::ostream& s) { write_csv(s, offsets, all, f32); });
  } else if (format == io::Format::kJson) {
    nlohmann::ordered_json j;
    j["command"] = "decay";
    j["scheme"] = scheme.empty() ? "input" : scheme;
    j["params"] = scheme.empty() ? nlohmann::ordered_json{{"input", o.scheme.input()}} : entries_json([&] {
      std::vector<std::pair<std::string, ParamValue>> e;
      for (const auto& n : base.names()) e.emplace_back(n, base.value(n));
      return e;
    }());
    j["metric"] = o.metric;
    j["from"] = from;
    j["method"] = method;
    if (!o.vary.empty()) j["vary"] = o.vary;
    if (!o.compare.empty()) j["compare"] = o.compare;
    j["offset"] = offsets;
    j["series"] = nlohmann::ordered_json::array();
    for (const auto& s : all) {
      nlohmann::ordered_json values = nlohmann::ordered_json::array();
      for (double v : s.values) values.push_back(std::isfinite(v) ? nlohmann::ordered_json(f32 ? static_cast<float>(v) : v) : nullptr);
      j["series"].push_back({{"name", s.name}, {"values", std::move(values)}});
    }
    emit(ctx, o.output, false, [&](std::ostream& s) { s << j.dump(2) << "\n"; });
  } else {
    render::LineFigure fig;
    const std::string who = scheme.empty() ? o.scheme.input() : scheme;
    const auto kind = scheme_kind(scheme);
    const std::string metric = o.metric == "dot" ? "dot product" : o.metric == "cosine" ? "cosine similarity" : o.metric;
    fig.y_label = scheme == "alibi" ? "bias" : scheme == "t5" ? "bucket" : kind == SchemeKind::kRope ? "score" : metric;
    fig.title = compared.empty()
                    ? fmt::format("{} against the offset: {}{}", fig.y_label, who, o.vary.empty() ? "" : " (" + o.vary + ")")
                    : fmt::format("{} against the offset", fig.y_label);
    // Several methods (with --compare) are too long for a subtitle: JSON and the metadata keep them.
    fig.subtitle = methods.size() == 1 ? fmt::format("{}; query position T = {}", method, from)
                                       : fmt::format("query position T = {}", from);
    fig.x_label = "offset Δ = key − query";
    fig.x.assign(offsets.begin(), offsets.end());
    for (std::size_t i = 0; i < all.size(); ++i) fig.series.push_back({legend[i], all[i].values});
    std::vector<std::pair<std::string, ParamValue>> params;
    for (const auto& n : base.names()) params.emplace_back(n, base.value(n));
    params.emplace_back("metric", o.metric);
    params.emplace_back("method", method);
    if (!o.vary.empty()) params.emplace_back("vary", o.vary);
    for (const auto& spec : o.compare) params.emplace_back("compare", spec);
    emit_figure(ctx, o.output, fig, figure_metadata(fig.title, params));
  }
  return 0;
}

}  // namespace

void add_decay_command(CLI::App& app, Context& ctx, int& exit_code) {
  auto opts = std::make_shared<DecayOptions>();
  CLI::App* cmd = app.add_subcommand("decay", "similarity of positions T and T+delta against the offset delta");
  cmd->footer(
      "offsets are delta = key - query, 0..K (--symmetric: -K..K; causal alibi/t5: -K..0)\n"
      "series: absolute tables: --metric of PE_T and PE_T+delta (closed form for sinusoidal);\n"
      "rope: RoFormer's bound and the q=k=ones curve; alibi: bias per head; t5: bucket\n"
      "examples:\n"
      "  posenc decay sinusoidal --dim 128 --max-offset 200 -o decay.png\n"
      "  posenc decay sinusoidal --dim 64 --vary base=100,1000,10000 --format csv\n"
      "  posenc decay sinusoidal --dim 128 --compare 'learned --dim 128' --compare 'rope --dim 128' -o decay.png\n"
      "  posenc decay alibi --heads 8 --max-offset 50 --symmetric --format json");
  opts->scheme.bind(*cmd);
  opts->output.bind(*cmd, {io::Format::kCsv, io::Format::kJson, io::Format::kPng});
  opts->output.figure.bind_log_axes(*cmd);
  integer_option(cmd->add_option("--max-offset", opts->max_offset, "largest offset K")->capture_default_str(), 0, 1 << 24);
  integer_option(cmd->add_option("--from", opts->from, "position T (default 0; K with --symmetric or a causal scheme)"), 0, 1 << 30);
  cmd->add_option("--metric", opts->metric, "dot, cosine or distance (absolute tables)")
      ->capture_default_str()
      ->check(CLI::IsMember({"dot", "cosine", "distance"}));
  cmd->add_flag("--symmetric", opts->symmetric, "offsets -K..K");
  cmd->add_option("--vary", opts->vary, "one curve per value of a scheme parameter, e.g. base=100,1000,10000")
      ->type_name("NAME=V1,V2,...");
  cmd->add_option("--compare", opts->compare,
                  "another scheme's curves in the same output, written as after 'posenc decay' "
                  "(quoted; repeat for more), e.g. --compare 'learned --dim 128'")
      ->type_name("'SCHEME [OPTIONS]'")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->callback([opts, &ctx, &exit_code] { exit_code = run_decay(ctx, *opts); });
}

}  // namespace posenc::cli
