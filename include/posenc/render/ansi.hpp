#pragma once
/// Terminal previews: images as 24-bit colour half-block characters.
#include <string>

#include "posenc/render/image.hpp"

namespace posenc::render {

/// One text line per two pixel rows: "▀" with the foreground colour of the upper pixel and
/// the background colour of the lower one (an odd last row gets the terminal's default
/// background). Colour codes are written only when they change; each line ends with a reset.
std::string ansi_half_blocks(const Image& img);

/// Heatmap cells resized to w × h by their values, not their colours: each pixel's colour is
/// turned back into its index in colormap `cmap` (mid grey: NaN), each output pixel takes the
/// mean (`by_max`: the largest) of the values of the area it covers, weighted by the covered
/// area, or the nearest cell when enlarging, and is coloured by the map again. So a shrunk
/// preview shows only colours of the map (averaging red and blue in RGB would give purple).
/// A colour the map does not hold counts as NaN.
Image resample_cells(const Image& cells, const std::string& cmap, int w, int h, bool by_max = false);

/// The terminal width: $COLUMNS if it is a positive number, else the width of the terminal
/// on stdout, else 80.
int terminal_columns();

/// The terminal height in lines: $LINES if it is a positive number, else the height of the
/// terminal on stdout, else 24.
int terminal_lines();

}  // namespace posenc::render
