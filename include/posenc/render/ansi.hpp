#pragma once
/// Terminal previews: images as 24-bit colour half-block characters.
#include <string>

#include "posenc/render/image.hpp"

namespace posenc::render {

/// One text line per two pixel rows: "▀" with the foreground colour of the upper pixel and
/// the background colour of the lower one (an odd last row gets the terminal's default
/// background). Colour codes are written only when they change; each line ends with a reset.
std::string ansi_half_blocks(const Image& img);

/// `img` resized to w × h: each output pixel is the mean of the input area it covers
/// (exact area weights), or the nearest input pixel when enlarging.
Image resize_area(const Image& img, int w, int h);

/// The terminal width: $COLUMNS if it is a positive number, else the width of the terminal
/// on stdout, else 80.
int terminal_columns();

}  // namespace posenc::render
