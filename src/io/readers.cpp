#include "posenc/io/readers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <vector>

#include "posenc/error.hpp"

namespace posenc::io {

namespace {

[[noreturn]] void fail(const std::string& name, const std::string& what) {
  throw Error(fmt::format("--input '{}': {}", name, what));
}

std::string read_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) fail(path, "is a folder, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, fmt::format("cannot open: {}", std::strerror(errno)));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) fail(path, fmt::format("cannot read: {}", std::strerror(errno)));
  return std::move(ss).str();
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

/// A number as written by numpy, pandas or posenc: decimal, nan, inf; empty is NaN (pandas' na_rep).
std::optional<double> parse_number(std::string_view s) {
  s = trim(s);
  if (s.empty()) return std::numeric_limits<double>::quiet_NaN();
  if (s.front() == '+') s.remove_prefix(1);
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);  // locale-free
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

/// Splits one CSV line into cells; double quotes may enclose a cell ("" is a quote).
std::vector<std::string> split_cells(std::string_view line, const std::string& name, std::size_t line_no) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cells.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cells.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      cells.emplace_back();
    } else {
      cells.back() += c;
    }
  }
  if (quoted) fail(name, fmt::format("line {}: unterminated quote", line_no));
  return cells;
}

}  // namespace

Matrix parse_csv(std::string_view text, const std::string& name) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // UTF-8 byte order mark
  std::vector<double> values;
  std::size_t cols = 0, rows = 0, first_line = 0, line_no = 0;
  bool seen_first = false, drop_first = false;
  while (!text.empty()) {
    const std::size_t eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // CRLF
    if (trim(line).empty()) continue;
    const auto cells = split_cells(line, name, line_no);
    if (!seen_first) {
      seen_first = true;
      cols = cells.size();
      first_line = line_no;
      const bool header = std::any_of(cells.begin(), cells.end(), [](const auto& c) { return !parse_number(c); });
      if (header) {
        // A leading "position" column (posenc's own CSV) or an unnamed one (pandas' index) is a label.
        const std::string first = lower(std::string(trim(cells[0])));
        drop_first = first == "position" || first.empty();
        if (drop_first && cols == 1) fail(name, "no data columns besides 'position'");
        continue;
      }
    }
    if (cells.size() != cols) {
      fail(name, fmt::format("line {} has {} cell{}, expected {} as on line {}", line_no, cells.size(),
                             cells.size() == 1 ? "" : "s", cols, first_line));
    }
    for (std::size_t c = drop_first ? 1 : 0; c < cells.size(); ++c) {
      const auto v = parse_number(cells[c]);
      if (!v) fail(name, fmt::format("line {}, column {}: '{}' is not a number", line_no, c + 1, trim(cells[c])));
      values.push_back(*v);
    }
    ++rows;
  }
  if (!seen_first) fail(name, "empty file");
  if (rows == 0) fail(name, "no data rows after the header");
  const std::size_t width = cols - (drop_first ? 1 : 0);
  Matrix m(rows, width);
  std::copy(values.begin(), values.end(), m.data().begin());
  return m;
}

Matrix read_csv(const std::string& path) { return parse_csv(read_file(path), path); }

Matrix read_npy(const std::string& path) { return parse_npy(read_file(path), path); }

NpyArray read_npy_array(const std::string& path, std::size_t max_axes) {
  return parse_npy_array(read_file(path), path, max_axes);
}

Matrix read_table(const std::string& path) {
  const std::string ext = lower(std::filesystem::path(path).extension().string());
  if (ext == ".npy") return read_npy(path);
  if (ext == ".csv") return read_csv(path);
  fail(path, fmt::format("cannot read '{}' files: give a .npy or .csv file", ext.empty() ? path : ext));
}

}  // namespace posenc::io
