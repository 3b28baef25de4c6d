// posenc rope [settings] [--format text|csv|json|png] [-o PATH]: what a RoPE configuration does
// to each frequency pair; `rope diff` and `rope permutation` are in rope_diff_command.cpp.
#include "rope_command.hpp"

#include <fmt/format.h>

#include <memory>

#include "figure_options.hpp"
#include "output_options.hpp"
#include "posenc/schemes/registry.hpp"
#include "posenc/models/rope_settings.hpp"
#include "posenc/rope/rope_config.hpp"
#include "posenc/error.hpp"
#include "posenc/formats/output.hpp"
#include "posenc/reports/rope_writers.hpp"
#include "posenc/models/model_ropes.hpp"
#include "rope_figure.hpp"
#include "scheme_options.hpp"

namespace posenc::cli {

void RopeSettings::bind(CLI::App& app) {
  for (const auto& spec : schemes::find_scheme("rope").params) {
    if (spec.name == "len" || spec.name == "table") continue;  // only tables have positions
    Bound& b = bound_.emplace_back(Bound{spec.name, nullptr, spec.default_value});
    b.option = add_param(app, spec, b.value);
  }
}

void RopeSettings::bind_side(CLI::App& app, const std::string& suffix, const std::string& group) {
  for (ParamSpec spec : schemes::find_scheme("rope").params) {
    if (spec.name == "len" || spec.name == "table" || spec.name == "hf-config") continue;
    Bound& b = bound_.emplace_back(Bound{spec.name, nullptr, spec.default_value});
    spec.name += "-" + suffix;
    spec.help = fmt::format("side {}: {}", suffix, spec.help);
    b.option = add_param(app, spec, b.value);
    b.option->default_str("--" + b.name)->group(group);
  }
}

std::vector<std::pair<std::string, std::string>> RopeSettings::apply_given(ParamMap& p) const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& b : bound_) {
    if (b.option->count() == 0) continue;
    p.set(b.name, b.value, true);
    out.emplace_back(b.name, posenc::to_string(b.value));
  }
  return out;
}

ParamMap RopeSettings::values() const {
  ParamMap p;
  for (const auto& b : bound_) p.set(b.name, b.value, b.option->count() > 0);
  return p;
}

void ReportOutput::bind(CLI::App& app, std::vector<formats::Format> formats) {
  allowed = std::move(formats);
  app.add_option("-o,--output", path, "output file, or - for stdout")->capture_default_str()->type_name("PATH");
  app.add_option("--format", format, "output format (default: from the extension of -o, else text)")
      ->check(CLI::IsMember(formats::format_names(allowed)));
}

formats::Format ReportOutput::resolve() const {
  if (!format && (path.empty() || path == "-")) return formats::Format::kText;
  return formats::resolve_format(format, path, allowed);
}

formats::Format ReportOutput::prepare() const {
  const formats::Format f = resolve();
  if (path != "-") formats::check_writable(path);
  return f;
}

void ReportOutput::emit(Context& ctx, formats::Format f, const std::function<void(std::ostream&)>& write) const {
  OutputOptions o;
  o.path = path;
  cli::emit(ctx, o, formats::info(f).binary, write);
}

namespace {

struct RopeOptions {
  RopeSettings settings;
  ReportOutput output;
  FigureOptions figure;
};

int run_rope(Context& ctx, const RopeOptions& o) {
  const formats::Format f = o.output.prepare();
  const ParamMap settings = o.settings.values();
  rope::RopeReport r = rope::make_rope_report(models::resolve_rope_config(settings));
  rope::add_rope_bounds(r);
  models::add_layer_ropes(r, settings);
  for (const auto& w : r.freqs.warnings) ctx.err << "posenc: warning: " << w << "\n";
  switch (f) {
    case formats::Format::kText:
      o.output.emit(ctx, f, [&](std::ostream& s) { reports::write_rope_report_text(r, s); });
      break;
    case formats::Format::kCsv:
      o.output.emit(ctx, f, [&](std::ostream& s) { reports::write_rope_report_csv(r, s); });
      break;
    case formats::Format::kJson:
      o.output.emit(ctx, f, [&](std::ostream& s) { reports::write_rope_report_json(r, s); });
      break;
    case formats::Format::kPng:
    case formats::Format::kSvg:
    case formats::Format::kAnsi: {
      render::Figure fig = rope_report_figure(r);
      o.figure.apply(fig);
      // The resolved settings with where each came from (not the raw flags, which miss a config.json's values).
      render::Metadata metadata = figure_metadata(std::get<render::LineFigure>(fig).title, {});
      for (const auto& setting : r.config.sources)
        metadata.emplace_back(setting.name, fmt::format("{} ({})", setting.value, setting.source));
      metadata.emplace_back("attention_factor", fmt::format("{}", r.freqs.attention_factor));
      metadata.emplace_back("regimes", fmt::format("{} unchanged, {} interpolated, {} blended, {} rescaled, {} zero",
                                                   r.unchanged, r.interpolated, r.blended, r.rescaled, r.zero));
      const std::string bytes = figure_bytes(fig, f, metadata);
      o.output.emit(ctx, f, [&](std::ostream& s) { s << bytes; });
      break;
    }
    case formats::Format::kNpy:
      throw Error(fmt::format("--format {} is not available for posenc rope", formats::info(f).name));
  }
  return kOk;
}

}  // namespace

void add_rope_command(CLI::App& app, Context& ctx, int& exit_code) {
  auto opts = std::make_shared<RopeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "rope", "per-pair report of a RoPE configuration: frequencies before and after scaling, wavelengths, regimes");
  cmd->footer(
      "examples:\n"
      "  posenc rope --hf-config config.json\n"
      "  posenc rope --dim 128 --base 500000 --scaling llama3 --factor 8 --original-max-position-embeddings 8192\n"
      "  posenc rope --hf-config config.json --format json -o report.json\n"
      "  posenc rope --hf-config config.json -o frequencies.png        # or .svg, --format ansi\n"
      "  posenc rope diff --hf-config config.json --convention-a hf --convention-b ggml --tol 1e-6\n"
      "  posenc rope permutation --dim 128\n"
      "  posenc rope engines --hf-config config.json              # vLLM, SGLang, TensorRT-LLM, MLX vs transformers\n"
      "settings: the same as 'posenc generate rope'; flags override --hf-config. docs: docs/rope.md");
  opts->settings.bind(*cmd);
  opts->output.bind(*cmd, {formats::Format::kText, formats::Format::kCsv, formats::Format::kJson, formats::Format::kPng, formats::Format::kSvg,
                           formats::Format::kAnsi});
  opts->figure.bind(*cmd);
  add_rope_diff_command(*cmd, ctx, opts->settings, exit_code);
  add_rope_permutation_command(*cmd, ctx, exit_code);
  add_rope_engines_command(*cmd, ctx, opts->settings, exit_code);
  cmd->require_subcommand(0, 1);
  cmd->callback([cmd, opts, &ctx, &exit_code] {
    if (!cmd->get_subcommands().empty()) return;  // diff, permutation or engines ran instead
    exit_code = run_rope(ctx, *opts);
  });
}

}  // namespace posenc::cli
