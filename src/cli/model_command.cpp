// posenc model PATH [--format text|json] [-o PATH]: every position mechanism of a model.
#include <fmt/format.h>

#include "app.hpp"
#include "posenc/io/model_writers.hpp"
#include "posenc/models/model_report.hpp"
#include "rope_command.hpp"

namespace posenc::cli {
namespace {

struct ModelOptions {
  std::string path;
  ReportOutput output;
};

int run_model(Context& ctx, const ModelOptions& o) {
  const io::Format f = o.output.prepare();
  const models::ModelReport r = models::read_model(o.path);
  o.output.emit(ctx, f, [&](std::ostream& s) {
    if (f == io::Format::kJson) {
      io::write_model_json(r, s);
    } else {
      io::write_model_text(r, s);
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
      "fields a config leaves out take the transformers config class's defaults (shown). docs: docs/models.md");
  cmd->add_option("path", opts->path, "a model's config.json, or a folder holding one")->required()->type_name("PATH");
  opts->output.bind(*cmd, {io::Format::kText, io::Format::kJson});
  cmd->callback([opts, &ctx, &exit_code] { exit_code = run_model(ctx, *opts); });
}

}  // namespace posenc::cli
