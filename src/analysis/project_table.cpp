#include "posenc/analysis/project_table.hpp"

#include <fmt/format.h>

#include <cmath>

#include "posenc/analysis/projection.hpp"
#include "posenc/analysis/scheme_traits.hpp"
#include "posenc/error.hpp"
#include "posenc/memory.hpp"

namespace posenc::analysis {
namespace {

/// PCA of a table holding NaN or an infinity would spread it over every output (all NaN) and
/// call the components zero: refused, naming the first such value. (--dims copies columns:
/// a NaN there stays in its own row, and the output warns of it.)
void refuse_non_finite_projection(const Table& table, const Matrix& pe, const std::string& input) {
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

}  // namespace

void check_project_options(const std::vector<std::size_t>& dims, int pca) {
  if (!dims.empty() && pca != 0) throw Error("give either --dims or --pca, not both");
  if (!dims.empty() && (dims.size() < 2 || dims.size() > 3))
    throw Error(fmt::format("--dims takes 2 or 3 columns (got {})", dims.size()));
}

void check_project_scheme(const std::string& scheme) {
  if (scheme_kind(scheme) == SchemeKind::kBias)
    throw Error(fmt::format("project needs position vectors; {} is a bias between positions", scheme));
}

Projection project_table(const Table& table, const std::vector<std::size_t>& given_dims, int given_pca,
                         const std::string& input) {
  check_project_options(given_dims, given_pca);
  if (table.info().shape.size() != 2) throw Error("project needs a 2-D table (rows = positions)");
  {
    // What project holds at once: the table, and for PCA its centred copy with a D x D
    // covariance, or (D > N) an N x N Gram matrix twice.
    const auto n = static_cast<double>(table.rows()), d = static_cast<double>(table.cols());
    const bool pca_used = given_pca != 0 || (given_dims.empty() && table.cols() != 2 && table.cols() != 3);
    check_working_memory(pca_used ? 2 * n * d + (d <= n ? 2 * d * d : 2 * n * n) + 3 * n : n * d + 3 * n,
                         fmt::format("project{} of a {} x {} table", pca_used ? " (PCA)" : "", table.rows(), table.cols()));
  }
  const Matrix pe = table.to_matrix();

  Projection out;
  TableInfo info = table.info();
  info.axis_names = {"position", "coordinate"};
  Matrix coords;
  // Default: the table's own columns when it has 2 or 3, else the first two principal components.
  std::vector<std::size_t> dims = given_dims;
  int pca = given_pca;
  if (dims.empty() && pca == 0) {
    if (pe.cols() == 2 || pe.cols() == 3) {
      for (std::size_t c = 0; c < pe.cols(); ++c) dims.push_back(c);
    } else {
      pca = 2;
    }
  }
  if (pca != 0) {
    refuse_non_finite_projection(table, pe, input);
    const auto p = analysis::pca(pe, static_cast<std::size_t>(pca));
    // Components past the data's rank are zero columns: say so rather than plot a flat axis.
    const double top = p.variance.empty() ? 0.0 : p.variance[0];
    std::vector<std::string> flat;
    for (std::size_t c = 0; c < p.variance.size(); ++c)
      if (!(p.variance[c] > 1e-12 * top)) flat.push_back(fmt::format("pc{}", c + 1));
    if (!flat.empty())
      out.note = fmt::format("the positions vary along {} direction{} only ({} column{}): {} {} zero",
                             p.variance.size() - flat.size(), p.variance.size() - flat.size() == 1 ? "" : "s", pe.cols(),
                             pe.cols() == 1 ? "" : "s", fmt::join(flat, ", "), flat.size() == 1 ? "is" : "are");
    coords = p.coords;
    info.column_names.clear();
    for (int c = 0; c < pca; ++c) info.column_names.push_back(fmt::format("pc{}", c + 1));
    info.params.emplace_back("pca", static_cast<std::int64_t>(pca));
    info.results.emplace_back("explained_variance_ratio", p.explained);
    info.title = fmt::format("PCA of {}", table.info().title.empty() ? info.scheme : table.info().title);
  } else {
    coords = project_dims(pe, dims);
    std::vector<std::string> names;
    std::vector<std::int64_t> listed;  // JSON [0, 1, 3], not floats
    for (std::size_t d : dims) {
      names.push_back(d < table.info().column_names.size() ? table.info().column_names[d] : fmt::format("dim{}", d));
      listed.push_back(static_cast<std::int64_t>(d));
    }
    info.column_names = names;
    info.params.emplace_back("dims", listed);
    info.title = fmt::format("columns {} of {}", fmt::join(dims, ","), table.info().title.empty() ? info.scheme : table.info().title);
  }
  info.shape = {coords.rows(), coords.cols()};
  out.table = std::make_unique<MatrixTable>(std::move(info), std::move(coords));
  return out;
}

}  // namespace posenc::analysis
