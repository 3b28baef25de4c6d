#pragma once
/// `posenc project`: a table's positions as 2 or 3 coordinates (chosen columns or PCA), as a
/// table with the command's column names, parameters and results. Any front end gets it here.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "posenc/table.hpp"

namespace posenc::analysis {

/// Error for --dims with --pca, or --dims of other than 2 or 3 columns.
void check_project_options(const std::vector<std::size_t>& dims, int pca);
/// Error for a scheme of biases between positions (no vectors to project).
void check_project_scheme(const std::string& scheme);

struct Projection {
  std::unique_ptr<Table> table;  ///< positions × coordinates ("pc1".. or the columns' names)
  std::string note;              ///< "" or why some components are zero (a rank below pca)
};

/// Columns `dims` of the 2-D `table`, or its first `pca` principal components; with neither,
/// its own columns when it has 2 or 3, else pca 2. The result's params gain "dims" or "pca",
/// its results "explained_variance_ratio" (PCA). Error for a table that is not 2-D, beyond the
/// working memory limit, or (PCA) holding a value that is not finite (`input`: the --input file
/// named in that message, "" for a scheme's table).
Projection project_table(const Table& table, const std::vector<std::size_t>& dims, int pca, const std::string& input);

}  // namespace posenc::analysis
