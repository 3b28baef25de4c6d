#pragma once
// The words on heatmap figures of tables: titles, panel titles, axis names, numbers.
#include <cstddef>
#include <string>
#include <utility>

#include "posenc/table.hpp"

namespace posenc::render {

/// What axis `axis` of a table is called on a figure: "dimension" for dim, "position i" /
/// "query position i" (alibi, t5) for i, likewise j; else its name, or `fallback`.
std::string axis_label(const TableInfo& info, std::size_t axis, const std::string& fallback);

/// "integer, N=50, D=16" for tables that have no title of their own: the usual letters for
/// the usual axes (N positions, D dimensions, H heads), else the axis name.
std::string default_title(const TableInfo& info);

/// Long and short title of panel `slice` of a 3-D table: "head 13 (m = 2^-3.5)" and
/// "h13 m=2^-3.5" when the table lists slopes, else "head 13" and "h13".
std::pair<std::string, std::string> panel_titles(const TableInfo& info, std::size_t slice);

/// Shortest round-trip form with a typographic minus sign ("−1", "0.5").
std::string typeset(double v);

}  // namespace posenc::render
