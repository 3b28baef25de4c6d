// posenc project SCHEME [scheme options] [--dims i,j[,k] | --pca 2|3] [-o PATH] [--format csv|json|png|svg|ansi]
#include <fmt/format.h>

#include <cmath>

#include "analysis_support.hpp"
#include "app.hpp"
#include "output_options.hpp"
#include "posenc/analysis/projection.hpp"
#include "posenc/analysis/scheme_traits.hpp"
#include "posenc/error.hpp"
#include "posenc/memory.hpp"
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

/// PCA of a table holding NaN or an infinity would spread it over every output (all NaN) and
/// call the components zero: refused, naming the first such value. (--dims copies columns:
/// a NaN there stays in its own row, and the output warns of it.)
void refuse_non_finite(const Table& table, const Matrix& pe, const std::string& input) {
  for (std::size_t r = 0; r < pe.rows(); ++r) {
    for (std::size_t c = 0; c < pe.cols(); ++c) {
      if (std::isfinite(pe(r, c))) continue;
      const auto& names = table.info().column_names;
      throw Error(fmt::format("PCA needs finite values: {} position {} (row {}), column {}{} holds {}; "
                              "remove the row, or project chosen columns with --dims",
                              input.empty() ? "the table's" : fmt::format("--input '{}'", input),
                              table.info().first_position + r, r, c,
                              c < names.size() ? fmt::format(" ('{}')", names[c]) : "", pe(r, c)));
    }
  }
}

int run_project(Context& ctx, const ProjectOptions& o) {
  const formats::Format format = o.output.resolve();
  o.output.check_path();
  if (!o.dims.empty() && o.pca != 0) throw Error("give either --dims or --pca, not both");
  if (!o.dims.empty() && (o.dims.size() < 2 || o.dims.size() > 3))
    throw Error(fmt::format("--dims takes 2 or 3 columns (got {})", o.dims.size()));
  const std::string scheme = o.scheme.scheme();
  if (analysis::scheme_kind(scheme) == analysis::SchemeKind::kBias)
    throw Error(fmt::format("project needs position vectors; {} is a bias between positions", scheme));
  const auto table = analysis_table(o.scheme);  // rope in float64 unless --precision
  if (table->info().shape.size() != 2) throw Error("project needs a 2-D table (rows = positions)");
  {
    // What project holds at once: the table, and for PCA its centred copy with a D x D
    // covariance, or (D > N) an N x N Gram matrix twice.
    const auto n = static_cast<double>(table->rows()), d = static_cast<double>(table->cols());
    const bool pca_used = o.pca != 0 || (o.dims.empty() && table->cols() != 2 && table->cols() != 3);
    check_working_memory(pca_used ? 2 * n * d + (d <= n ? 2 * d * d : 2 * n * n) + 3 * n : n * d + 3 * n,
                         fmt::format("project{} of a {} x {} table", pca_used ? " (PCA)" : "", table->rows(), table->cols()));
  }
  const Matrix pe = table->to_matrix();

  TableInfo info = table->info();
  info.axis_names = {"position", "coordinate"};
  Matrix coords;
  // Default: the table's own columns when it has 2 or 3, else the first two principal components.
  std::vector<std::size_t> dims = o.dims;
  int pca = o.pca;
  if (dims.empty() && pca == 0) {
    if (pe.cols() == 2 || pe.cols() == 3) {
      for (std::size_t c = 0; c < pe.cols(); ++c) dims.push_back(c);
    } else {
      pca = 2;
    }
  }
  if (pca != 0) {
    refuse_non_finite(*table, pe, o.scheme.input());
    const auto p = analysis::pca(pe, static_cast<std::size_t>(pca));
    // Components past the data's rank are zero columns: say so rather than plot a flat axis.
    const double top = p.variance.empty() ? 0.0 : p.variance[0];
    std::vector<std::string> flat;
    for (std::size_t c = 0; c < p.variance.size(); ++c)
      if (!(p.variance[c] > 1e-12 * top)) flat.push_back(fmt::format("pc{}", c + 1));
    if (!flat.empty())
      ctx.err << fmt::format("posenc: note: the positions vary along {} direction{} only ({} column{}): {} {} zero\n",
                             p.variance.size() - flat.size(), p.variance.size() - flat.size() == 1 ? "" : "s", pe.cols(),
                             pe.cols() == 1 ? "" : "s",
                             fmt::join(flat, ", "), flat.size() == 1 ? "is" : "are");
    coords = p.coords;
    info.column_names.clear();
    for (int c = 0; c < pca; ++c) info.column_names.push_back(fmt::format("pc{}", c + 1));
    info.params.emplace_back("pca", static_cast<std::int64_t>(pca));
    info.results.emplace_back("explained_variance_ratio", p.explained);
    info.title = fmt::format("PCA of {}", table->info().title.empty() ? info.scheme : table->info().title);
  } else {
    coords = analysis::project_dims(pe, dims);
    std::vector<std::string> names;
    std::vector<std::int64_t> listed;  // JSON [0, 1, 3], not floats
    for (std::size_t d : dims) {
      names.push_back(d < table->info().column_names.size() ? table->info().column_names[d] : fmt::format("dim{}", d));
      listed.push_back(static_cast<std::int64_t>(d));
    }
    info.column_names = names;
    info.params.emplace_back("dims", listed);
    info.title = fmt::format("columns {} of {}", fmt::join(dims, ","),
                             table->info().title.empty() ? info.scheme : table->info().title);
  }
  info.shape = {coords.rows(), coords.cols()};
  if (draws(format)) {
    render::ScatterFigure fig;
    fig.title = info.title;
    fig.axis_labels = info.column_names;
    for (const auto& [k, v] : info.results)
      if (k == "explained_variance_ratio" && std::holds_alternative<std::vector<double>>(v)) {
        std::vector<std::string> parts;
        for (double r : std::get<std::vector<double>>(v)) parts.push_back(fmt::format("{:.1f}%", 100 * r));
        fig.subtitle = fmt::format("explained variance: {}", fmt::join(parts, ", "));
      }
    fig.first_position = static_cast<double>(table->info().first_position);
    fig.points = std::move(coords);
    emit_figure(ctx, o.output, fig, figure_metadata(info.title, info.params));
    return 0;
  }
  emit_table(ctx, o.output, MatrixTable(std::move(info), std::move(coords)));
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
