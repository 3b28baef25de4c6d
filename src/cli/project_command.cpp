// posenc project SCHEME [scheme options] [--dims i,j[,k] | --pca 2|3] [-o PATH] [--format csv|json|png|svg|ansi]
#include <fmt/format.h>

#include "analysis_support.hpp"
#include "app.hpp"
#include "output_options.hpp"
#include "posenc/analysis/project_table.hpp"
#include "posenc/render/analysis_figures.hpp"
#include "posenc/schemes/registry.hpp"
#include "scheme_options.hpp"
#include "validators.hpp"

namespace posenc::cli {
namespace {

struct ProjectOptions {
  SchemeOptions scheme;
  OutputOptions output;
  std::vector<std::size_t> dims;
  int pca = 0;
};

int run_project(Context& ctx, const ProjectOptions& o) {
  const formats::Format format = o.output.resolve();
  o.output.check_path();
  analysis::check_project_options(o.dims, o.pca);
  const std::string scheme = o.scheme.scheme();
  analysis::check_project_scheme(scheme);
  const auto table = analysis_table(o.scheme);  // rope in float64 unless --precision
  auto p = analysis::project_table(*table, o.dims, o.pca, o.scheme.input());
  if (!p.note.empty()) ctx.err << "posenc: note: " << p.note << "\n";
  if (draws(format)) {
    const TableInfo& info = p.table->info();
    emit_figure(ctx, o.output, render::projection_figure(*p.table), figure_metadata(info.title, info.params));
    return 0;
  }
  emit_table(ctx, o.output, *p.table);
  return 0;
}

}  // namespace

void add_project_command(CLI::App& app, Context& ctx, int& exit_code) {
  auto opts = std::make_shared<ProjectOptions>();
  CLI::App* cmd = app.add_subcommand("project", "positions projected to 2-D or 3-D (chosen columns or PCA)");
  cmd->footer(
      "default: the table's columns if it has 2 or 3, else --pca 2. PNG: scatter coloured by position.\n"
      "examples:\n"
      "  posenc project sine --dim 3 --len 2000 -o loop.png      # seed 003: the closed loop\n"
      "  posenc project sinusoidal --len 200 --dim 64 --pca 3 --format csv");
  opts->scheme.bind(*cmd, &ctx.err);
  opts->output.bind(*cmd, {formats::Format::kCsv, formats::Format::kJson, formats::Format::kPng});
  cmd->add_option("--dims", opts->dims, "2 or 3 column indices (0-based), e.g. 0,1,2")->delimiter(',')
      ->transform(integer_in(0, encodings::kMaxDim - 1))->type_name("INT,...");
  cmd->add_option("--pca", opts->pca, "principal components: 2 or 3")
      ->transform(integer_in(2, 3))
      ->type_name(integer_type(2, 3))
      ->default_str("2, unless --dims or the table has 2 or 3 columns");
  cmd->callback([opts, &ctx, &exit_code] { exit_code = run_project(ctx, *opts); });
}

}  // namespace posenc::cli
