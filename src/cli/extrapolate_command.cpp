// posenc extrapolate --train-len L --target-len L' [--methods ...] [--schemes ...]: what a model
// meets beyond its training length (issue 19; docs/extrapolation.md). The library computes
// (posenc/analysis/extrapolation.hpp); this file parses, calls and writes.
#include <fmt/format.h>

#include <algorithm>
#include <list>
#include <memory>

#include "app.hpp"
#include "extrapolate_figure.hpp"
#include "figure_options.hpp"
#include "posenc/analysis/extrapolation.hpp"
#include "posenc/schemes/registry.hpp"
#include "posenc/rope/rope.hpp"
#include "posenc/error.hpp"
#include "posenc/reports/extrapolation_writers.hpp"
#include "posenc/formats/output.hpp"
#include "rope_command.hpp"
#include "scheme_options.hpp"
#include "validators.hpp"

namespace posenc::cli {
namespace {

/// The rope settings extrapolate takes (the registry's specs, so names, help and defaults are
/// those of `posenc generate rope`); the method, factor and lengths come from --methods and
/// the two lengths.
constexpr const char* kExtrapolateRopeParams[] = {
    "dim",         "base",      "rotary-dim",      "partial-rotary-factor", "factor",           "beta-fast",
    "beta-slow",   "mscale",    "mscale-all-dim",  "attention-factor",      "truncate",         "low-freq-factor",
    "high-freq-factor", "short-factor", "long-factor", "convention",       "precision",        "hf-config",
    "layer-type", "assume-family"};

struct ExtrapolateBound {
  std::string scheme, name;
  CLI::Option* option = nullptr;
  ParamValue value;
};

struct ExtrapolateOptions {
  std::int64_t train_len = 0, target_len = 0;
  std::string methods = "none,linear,ntk,yarn,llama3";
  std::string schemes = "alibi,t5";
  std::int64_t samples = 16;
  std::uint64_t seed = 0;
  std::list<ExtrapolateBound> bound;  // stable addresses for CLI11
  ReportOutput output;
  FigureOptions figure;
};

std::vector<std::string> extrapolate_split(const std::string& text, const char* option) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size() && !text.empty()) {
    const auto comma = text.find(',', start);
    out.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  for (const auto& item : out)
    if (item.empty()) throw Error(fmt::format("{} has an empty name in '{}': write names separated by commas", option, text));
  return out;
}

void bind_extrapolate_param(CLI::App& cmd, ExtrapolateOptions& o, const std::string& scheme, const std::string& name,
                            const std::string& group) {
  for (const auto& spec : schemes::find_scheme(scheme).params) {
    if (spec.name != name) continue;
    ExtrapolateBound& b = o.bound.emplace_back(ExtrapolateBound{scheme, name, nullptr, spec.default_value});
    ParamSpec s = spec;
    if (scheme != "rope") s.help = fmt::format("{}: {}", scheme, s.help);
    b.option = add_param(cmd, s, b.value)->group(group);
    return;
  }
}

/// The values of one scheme's bound options, `given` for the flags typed.
ParamMap extrapolate_values(const ExtrapolateOptions& o, const std::string& scheme) {
  ParamMap p(schemes::find_scheme(scheme).params);
  for (const auto& b : o.bound)
    if (b.scheme == scheme) p.set(b.name, b.value, b.option->count() > 0);
  return p;
}

int run_extrapolate(Context& ctx, const ExtrapolateOptions& o) {
  const formats::Format f = o.output.prepare();
  analysis::ExtrapolationRequest r;
  r.train_len = o.train_len;
  r.target_len = o.target_len;
  r.methods = extrapolate_split(o.methods, "--methods");
  r.schemes = extrapolate_split(o.schemes, "--schemes");
  r.rope = extrapolate_values(o, "rope");
  analysis::set_bias_settings(r, extrapolate_values(o, "alibi"), extrapolate_values(o, "t5"),
                              extrapolate_values(o, "kerple"));
  r.samples = o.samples;
  r.seed = o.seed;
  const analysis::Extrapolation e = analysis::extrapolate(r);
  std::vector<std::string> said;  // each warning once
  for (const auto& m : e.rope)
    for (const auto& w : m.freqs.warnings) {
      if (std::find(said.begin(), said.end(), w) != said.end()) continue;
      said.push_back(w);
      ctx.err << "posenc: warning: " << w << "\n";
    }
  switch (f) {
    case formats::Format::kText:
      o.output.emit(ctx, f, [&](std::ostream& s) { reports::write_extrapolation_text(e, s); });
      break;
    case formats::Format::kJson:
      o.output.emit(ctx, f, [&](std::ostream& s) { reports::write_extrapolation_json(e, s); });
      break;
    case formats::Format::kPng:
    case formats::Format::kSvg:
    case formats::Format::kAnsi: {
      render::Figure fig = extrapolation_figure(e);
      o.figure.apply(fig);
      // Everything that decides the figure, so that it can be drawn again.
      render::Metadata metadata = figure_metadata(std::get<render::LineFigure>(fig).title, {});
      metadata.emplace_back("command", "posenc extrapolate");
      metadata.emplace_back("train-len", fmt::format("{}", r.train_len));
      metadata.emplace_back("target-len", fmt::format("{}", r.target_len));
      metadata.emplace_back("methods", o.methods);
      metadata.emplace_back("schemes", o.schemes);
      metadata.emplace_back("samples", fmt::format("{}", r.samples));
      metadata.emplace_back("seed", fmt::format("{}", r.seed));
      for (const auto& b : o.bound)
        if (b.option->count() > 0) metadata.emplace_back(b.name, posenc::to_string(b.value));
      const std::string bytes = figure_bytes(fig, f, metadata);
      o.output.emit(ctx, f, [&](std::ostream& s) { s << bytes; });
      break;
    }
    default:
      throw Error(fmt::format("--format {} is not available for posenc extrapolate", formats::info(f).name));
  }
  return kOk;
}

}  // namespace

