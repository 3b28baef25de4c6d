#pragma once
/// Heatmap of a 2-D table: rows = positions (top to bottom), columns = dimensions.
#include <string>

#include "posenc/render/image.hpp"
#include "posenc/table.hpp"

namespace posenc::render {

struct HeatmapOptions {
  std::string cmap;         ///< "" = viridis for non-negative data, RdBu centred on 0 for signed data
  int max_width = 1600;     ///< matrices larger than this are reduced (area averaging)
  int max_height = 1600;
  int min_cell = 1;         ///< small tables are scaled up so each cell is at least this many pixels
  int target_size = 640;    ///< small tables are scaled up by an integer factor towards this size
};

/// Renders the table (3-D tables: the first slice). Streams rows, holding only the reduced image.
Image heatmap(const Table& t, const HeatmapOptions& opt = {});

}  // namespace posenc::render
