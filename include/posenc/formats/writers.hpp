#pragma once
/// Writers stream a Table to an ostream block by block; they never compute.
/// Numbers are written with fmt's "{}" (shortest round-trip, locale-free). In
/// float32 mode the values come from Table::fill_f32 (a table's fast float path, within
/// 1e-6 of its double values; else the double rounded to float) and are printed as floats,
/// so CSV, JSON and .npy hold the same float32 values.
/// NaN and infinities: CSV writes nan, inf, -inf (read by pandas and numpy);
/// JSON writes null (JSON has no NaN).
#include <cstdint>
#include <ostream>

#include "posenc/formats/format.hpp"
#include "posenc/table.hpp"

namespace posenc::formats {

/// Rows per block when streaming.
std::size_t block_rows(std::size_t cols);

/// CSV: header row, then one row per position; the first column is the position.
/// 3-D tables (heads) are written in long form: `head,i,j,<value_name>`.
void write_csv(const Table& t, std::ostream& out, DType dtype);

/// JSON object: scheme, params, results, shape, axes, columns, dtype, data (nested row-major).
void write_json(const Table& t, std::ostream& out, DType dtype);

/// numpy .npy format version 1.0, little-endian, C order, '<f4' or '<f8'.
void write_npy(const Table& t, std::ostream& out, DType dtype);

/// A lower bound of the bytes `format` takes for table `t`, for the free-space check before a
/// file is written: exact for npy; 2 bytes a value for CSV and JSON (a digit and a
/// separator, the shortest a number can be); 0 for figures (small whatever the table).
/// Saturates at UINT64_MAX.
std::uint64_t min_output_bytes(const Table& t, Format format, DType dtype);

/// The 10-byte magic + version + header of a .npy file with 64-byte aligned length.
std::string npy_header(const std::vector<std::size_t>& shape, DType dtype);

}  // namespace posenc::formats