void add_extrapolate_command(CLI::App& app, Context& ctx, int& exit_code) {
  auto opts = std::make_shared<ExtrapolateOptions>();
  CLI::App* cmd = app.add_subcommand(
      "extrapolate",
      "what a model meets beyond its training length: RoPE angles, attention entropy and resolution per method, "
      "ALiBi's bias range, T5's bucket saturation, a learned table's missing rows");
  cmd->footer(
      "examples:\n"
      "  posenc extrapolate --train-len 4096 --target-len 16384            # rope none,linear,ntk,yarn,llama3; alibi, t5\n"
      "  posenc extrapolate --train-len 8192 --target-len 131072 --dim 128 --base 500000 --methods none,llama3,yarn\n"
      "  posenc extrapolate --train-len 512 --target-len 2048 --methods '' --schemes alibi,t5,learned --heads 12\n"
      "  posenc extrapolate --train-len 4096 --target-len 16384 --methods '' --schemes kerple,sandwich --p 1,2 --a 0.5,1\n"
      "  posenc extrapolate --train-len 4096 --target-len 16384 -o extrapolation.png   # or .svg, .json\n"
      "  posenc extrapolate --hf-config config.json --train-len 8192 --target-len 65536 --schemes ''  # a model's base, dims\n"
      "the factor of each method is L'/L unless --factor is given; docs: docs/extrapolation.md");
  integer_option(cmd->add_option("--train-len", opts->train_len, "training length L: offsets 0 … L-1 were seen")
                     ->required(),
                 2, analysis::kMaxExtrapolationLen);
  integer_option(cmd->add_option("--target-len", opts->target_len, "target length L' > L the model is run at")->required(),
                 3, analysis::kMaxExtrapolationLen);
  cmd->add_option("--methods", opts->methods,
                  fmt::format("RoPE methods to compare, comma-separated ('' = none): {}; longrope needs --short-factor "
                              "and --long-factor",
                              fmt::join(rope::rope_scaling_names(), ", ")))
      ->capture_default_str()
      ->type_name("LIST")
      ->check(list_items(rope::rope_scaling_names()));
  cmd->add_option("--schemes", opts->schemes, "other schemes, comma-separated ('' = none): alibi, t5, learned, kerple, sandwich "
                  "(sandwich's head width is --dim, its heads --heads)")
      ->capture_default_str()
      ->type_name("LIST")
      ->check(list_items(analysis::extrapolation_scheme_names()));
  integer_option(cmd->add_option("--samples", opts->samples, "random (q, k) pairs averaged per entropy point")
                     ->capture_default_str(),
                 1, 4096);
  cmd->add_option("--seed", opts->seed, "seed of the random q, k (the same on every platform)")
      ->capture_default_str()
      ->transform(non_negative_integer());
  for (const char* name : kExtrapolateRopeParams) bind_extrapolate_param(*cmd, *opts, "rope", name, "RoPE settings");
  bind_extrapolate_param(*cmd, *opts, "alibi", "heads", "ALiBi, Sandwich and T5 settings");
  for (const char* name : {"buckets", "max-distance", "mode"})
    bind_extrapolate_param(*cmd, *opts, "t5", name, "ALiBi, Sandwich and T5 settings");
  for (const char* name : {"kind", "p", "a"}) bind_extrapolate_param(*cmd, *opts, "kerple", name, "KERPLE settings");
  opts->figure.bind(*cmd);
  opts->output.bind(*cmd, {formats::Format::kText, formats::Format::kJson, formats::Format::kPng, formats::Format::kSvg, formats::Format::kAnsi});
  cmd->callback([opts, &ctx, &exit_code] { exit_code = run_extrapolate(ctx, *opts); });
}

}  // namespace posenc::cli
