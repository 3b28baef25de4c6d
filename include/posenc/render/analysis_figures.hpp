#pragma once
/// The figures of `posenc project` and `posenc decay`, built from the library's results so that
/// every front end draws the same picture.
#include <cstdint>
#include <string>
#include <vector>

#include "posenc/analysis/decay_run.hpp"
#include "posenc/render/figure.hpp"
#include "posenc/table.hpp"

namespace posenc::render {

/// The scatter of a projected table (analysis::project_table), coloured by position; the
/// subtitle gives the explained variance of PCA components.
ScatterFigure projection_figure(const Table& projected);

/// What a decay figure says besides its curves.
struct DecayFigureText {
  std::string who;     ///< the scheme, or the --input file
  std::string scheme;  ///< "" for an --input table
  std::string metric = "dot";
  std::string vary;
  bool compared = false;    ///< --compare given: the title names no scheme
  bool normalised = false;  ///< the curves are divided by their value at Δ = 0
  std::int64_t from = 0;
};

/// The line figure of a decay run over `offsets` (the legend is the run's).
LineFigure decay_figure(const DecayFigureText& t, const std::vector<std::int64_t>& offsets, const analysis::DecayRun& run);

}  // namespace posenc::render
