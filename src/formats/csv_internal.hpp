#pragma once
// The CSV reader's two steps, shared by csv_reader.cpp (text to numbers) and csv_layout.cpp
// (which columns are an index, whether the table is posenc's long form).
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace posenc::formats {

/// A CSV's cells: an optional header (trimmed) and rows x cols numbers, row-major.
struct CsvGrid {
  std::vector<std::string> header;
  std::vector<double> values;
  std::size_t rows = 0, cols = 0;
  std::size_t header_line = 0;      ///< 0 = no header
  std::size_t first_data_line = 0;  ///< the line of row 0 (for messages)
};

/// Splits `text` at `delimiter` and line ends; throws Error naming line and column of a bad cell.
CsvGrid parse_csv_grid(std::string_view text, const std::string& name, char delimiter);

/// "tab", "space" or the character quoted: how a separator is named in messages.
std::string delimiter_name(char c);

}  // namespace posenc::formats
