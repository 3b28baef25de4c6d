#pragma once
/// Heatmap of a 2-D table: rows = positions (top to bottom), columns = dimensions (left to
/// right). Only the cells: axes, labels and colorbar are drawn around this image elsewhere.
///
/// Size rule. Let the table have R rows and C columns (3-D tables: the first slice).
/// The limits are W = min(max_width, reduce_to) and H = min(max_height, reduce_to): 512 × 512
/// by default; a square table (R = C: similarity, bias and bucket matrices) uses min(W, H) for
/// both, so that it stays square.
/// - If it fits (C <= W and R <= H), every cell becomes a square of k×k
///   pixels, k = max(min_cell, floor(target_size / max(R, C))), lowered if needed so that the
///   image stays within max_width × max_height (k >= 1). A 50×128 table gives k = 5: 640×250.
/// - Otherwise the table is reduced: each axis longer than its limit (W, H) is reduced to
///   exactly the limit (the other axis is kept). With Reduction::kMean each output pixel is
///   the mean of the cells it covers, weighted by the covered area (a cell can straddle two
///   pixels); with Reduction::kMax it is the largest of the cells it touches, so that a bias
///   or bucket matrix shows values it really holds (a bucket id, the bias nearest zero) rather
///   than averages of them. NaN cells are left out (and -inf cells too, for kMax); a pixel
///   covering only such cells is grey. The reduced cells are not square when only one axis
///   is reduced.
///
/// Colour range. Finite values only (NaN and ±inf are ignored when finding it); NaN and ±inf
/// cells (e.g. masked causal biases) are drawn mid grey, the colormaps' NaN colour. With no
/// --cmap: RdBu centred on 0 (range ±max|v|) when some value is negative, else viridis over
/// [min, max]. A diverging --cmap is also centred on 0 for signed data. A constant table maps
/// to the middle of the colormap.
#include <cmath>
#include <cstddef>
#include <string>
#include <utility>

#include "posenc/render/image.hpp"
#include "posenc/table.hpp"

namespace posenc::render {

/// How a table larger than the image is reduced to it.
enum class Reduction {
  kMean,  ///< area-weighted mean of the cells a pixel covers (continuous values)
  kMax,   ///< largest cell a pixel touches (bias and bucket matrices)
};

struct HeatmapOptions {
  std::string cmap;         ///< "" = viridis for non-negative data, RdBu centred on 0 for signed data
  int max_width = 1600;     ///< the image never exceeds this (small tables are scaled up within it)
  int max_height = 1600;
  int min_cell = 1;         ///< small tables are scaled up so each cell is at least this many pixels
  int target_size = 640;    ///< small tables are scaled up by an integer factor towards this size
  /// An axis longer than min(reduce_to, max_width or max_height) is reduced (area averaging) to
  /// that length. 512: about what matplotlib's default figure (640×480) shows of a table
  /// (~500×370 px), so the PNG is no larger than that figure's; power-of-two tables then
  /// reduce by whole factors, which compress best.
  int reduce_to = 512;
  Reduction reduction = Reduction::kMean;
  double range_lo = NAN;    ///< both finite: this colour range instead of the data's (panels sharing a colorbar)
  double range_hi = NAN;
  std::size_t slice = 0;    ///< of a 3-D table (H × N × M): which N × M matrix to draw
};

struct HeatmapResult {
  Image image;                     ///< the cells only
  double lo = 0, hi = 0;           ///< values at the two ends of the colormap (for a colorbar)
  std::string cmap;                ///< colormap used
  int cell_px = 0;                 ///< pixels per cell side when not reduced; 0 when reduced
  bool reduced = false;            ///< cells were reduced (opt.reduction) into fewer pixels
  std::size_t rows = 0, cols = 0;  ///< cells shown (rows of the first slice × columns)
};

/// Renders the table (3-D tables: slice opt.slice). Streams rows twice (range, then colours)
/// when the table fits; a reduced table is streamed once, as float32 (Table::fill_f32), into
/// per-pixel sums. A reduced ToeplitzTable (entry (i, j) = g(j − i): T5, symmetric ALiBi,
/// closed-form similarities) is drawn from its N + M − 1 diagonals in O((N + M) · width)
/// instead, with the same pixels. Throws Error for an empty table.
HeatmapResult heatmap(const Table& t, const HeatmapOptions& opt = {});

/// The range {lo, hi} of the finite values of the first `slices` slices of `t` as heatmap()
/// reads them: float32 values (Table::fill_f32) for Reduction::kMean, the values themselves
/// for kMax; {0, 0} when no value is finite. `masked` gets the number of NaN and ±inf cells.
/// Rows are read in blocks on the worker threads; a ToeplitzTable from its diagonals.
std::pair<double, double> heatmap_range(const Table& t, std::size_t slices, Reduction reduction, std::size_t& masked);

}  // namespace posenc::render
