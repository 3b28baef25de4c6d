// parse_csv_grid: a user's CSV split into a header and numbers, read the way pandas and
// posenc write it (csv_layout.cpp then finds its index columns and long form).
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <vector>

#include "posenc/error.hpp"
#include "csv_internal.hpp"
#include "posenc/formats/readers.hpp"
#include "posenc/memory.hpp"
#include "posenc/text.hpp"

namespace posenc::formats {

namespace {

[[noreturn]] void fail_csv(const std::string& name, const std::string& what) {
  throw Error(fmt::format("--input '{}': {}", name, what));
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

/// 'cell' quoted for a message; " (the file must be UTF-8 text)" when it held bytes that are not.
std::string quoted_cell(std::string_view cell) {
  bool escaped = false;
  const std::string text = printable(trim(cell), 80, &escaped);
  if (escaped) {  // a tab (another separator) is text: only other bytes make the remark
    std::string no_tabs(trim(cell));
    std::replace(no_tabs.begin(), no_tabs.end(), '\t', ' ');
    printable(no_tabs, 80, &escaped);
  }
  return fmt::format("'{}' is not a number{}", text, escaped ? " (CSV files must be UTF-8 text)" : "");
}

/// Splits one CSV line into cells; double quotes may enclose a cell ("" is a quote).
std::vector<std::string> split_cells(std::string_view line, const std::string& name, std::size_t line_no, char delimiter) {
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
    } else if (c == delimiter) {
      cells.emplace_back();
    } else {
      cells.back() += c;
    }
  }
  if (quoted) fail_csv(name, fmt::format("line {}: unterminated quote", line_no));
  return cells;
}

/// The next line of `text` (without its end: \n, \r\n or a lone \r), removed from `text`.
std::string_view next_line(std::string_view& text) {
  const std::size_t eol = text.find_first_of("\r\n");
  const std::string_view line = text.substr(0, eol);
  if (eol == std::string_view::npos) {
    text = {};
  } else {
    text.remove_prefix(eol + (text[eol] == '\r' && eol + 1 < text.size() && text[eol + 1] == '\n' ? 2 : 1));
  }
  return line;
}

/// UTF-16 (with a byte order mark, or NUL bytes between ASCII ones) and other binary data.
void check_text(std::string_view text, const std::string& name) {
  if (text.substr(0, 2) == "\xFF\xFE" || text.substr(0, 2) == "\xFE\xFF")
    fail_csv(name, "the file is UTF-16 text: save it as UTF-8 (CSV files must be UTF-8 text)");
  const std::size_t nul = text.find('\0');
  if (nul == std::string_view::npos) return;
  std::size_t line = 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(nul), '\n'));
  fail_csv(name, fmt::format("line {} holds a NUL byte (\\x00): not a text file; CSV files must be UTF-8 text{}", line,
                         nul % 2 == 1 && nul < 4 ? " (this looks like UTF-16: save it as UTF-8)" : ""));
}

/// pandas' default column labels after an unnamed index: ",0,1,2".
bool pandas_labels(const std::vector<std::string>& cells) {
  if (cells.size() < 2 || !trim(cells[0]).empty()) return false;
  for (std::size_t c = 1; c < cells.size(); ++c)
    if (trim(cells[c]) != std::to_string(c - 1)) return false;
  return true;
}

/// A hint for a cell that is not a number because the file uses another separator.
std::string separator_hint(std::string_view cell, char delimiter) {
  for (const char c : {';', '\t', '|', ','}) {
    if (c != delimiter && cell.find(c) != std::string_view::npos)
      return fmt::format(" (the cells are split at {}: give --delimiter {} if the file separates them with {})",
                         delimiter_name(delimiter), delimiter_name(c), delimiter_name(c));
  }
  return "";
}

}  // namespace

std::string delimiter_name(char c) {
  if (c == '\t') return "tab";
  if (c == ' ') return "space";
  return fmt::format("'{}'", c);
}

CsvGrid parse_csv_grid(std::string_view text, const std::string& name, char delimiter) {
  check_text(text, name);
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // UTF-8 byte order mark
  // Every value is sized before it is stored: at most one per separator or line end.
  const std::size_t most = static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [delimiter](char c) {
                             return c == delimiter || c == '\n' || c == '\r';
                           })) + 1;
  check_memory(most, sizeof(double), fmt::format("--input '{}'", name));
  CsvGrid g;
  g.values.reserve(most);
  std::size_t first_line = 0, line_no = 0;
  bool seen_first = false;
  while (!text.empty()) {
    const std::string_view line = next_line(text);
    ++line_no;
    if (trim(line).empty()) continue;
    auto cells = split_cells(line, name, line_no, delimiter);
    if (!seen_first) {
      seen_first = true;
      g.cols = cells.size();
      first_line = line_no;
      const auto text_cell = std::find_if(cells.begin(), cells.end(), [](const auto& c) { return !parse_number(c); });
      if (text_cell != cells.end()) {
        // A header names columns: its first cell is a name or empty, never a number. A first
        // line starting with a number and holding text is a data row with a bad cell.
        if (!trim(cells[0]).empty() && parse_number(cells[0])) {
          fail_csv(name, fmt::format("line 1, column {}: {} (line 1 starts with a number, so it is data, not a header)",
                                 text_cell - cells.begin() + 1, quoted_cell(*text_cell)));
        }
        g.header = std::move(cells);
        for (auto& h : g.header) h = std::string(trim(h));
        g.header_line = line_no;
        continue;
      }
      if (pandas_labels(cells)) {
        g.header = std::move(cells);
        for (auto& h : g.header) h = std::string(trim(h));
        g.header_line = line_no;
        continue;
      }
    }
    if (cells.size() != g.cols) {
      fail_csv(name, fmt::format("line {} has {} cell{}, expected {} as on line {}{}", line_no, cells.size(),
                             cells.size() == 1 ? "" : "s", g.cols, first_line,
                             cells.size() == 1 || g.cols == 1 ? separator_hint(line, delimiter) : ""));
    }
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const auto v = parse_number(cells[c]);
      if (!v)
        fail_csv(name, fmt::format("line {}, column {}: {}{}", line_no, c + 1, quoted_cell(cells[c]),
                               separator_hint(cells[c], delimiter)));
      g.values.push_back(*v);
    }
    if (g.first_data_line == 0) g.first_data_line = line_no;
    ++g.rows;
  }
  if (!seen_first) fail_csv(name, "empty file");
  if (g.rows == 0) fail_csv(name, "no data rows after the header");
  return g;
}

}  // namespace posenc::formats
