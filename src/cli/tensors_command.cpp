// posenc tensors PATH [--filter GLOB] [--format text|json] [-o PATH]: the tensors of a
// checkpoint (safetensors file, index or folder) or a GGUF file, from the headers only.
#include <fmt/format.h>

#include "app.hpp"
#include "posenc/error.hpp"
#include "posenc/formats/tensor_list.hpp"
#include "posenc/reports/tensors_writers.hpp"
#include "rope_command.hpp"

namespace posenc::cli {
namespace {

struct TensorsOptions {
  std::string path;
  std::string filter;
  ReportOutput output;
};

int run_tensors(Context& ctx, const TensorsOptions& o) {
  const formats::Format f = o.output.prepare();
  const formats::TensorListing l = formats::list_tensors(o.path, o.filter);
  o.output.emit(ctx, f, [&](std::ostream& s) {
    if (f == formats::Format::kJson) {
      reports::write_tensors_json(l, s);
    } else {
      reports::write_tensors_text(l, s);
    }
  });
  return 0;
}

}  // namespace

void add_tensors_command(CLI::App& app, Context& ctx, int& exit_code) {
  auto opts = std::make_shared<TensorsOptions>();
  CLI::App* cmd = app.add_subcommand(
      "tensors", "the tensors of a checkpoint (safetensors file, sharded index or folder) or a GGUF file: name, dtype, "
                 "shape in PyTorch order, bytes, file; headers only, validated");
  cmd->footer(
      "examples:\n"
      "  posenc tensors model.safetensors\n"
      "  posenc tensors path/to/model-folder/ --filter '*position*'\n"
      "  posenc tensors model.safetensors.index.json --format json -o tensors.json\n"
      "  posenc tensors model.gguf            (ggml dtypes: F32, F16, Q4_K, ...; shapes reversed from ne[])\n"
      "a tensor goes into the other commands with --input FILE.safetensors:NAME (NAME[i] for a slice). docs: "
      "docs/cli.md, docs/formats.md");
  cmd->add_option("path", opts->path,
                  "a .safetensors file, a model.safetensors.index.json, a folder holding either, or a .gguf")
      ->type_name("PATH")
      ->required();
  cmd->add_option("--filter", opts->filter,
                  "only the tensors whose name matches GLOB (shell wildcards * ? [...], as fnmatch), e.g. '*.wpe.*'")
      ->type_name("GLOB");
  opts->output.bind(*cmd, {formats::Format::kText, formats::Format::kJson});
  cmd->callback([opts, &ctx, &exit_code] { exit_code = run_tensors(ctx, *opts); });
}

}  // namespace posenc::cli
