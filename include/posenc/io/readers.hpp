#pragma once
/// Readers for a user's own table (`--input FILE`): .npy (float32/float64/int/bool,
/// C order, little-endian, 1-D or 2-D) and .csv (UTF-8 text, numeric cells, optional header
/// row, optional index column).
#include <string>
#include <string_view>
#include <vector>

#include "posenc/matrix.hpp"

namespace posenc::io {

/// A table read from a file, with what the file says about its rows and columns.
struct TableFile {
  Matrix values;
  std::vector<std::string> column_names;  ///< from a CSV header, index column excluded; empty = none
  std::string index_name;                 ///< header of the index column read as labels ("position", "i")
  std::size_t first_position = 0;         ///< the index column's first value (its values are consecutive)
};

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

/// A CSV table: a header row when the first line holds text (its first cell not a number),
/// or pandas' default labels (",0,1,2"). The first column is an index, dropped from the values
/// and kept as first_position, when its header is position, i, t, offset, index or empty and
/// its values are consecutive integers from 0 or more (posenc's and pandas' own CSVs).
/// Lines end in \n, \r\n or \r. Throws Error naming line and column of a bad cell, with
/// non-printable bytes shown as \xNN.
TableFile parse_csv_table(std::string_view text, const std::string& name);
Matrix parse_csv(std::string_view text, const std::string& name);  ///< parse_csv_table's values
Matrix read_csv(const std::string& path);

/// Reads by extension (.npy or .csv), refusing before reading a file whose values would not
/// fit the memory limit.
TableFile read_input(const std::string& path);
Matrix read_table(const std::string& path);  ///< read_input's values

}  // namespace posenc::io
