#pragma once
/// Terminal previews: images as 24-bit colour half-block characters.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "posenc/render/image.hpp"

namespace posenc::render {

/// One text line per two pixel rows: "▀" with the foreground colour of the upper pixel and
/// the background colour of the lower one (an odd last row gets the terminal's default
/// background). Colour codes are written only when they change; each line ends with a reset.
std::string ansi_half_blocks(const Image& img);

/// Without colour (NO_COLOR, --color never), previews draw values with this ramp of glyphs,
/// lowest first (a blank is NaN, masked or background), and the series of a line plot with
/// kSeriesGlyphs (the legend names each).
inline constexpr std::string_view kGlyphRamp = ".:-=+*#%@";
inline constexpr std::string_view kSeriesGlyphs = "*o+x#@%&=~";
/// The ramp's glyph for `v` in [0, 1]: level floor(v·9) (clamped); ' ' for NaN.
char ramp_glyph(double v);
/// The glyph of series `i` (kSeriesGlyphs, repeating after 10).
char series_glyph(std::size_t i);
/// One text line per two pixel rows: each pixel's colour turned back into its value under
/// colormap `cmap` (the nearest of 256 samples, within a small distance; the mean of the
/// two rows when both have one) and drawn with ramp_glyph. Other colours are blank, or '.'
/// when dark and `ink_dots` (axes and frames of plots).
std::string glyph_values(const Image& img, const std::string& cmap, bool ink_dots);
/// One text line per two pixel rows: pixels of series i's colour (`series`) drawn with
/// series_glyph(i) (the upper pixel first), other dark pixels '.', the rest blank.
std::string glyph_series(const Image& img, const std::vector<Rgb>& series);

/// Heatmap cells resized to w × h by their values, not their colours: each pixel's colour is
/// turned back into its index in colormap `cmap` (mid grey: NaN), and is coloured by the map
/// again. So a shrunk preview shows only colours of the map (averaging red and blue in RGB
/// would give purple). A colour the map does not hold counts as NaN.
///
/// Rows: each output row takes the mean (`by_max`: the largest) of the values of the rows it
/// covers, weighted by the covered area, or the nearest row when enlarging. Columns: the same,
/// unless they are reduced and alternate (columns_alternate, on the rows so reduced): then
/// each output column shows one table column, alternating_sample's, and `*sampled` is set.
/// Averaging 1.6 interleaved sin/cos columns per character would draw stripes (beats) that
/// are not in the data; sampling shows real cells, sin and cos still alternating.
/// `table_cols`: the columns of the table the image shows, when its width is a whole multiple
/// of them (k pixels per cell); else (0, or a reduced image) each pixel is a column.
Image resample_cells(const Image& cells, const std::string& cmap, int w, int h, bool by_max = false,
                     std::size_t table_cols = 0, bool* sampled = nullptr);

/// Columns alternate when neighbouring cells differ more than cells two apart: summed over
/// the rows, Σ(v[c+1] − v[c])² > kAlternationRatio · Σ(v[c+2] − v[c])² (NaN cells left out).
/// For a stationary row that is "lag-1 correlation below lag-2 correlation": interleaved
/// sin/cos tables give 1.2 (100000×128) to 13 (2048×1024), split layouts, similarity and
/// bucket matrices 0.25 to 0.95, white noise 1.0 (`v`: rows × cols values, row-major).
constexpr double kAlternationRatio = 1.1;
bool columns_alternate(const std::vector<double>& v, int rows, int cols);

/// The column output column x of m shows when n alternating columns are sampled: the column
/// of the same parity as x nearest x's centre ((x + ½)·n/m − ½), so even and odd columns
/// (sin, cos) keep alternating and each is at most one column from its place.
int alternating_sample(int x, int n, int m);

/// The terminal width: $COLUMNS if it is a positive number, else the width of the terminal
/// on stdout, else 80.
int terminal_columns();

/// The terminal height in lines: $LINES if it is a positive number, else the height of the
/// terminal on stdout, else 24.
int terminal_lines();

}  // namespace posenc::render
