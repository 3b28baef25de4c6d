// posenc decay SCHEME [scheme options] [--max-offset K] [--from T] [--metric ...] [--symmetric]
//              [--qk ones|same|random] [--seed S] [--no-extras]
//              [--vary NAME=V1,V2,...] [--compare "SCHEME [options]"]...
//              [-o PATH] [--format csv|json|png|svg|ansi]
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "analysis_support.hpp"
#include "app.hpp"
#include "decay_series.hpp"
#include "output_options.hpp"
#include "posenc/analysis/decay_run.hpp"
#include "posenc/analysis/scheme_traits.hpp"
#include "posenc/error.hpp"
#include "posenc/render/analysis_figures.hpp"
#include "posenc/reports/decay_writers.hpp"
#include "scheme_options.hpp"
#include "validators.hpp"

namespace posenc::cli {
namespace {

using analysis::DecayRequest;
using analysis::Series;

struct DecayOptions {
  SchemeOptions scheme;
  OutputOptions output;
  std::int64_t max_offset = 100;
  std::int64_t from = -1;  // -1: 0, or max_offset with --symmetric
  std::string metric = "dot";
  bool symmetric = false;
  bool no_extras = false;
  std::string qk = "ones";
  std::uint64_t seed = 0;
  std::string vary;
  std::vector<std::string> compare;  // "SCHEME [options]" per extra scheme in the same plot
  // Whether the user typed them: options that shape no curve are refused, not ignored.
  CLI::Option* metric_option = nullptr;
  CLI::Option* qk_option = nullptr;
  CLI::Option* seed_option = nullptr;
};

void write_csv_header(std::ostream& s, const std::vector<Series>& series) {
  std::string line = "offset";
  for (const auto& x : series) {
    line += ',';  // appended piecewise: GCC 12 warns (-Wrestrict) on "," + std::string
    line += csv_field(x.name);
  }
  s << line << "\n";
}

void write_csv_rows(std::ostream& s, const std::vector<std::int64_t>& offsets, const std::vector<Series>& series, bool f32) {
  std::string line;
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    line = fmt::format("{}", offsets[i]);
    for (const auto& x : series) {
      line += ',';
      line += number_text(x.values[i], f32);
    }
    s << line << "\n";
  }
}

// Offsets [first, last], at most kPart of them: a CSV of schemes is computed and written in
// such parts, so a curve over 16M offsets is never held whole.
constexpr std::int64_t kPart = 1 << 16;
std::vector<std::int64_t> offset_part(std::int64_t first, std::int64_t last) {
  std::vector<std::int64_t> out;
  out.reserve(static_cast<std::size_t>(last - first + 1));
  for (std::int64_t d = first; d <= last; ++d) out.push_back(d);
  return out;
}

// --vary NAME=V1,... or a comma list in one numeric scheme option (--base 100,1000,10000): the same.
std::string effective_vary(const DecayOptions& o) {
  if (o.scheme.scheme().empty()) return o.vary;
  const auto lists = o.scheme.value_lists();
  if (lists.size() > 1)
    throw Error(fmt::format("give several values to one option at a time (got --{} '{}' and --{} '{}'); "
                            "use --compare for other combinations",
                            lists[0].first, lists[0].second, lists[1].first, lists[1].second));
  if (lists.empty()) return o.vary;
  if (!o.vary.empty())
    throw Error(fmt::format("give either --vary or a list of values in --{}, not both (got --vary '{}' and --{} '{}')",
                            lists[0].first, o.vary, lists[0].first, lists[0].second));
  return lists[0].first + "=" + lists[0].second;
}

int run_decay(Context& ctx, const DecayOptions& o) {
  const formats::Format format = o.output.resolve();
  o.output.check_path();
  const std::string scheme = o.scheme.scheme();
  const std::string vary = effective_vary(o);
  const std::string varied = vary.substr(0, vary.find('='));
  const ParamMap given = scheme.empty() ? ParamMap() : analysis::analysis_params(scheme, o.scheme.values());
  const bool past_only = !scheme.empty() && analysis::is_causal(scheme, given);
  std::vector<std::unique_ptr<Compared>> compared;
  for (const auto& spec : o.compare) compared.push_back(parse_compare(spec));
  // A CSV of schemes (no --input table, which would be read again for each part) is streamed.
  const bool stream = format == formats::Format::kCsv && !scheme.empty() &&
                      std::all_of(compared.begin(), compared.end(), [](const auto& x) { return !x->source.scheme().empty(); });
  const auto range = analysis::decay_offset_range(o.max_offset, o.symmetric, past_only);
  const std::int64_t lo = range.first, hi = range.second;
  DecayRequest req;
  req.offsets = stream ? offset_part(lo, std::min(hi, lo + kPart - 1)) : analysis::decay_offsets(o.max_offset, o.symmetric, past_only);
  req.from = o.from >= 0 ? o.from : (o.symmetric || past_only ? o.max_offset : 0);
  req.metric = o.metric;
  req.qk = o.qk;
  req.seed = o.seed;
  req.extras = !o.no_extras;
  DecayRequest ends = req;  // what fit_len reads: the first and last offset of the whole run
  ends.offsets = {lo, hi};
  const ParamMap base = analysis::fit_len(scheme, given, ends);  // the --len used, echoed as such

  std::vector<analysis::DecaySource> sources;
  // With --compare, every curve is named after what made it.
  const std::string own = compared.empty() ? "" : scheme.empty() ? o.scheme.input() : scheme;
  const auto variants = make_variants(scheme, base, vary);
  for (const auto& v : variants)
    sources.push_back({own.empty() || v.label.empty() ? own + v.label : own + " " + v.label, scheme, v.params,
                       [&o] { return o.scheme.make_table(); }});
  for (const auto& cmp : compared) {
    const std::string sch = cmp->source.scheme();
    sources.push_back({cmp->spec, sch, sch.empty() ? ParamMap() : analysis::analysis_params(sch, cmp->source.values()),
                       [src = &cmp->source] { return src->make_table(); }});
  }
  for (auto& src : sources) src.params = analysis::fit_len(src.scheme, src.params, ends);

  const bool figure = format != formats::Format::kCsv && format != formats::Format::kJson;
  // A figure of several schemes' dot products puts each on its own scale at Δ = 0 (their vectors'
  // norms differ: 64 for a dim-128 sinusoidal table, 128 for rope's q = k = ones), said in the legend.
  const bool normalise = figure && !o.compare.empty() && o.metric == "dot";
  const auto collect = [&](const DecayRequest& r) { return analysis::decay_run(sources, r, normalise); };
  const analysis::DecayRun c = collect(req);
  if (stream && hi > req.offsets.back()) {  // errors of the last offset come before any output
    DecayRequest last = req;
    last.offsets = {hi};
    collect(last);
  }
  analysis::refuse_unused_decay_options(c, scheme.empty() ? "an --input table" : scheme, o.metric_option->count() > 0,
                                        o.qk_option->count() > 0 || o.seed_option->count() > 0, o.no_extras);

  const std::string method = c.method();
  const bool f32 = o.output.dtype == "float32";
  if (format == formats::Format::kCsv) {
    emit(ctx, o.output, false, [&](std::ostream& s) {
      write_csv_header(s, c.all);
      write_csv_rows(s, req.offsets, c.all, f32);
      for (std::int64_t first = req.offsets.back() + 1; stream && first <= hi; first += kPart) {
        DecayRequest part = req;
        part.offsets = offset_part(first, std::min(hi, first + kPart - 1));
        write_csv_rows(s, part.offsets, collect(part).all, f32);
      }
    });
  } else if (format == formats::Format::kJson) {
    reports::DecayJsonSettings js;
    js.scheme = scheme, js.input = o.scheme.input(), js.params = base, js.vary = vary;
    for (const auto& v : variants)
      if (!vary.empty()) js.varied_values.push_back(v.params.value(varied));
    js.metric = o.metric, js.qk = o.qk, js.seed = o.seed, js.no_extras = o.no_extras, js.from = req.from;
    js.compare = o.compare, js.float32 = f32;
    emit(ctx, o.output, false, [&](std::ostream& s) { reports::write_decay_json(js, req.offsets, c, s); });
  } else {
    render::DecayFigureText t;
    t.who = scheme.empty() ? o.scheme.input() : scheme;
    t.scheme = scheme, t.metric = o.metric, t.vary = vary, t.compared = !compared.empty(), t.normalised = normalise;
    t.from = req.from;
    const render::LineFigure fig = render::decay_figure(t, req.offsets, c);
    std::vector<std::pair<std::string, ParamValue>> params;
    for (const auto& n : base.names())
      if (vary.empty() || n != varied) params.emplace_back(n, base.value(n));
    if (c.uses_metric) params.emplace_back("metric", o.metric);
    if (c.uses_qk) params.emplace_back("qk", fmt::format("{} (seed {})", o.qk, o.seed));
    params.emplace_back("method", method);
    if (!vary.empty()) params.emplace_back("vary", vary);
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
      "rope: --metric of R_T q and R_T+delta k (--qk), plus RoFormer's bound and the q=k=ones curve\n"
      "(--no-extras leaves them out; rope computes in float64 unless --precision f32); alibi: bias per head;\n"
      "t5: bucket. --len defaults to T+K+1; a shorter --len is refused\n"
      "examples:\n"
      "  posenc decay sinusoidal --dim 128 --max-offset 200 -o decay.png\n"
      "  posenc decay sinusoidal --dim 64 --base 100,1000,10000 --format csv   (one series per value)\n"
      "  posenc decay sinusoidal --dim 128 --compare 'learned --dim 128' --compare 'rope --dim 128' -o decay.png\n"
      "  posenc decay rope --dim 128 --qk random --metric cosine --no-extras --format csv\n"
      "  posenc decay alibi --heads 8 --max-offset 50 --symmetric --format json\n"
      "  posenc decay --hf-config t5-base/            (the model's scheme: T5 encoder buckets; --causal: decoder)\n"
      "  posenc decay alibi --hf-config bloom-560m/ -o bloom_decay.png");
  opts->scheme.allow_value_lists();
  opts->scheme.bind(*cmd, &ctx.err);
  opts->output.bind(*cmd, {formats::Format::kCsv, formats::Format::kJson, formats::Format::kPng});
  opts->output.figure.bind_log_axes(*cmd);
  integer_option(cmd->add_option("--max-offset", opts->max_offset, "largest offset K")->capture_default_str(), 0, 1 << 24);
  integer_option(cmd->add_option("--from", opts->from, "query position T"), 0, 1 << 30)
      ->default_str("0, or K with --symmetric or a causal scheme");
  opts->metric_option = cmd->add_option("--metric", opts->metric, "dot, cosine or distance (absolute tables; rope's q.k)")
                            ->capture_default_str()
                            ->check(CLI::IsMember({"dot", "cosine", "distance"}));
  cmd->add_flag("--symmetric", opts->symmetric, "offsets -K..K");
  opts->qk_option = cmd->add_option("--qk", opts->qk, "rope: q and k all ones, random (independent) or same (random, k = q)")
                        ->capture_default_str()
                        ->check(CLI::IsMember({"ones", "random", "same"}));
  opts->seed_option =
      cmd->add_option("--seed", opts->seed, "rope: seed of the random q, k")->capture_default_str()->transform(non_negative_integer());
  cmd->add_flag("--no-extras", opts->no_extras, "rope: leave out RoFormer's bound and the q=k=ones curve");
  cmd->add_option("--vary", opts->vary, "one curve per value of a scheme parameter, e.g. base=100,1000,10000 "
                  "(or a comma list in the option itself: --base 100,1000,10000)")
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
