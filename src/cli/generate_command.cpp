// posenc generate SCHEME [scheme options] [-o PATH] [--format ...] [--dtype ...]
#include <fmt/format.h>

#include "app.hpp"
#include "output_options.hpp"
#include "scheme_options.hpp"

namespace posenc::cli {
namespace {

struct GenerateOptions {
  SchemeOptions scheme;
  OutputOptions output;
};

int run_generate(Context& ctx, const GenerateOptions& o) {
  o.scheme.scheme();   // unknown scheme or stray words first
  o.output.resolve();  // bad format or path: fail before computing anything
  o.output.check_path();
  // A tensor --input written as a table (not drawn) is read as it is written, block by block:
  // a 1 GiB tensor to .npy never holds the tensor in memory.
  const auto table = draws(o.output.resolve()) ? o.scheme.make_table(/*max_axes=*/3)  // H x N x M --input too
                                               : o.scheme.make_streamed_table(/*max_axes=*/3);
  for (const auto& n : table->info().notes) ctx.err << "posenc: note: " << n << "\n";
  emit_table(ctx, o.output, *table);
  return 0;
}

}  // namespace

void add_generate_command(CLI::App& app, Context& ctx, int& exit_code) {
  auto opts = std::make_shared<GenerateOptions>();
  CLI::App* cmd = app.add_subcommand("generate", "write the table of an encoding (rows = positions)");
  cmd->footer(
      "examples:\n"
      "  posenc generate sinusoidal --len 50 --dim 128 -o pe.png\n"
      "  posenc generate binary --len 16 --dim 4          (csv to stdout)\n"
      "  posenc generate --input wpe.npy -o wpe.png\n"
      "  posenc generate --hf-config bloom-560m/ -o bias.png      (the model decides: alibi, BLOOM's slopes)\n"
      "  posenc generate t5 --hf-config t5-base/ --causal -o dec.png   (rope, alibi, t5, sinusoidal, learned)\n"
      "run 'posenc generate SCHEME --help' for the options of one scheme");
  opts->scheme.bind(*cmd, &ctx.err);
  opts->output.bind(*cmd, {formats::Format::kCsv, formats::Format::kJson, formats::Format::kNpy, formats::Format::kPng});
  opts->output.figure.bind_reduce(*cmd);
  cmd->callback([opts, &ctx, &exit_code] { exit_code = run_generate(ctx, *opts); });
}

}  // namespace posenc::cli
