// posenc usage PATH: which RoPE frequencies a trained model uses, from its q/k weights
// (analysis/usage.hpp, docs/usage.md). Parses, calls the library, writes.
#include <fmt/format.h>

#include "app.hpp"
#include "figure_options.hpp"
#include "posenc/analysis/usage.hpp"
#include "posenc/error.hpp"
#include "posenc/formats/writers.hpp"
#include "posenc/models/qk_weights.hpp"
#include "posenc/parallel.hpp"
#include "posenc/render/usage_figure.hpp"
#include "posenc/reports/usage_writers.hpp"
#include "rope_command.hpp"
#include "validators.hpp"

namespace posenc::cli {
namespace {

struct UsageOptions {
  std::string path;
  std::string table;  ///< "" = the report
  render::UsageFigureRequest figure_request;
  std::int64_t layer = 0;
  CLI::Option* layer_option = nullptr;
  analysis::UsageOptions analysis;
  unsigned threads = 0;
  ReportOutput output;
  FigureOptions figure;
};

int run_usage(Context& ctx, const UsageOptions& o) {
  const formats::Format f = o.output.prepare();
  const bool table_format = f == formats::Format::kCsv || f == formats::Format::kNpy;
  if (table_format && o.table.empty())
    throw Error(fmt::format("--format {} writes one array: give --table (rho, phi, q-norm, k-norm, pair-cos, k-pair-cos)",
                            formats::info(f).name));
  if (o.threads > 0) set_threads(o.threads);
  const models::QkModel m = models::open_qk_model(o.path);
  const analysis::UsageReport r = analysis::frequency_usage(m, o.analysis);
  if (table_format) {
    const auto t = reports::usage_table(r, o.table);
    o.output.emit(ctx, f, [&](std::ostream& s) {
      if (f == formats::Format::kNpy) formats::write_npy(*t, s, formats::DType::kFloat64);
      else formats::write_csv(*t, s, formats::DType::kFloat64);
    });
    return kOk;
  }
  if (draws(f)) {
    render::UsageFigureRequest q = o.figure_request;
    if (!o.table.empty()) q.table = o.table;
    if (o.layer_option->count() > 0) q.layer = o.layer;
    const FigureOptions& g = o.figure;
    render::Figure fig = render::usage_figure(r, q, {g.width, g.height, g.scale, g.title, g.cmap, g.reduce, g.vmin, g.vmax});
    o.figure.apply(fig);
    const std::string title = std::visit([](const auto& x) { return x.title; }, fig);
    const std::string bytes = figure_bytes(fig, f, render::usage_figure_metadata(title, o.path, q));
    o.output.emit(ctx, f, [&](std::ostream& s) { s << bytes; });
    return kOk;
  }
  o.output.emit(ctx, f, [&](std::ostream& s) {
    if (f == formats::Format::kJson) reports::write_usage_json(r, s);
    else reports::write_usage_text(r, s);
  });
  return kOk;
}

}  // namespace

void add_usage_command(CLI::App& app, Context& ctx, int& exit_code) {
  auto opts = std::make_shared<UsageOptions>();
  CLI::App* cmd = app.add_subcommand(
      "usage", "which RoPE frequencies a trained model uses, per layer, head and pair, from its q/k weights "
               "(norms, pair angle, the invariant rho and phi); a model folder or a GGUF");
  cmd->footer(
      "examples:\n"
      "  posenc usage path/to/model-folder/             (config.json + *.safetensors)\n"
      "  posenc usage model.Q8_0.gguf --format json -o usage.json\n"
      "  posenc usage model/ --table rho -o rho.npy     (layers × heads × pairs)\n"
      "  posenc usage model/ -o usage.png               (layer × pair heatmap of rho)\n"
      "  posenc usage model/ --layer 3 -o heads.png     (head × pair heatmap of layer 3)\n"
      "  posenc usage model/ --figure wavelength -o profile.png\n"
      "weights-only proxies, not the papers' activation statistics: docs/usage.md");
  cmd->add_option("path", opts->path, "a model folder (config.json and safetensors) or a .gguf")
      ->type_name("PATH")
      ->required();
  cmd->add_option("--table", opts->table, "with csv/npy: the array written; with a figure: the array drawn (default rho)")
      ->check(CLI::IsMember(reports::usage_table_names()))
      ->type_name("NAME");
  cmd->add_option("--figure", opts->figure_request.kind,
                  "layers: layer × pair (mean over heads); heads: head × pair of --layer; wavelength: mean per pair "
                  "against its wavelength")
      ->check(CLI::IsMember(std::vector<std::string>(std::begin(render::kUsageFigures), std::end(render::kUsageFigures))))
      ->capture_default_str();
  opts->layer_option = cmd->add_option("--layer", opts->layer, "the layer of --figure heads (0-based)")
                           ->transform(integer_in(0, 1 << 20))
                           ->type_name(integer_type(0, 1 << 20));
  cmd->add_option("--high-band", opts->analysis.high_band,
                  "pairs counted as highest frequencies for positional heads (default: a quarter of the pairs)")
      ->transform(integer_in(1, 1 << 20))
      ->type_name(integer_type(1, 1 << 20))
      ->default_str("a quarter of the pairs");
  cmd->add_option("--positional-share", opts->analysis.positional_share,
                  "a head is positional when this share of its rho is in the high band")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--threads", opts->threads, "worker threads (0 = one per core)")->capture_default_str();
  opts->output.bind(*cmd, {formats::Format::kText, formats::Format::kJson, formats::Format::kCsv, formats::Format::kNpy,
                           formats::Format::kPng, formats::Format::kSvg, formats::Format::kAnsi});
  opts->figure.bind(*cmd);
  cmd->callback([opts, &ctx, &exit_code] { exit_code = run_usage(ctx, *opts); });
}

}  // namespace posenc::cli
