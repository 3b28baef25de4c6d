// posenc model PATH [--format text|json] [-o PATH]: every position mechanism of a model.
#include <fmt/format.h>

#include "app.hpp"
#include "posenc/reports/model_writers.hpp"
#include "posenc/error.hpp"
#include "posenc/models/model_gguf.hpp"
#include "posenc/models/model_report.hpp"
#include "posenc/models/model_weights.hpp"
#include "posenc/analysis/weight_statistics.hpp"
#include "figure_options.hpp"
#include "posenc/render/model_figure.hpp"
#include "rope_command.hpp"

namespace posenc::cli {
namespace {

struct ModelOptions {
  std::string path;
  std::string gguf;
  std::string weights_figure;  ///< --weights-figure: a figure of the table read from weights
  ReportOutput output;
  FigureOptions figure;
};

models::ModelReport gguf_report(const std::string& path) {
  try {
    return models::read_gguf_model(path);
  } catch (const Error& e) {  // name the option, as `rope --gguf` does
    throw Error(fmt::format("--gguf {}", e.what()));
  }
}

int run_model(Context& ctx, const ModelOptions& o) {
  if (o.path.empty() == o.gguf.empty())
    throw Error(o.path.empty() ? std::string("posenc model needs a PATH (config.json, model folder or .gguf) or --gguf FILE")
                               : fmt::format("PATH '{}' and --gguf '{}' are alternatives: give one", o.path, o.gguf));
  const formats::Format f = o.output.prepare();
  models::ModelReport r = o.gguf.empty() ? models::read_model(o.path) : gguf_report(o.gguf);
  // The trained tables and stored RoPE tensors, when the folder (or the .gguf) holds them.
  models::attach_weights(r, r.source);  // the config read (its folder), or the .gguf
  analysis::add_weight_statistics(r);
  if (!o.weights_figure.empty()) {
    if (f != formats::Format::kPng && f != formats::Format::kSvg)
      throw Error("--weights-figure draws a figure: give -o FILE.png or FILE.svg (or --format png|svg)");
    const FigureOptions& g = o.figure;
    render::Figure fig = render::weights_figure(r, o.weights_figure, {g.width, g.height, g.scale, g.title, g.cmap, g.reduce, g.vmin, g.vmax});
    o.figure.apply(fig);
    std::string title;
    std::visit([&](const auto& x) { title = x.title; }, fig);
    render::Metadata metadata = figure_metadata(title, {});
    metadata.emplace_back("source", r.source);
    const std::string bytes = figure_bytes(fig, f, metadata);
    o.output.emit(ctx, f, [&](std::ostream& s) { s << bytes; });
    return 0;
  }
  if (f == formats::Format::kPng || f == formats::Format::kSvg) {
    render::Figure fig = render::model_figure(r);
    o.figure.apply(fig);
    render::Metadata metadata = figure_metadata(std::get<render::LineFigure>(fig).title, {});
    metadata.emplace_back("source", r.source);
    metadata.emplace_back("convention", r.convention);
    const std::string bytes = figure_bytes(fig, f, metadata);
    o.output.emit(ctx, f, [&](std::ostream& s) { s << bytes; });
    return 0;
  }
  o.output.emit(ctx, f, [&](std::ostream& s) {
    if (f == formats::Format::kJson) {
      reports::write_model_json(r, s);
    } else {
      reports::write_model_text(r, s);
    }
  });
  return 0;
}

}  // namespace

void add_model_command(CLI::App& app, Context& ctx, int& exit_code) {
  auto opts = std::make_shared<ModelOptions>();
  CLI::App* cmd = app.add_subcommand(
      "model", "every position mechanism a model uses (RoPE per layer type, NoPE layers, M-RoPE, MLA, ALiBi, T5, "
               "learned and sinusoidal tables), with its numbers, as transformers builds them");
  cmd->footer(
      "examples:\n"
      "  posenc model config.json\n"
      "  posenc model path/to/model-folder/ --format json -o model.json\n"
      "  posenc model model.gguf            (or --gguf FILE: what llama.cpp uses, convention ggml)\n"
      "  posenc model config.json -o mechanisms.png   (or .svg: one plot per mechanism)\n"
      "fields a config leaves out take the transformers config class's defaults (shown); a .gguf's settings name the "
      "key or the llama.cpp default. docs: docs/models.md, docs/gguf.md");
  cmd->add_option("path", opts->path,
                  "a model's config.json, a folder holding one, or a llama.cpp .gguf (recognised by its magic bytes)")
      ->type_name("PATH");
  cmd->add_option("--gguf", opts->gguf, "a llama.cpp .gguf model file: the mechanisms llama.cpp uses (header only)")
      ->type_name("FILE");
  cmd->add_option("--weights-figure", opts->weights_figure,
                  "with -o FILE.png|svg: a figure of the first position table read from the weights: heatmap (stored "
                  "rows; T5: bias per bucket and head), similarity (cosine of the used rows), pca (used rows on two "
                  "principal components), norm (L2 norm per stored row), patch (a patch grid's similarity to its "
                  "centre patch)")
      ->check(CLI::IsMember(std::vector<std::string>(std::begin(render::kWeightsFigures), std::end(render::kWeightsFigures))))
      ->type_name("KIND");
  opts->output.bind(*cmd, {formats::Format::kText, formats::Format::kJson, formats::Format::kPng, formats::Format::kSvg});
  opts->figure.bind(*cmd);
  cmd->callback([opts, &ctx, &exit_code] { exit_code = run_model(ctx, *opts); });
}

}  // namespace posenc::cli
