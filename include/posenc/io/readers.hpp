#pragma once
/// Readers for a user's own table (`--input FILE`): .npy (float32/float64/int,
/// C order, little-endian, 1-D or 2-D) and .csv (numeric cells, optional header row,
/// optional leading position column named "position").
#include <string>
#include <vector>

#include "posenc/matrix.hpp"

namespace posenc::io {

/// Reads a 2-D .npy file (a 1-D one becomes one column). Throws Error naming the file
/// and the problem (bad magic, unsupported dtype, Fortran order, truncated data, ...).
Matrix read_npy(const std::string& path);
/// Same, from bytes already in memory (`name` used in messages).
Matrix parse_npy(std::string_view bytes, const std::string& name);

/// An array of any rank with its shape, flattened to (product of all axes but the last) rows ×
/// the last axis (a 1-D array is one column). `posenc check --input` reads H×N×M bias tables so.
struct NpyArray {
  std::vector<std::size_t> shape;
  Matrix values;
};
/// Like parse_npy, for arrays of 1 to `max_axes` axes.
NpyArray parse_npy_array(std::string_view bytes, const std::string& name, std::size_t max_axes);
NpyArray read_npy_array(const std::string& path, std::size_t max_axes);

/// Reads a CSV table. Throws Error naming line and column of a bad cell.
Matrix read_csv(const std::string& path);
Matrix parse_csv(std::string_view text, const std::string& name);

/// Reads by extension (.npy or .csv).
Matrix read_table(const std::string& path);

}  // namespace posenc::io
