#pragma once
#include <utility>
/// Readers for a user's own table (`--input FILE`): .npy (float16/32/64, bfloat16, integers,
/// bool; either byte order; C or Fortran order; 1-D to max_axes-D), .npz (numpy's zip of .npy
/// members, stored or deflated) and .csv (UTF-8 text, numeric cells, optional header row,
/// pandas' and posenc's index columns, posenc's long form).
#include <string>
#include <string_view>
#include <vector>

#include "posenc/matrix.hpp"

namespace posenc::formats {

/// How an --input file is read; the defaults read what the file says.
struct ReadOptions {
  std::string format;        ///< "csv", "npy", "npz"; "" = from the extension, else from the first bytes
  char delimiter = ',';      ///< CSV cell separator (--delimiter)
  enum class Index { kAuto, kNone, kColumn };
  Index index = Index::kAuto;  ///< CSV index columns: recognised, none (--no-index), named (--index-col)
  std::string index_column;  ///< with kColumn: a header name, or a 0-based column number as pandas' index_col
  std::string npz_key;       ///< the .npz member to read ("" = the first; "x" and "x.npy" both name x.npy)
  std::string raw2;          ///< how to read 2-byte raw values ('<V2'): "" refuses, "bfloat16" or "float16"
  std::size_t max_axes = 2;  ///< arrays of 1 to this many axes (3: H x N x M bias tables)
  /// --rows A:B: keep rows A … B-1 of a 2-D table (Python's slice: A or B may be left out; a
  /// negative bound counts from the end). "" = every row.
  std::string rows;
};

/// A table read from a file, with what the file says about its rows and columns.
struct TableFile {
  Matrix values;                          ///< every axis but the last flattened into rows
  std::vector<std::size_t> shape;         ///< {N, D}, or {H, N, M} for a 3-D array; empty = {rows, cols}
  std::vector<std::string> axis_names;    ///< a long-form CSV's index headers ("head", "i", "j"); else empty
  std::string value_name;                 ///< a long-form CSV's value header ("bias"); else empty
  std::vector<std::string> column_names;  ///< from a CSV header, index column excluded; empty = none
  std::string index_name;                 ///< header of the index column read as labels ("position", "i")
  std::size_t first_position = 0;         ///< the index column's first value (its values are consecutive)
  std::vector<std::string> notes;         ///< what the reader decided for the user (an index taken, a member chosen)
};

/// Reads a 2-D .npy file (a 1-D one becomes one column). Throws Error naming the file
/// and the problem (bad magic, unsupported dtype, truncated data, ...).
Matrix read_npy(const std::string& path);
/// Same, from bytes already in memory (`name` used in messages).
Matrix parse_npy(std::string_view bytes, const std::string& name);

/// An array of any rank with its shape, flattened to (product of all axes but the last) rows ×
/// the last axis (a 1-D array is one column). `posenc check --input` reads H×N×M bias tables so.
struct NpyArray {
  std::vector<std::size_t> shape;
  Matrix values;
};
/// Like parse_npy, for arrays of 1 to `opts.max_axes` axes. Reads little- and big-endian
/// f2/f4/f8, i1..i8, u1..u8, b1, 'bfloat16' (ml_dtypes' name, as str(arr.dtype) writes it)
/// and, with opts.raw2, 2-byte raw values ('<V2', which np.save writes for ml_dtypes'
/// bfloat16); Fortran-order data is reordered to C order.
NpyArray parse_npy_array(std::string_view bytes, const std::string& name, const ReadOptions& opts);
NpyArray parse_npy_array(std::string_view bytes, const std::string& name, std::size_t max_axes);
NpyArray read_npy_array(const std::string& path, std::size_t max_axes);

/// One member of an .npz (numpy's np.savez / np.savez_compressed: a zip of .npy files,
/// stored or deflated): opts.npz_key, else the first. Throws Error naming the member, or
/// listing the members when the key is not there; a member is inflated only up to the
/// memory limit. When the archive holds several arrays and no key was given, `notes` gets
/// one saying which was read.
NpyArray parse_npz(std::string_view bytes, const std::string& name, const ReadOptions& opts,
                   std::vector<std::string>* notes = nullptr);

/// A CSV table: a header row when the first line holds text (its first cell not a number),
/// or pandas' default labels (",0,1,2"). Index columns (labels, not values) are dropped
/// from the values: pandas' (header empty or "Unnamed: N", as to_csv writes and read_csv
/// names it) and posenc's (position, token, i, t, offset, index) when they hold consecutive integers
/// from 0 or more; the last one's first value is kept as first_position. An index column of
/// integers that are not consecutive is refused (rows are read as consecutive positions).
/// posenc's long form (`head,i,j,bias`: leading integer columns enumerating every index in
/// C order, then the value) is read as the array it is, or refused past opts.max_axes.
/// Lines end in \n, \r\n or \r. Throws Error naming line and column of a bad cell, with
/// non-printable bytes shown as \xNN.
TableFile parse_csv_table(std::string_view text, const std::string& name, const ReadOptions& opts = {});
Matrix parse_csv(std::string_view text, const std::string& name);  ///< parse_csv_table's values
Matrix read_csv(const std::string& path);

/// Reads `path` ("-" is stdin) as opts.format says, else by extension (.npy, .npz, .csv,
/// .tsv), else, for a name without one (a pipe, /dev/stdin, <(...)), by its first bytes
/// (numpy's magic, a zip's, else CSV text). Refuses before reading a file whose values would
/// not fit the memory limit.
TableFile read_input(const std::string& path, const ReadOptions& opts = {});
Matrix read_table(const std::string& path);

/// read_input before `opts.rows` is applied.
TableFile read_whole_input(const std::string& path, const ReadOptions& opts = {});

/// Rows [first, end) that the slice text `rows` ("A:B", "A:", ":B", negative bounds from the end)
/// selects of a table of `count` rows. Throws Error naming --rows and the rule (an empty slice,
/// a bound past the table, not A:B).
std::pair<std::size_t, std::size_t> row_slice(const std::string& rows, std::size_t count);  ///< read_input's values

}  // namespace posenc::formats
