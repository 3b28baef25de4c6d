// parse_csv_table, declared in readers.hpp: which columns of a CSV are an index (pandas',
// posenc's, or the one --index-col names) and whether it is posenc's long form.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include "csv_internal.hpp"
#include "posenc/error.hpp"
#include "posenc/formats/readers.hpp"
#include "posenc/text.hpp"

namespace posenc::formats {

namespace {

[[noreturn]] void fail_layout(const std::string& name, const std::string& what) {
  throw Error(fmt::format("--input '{}': {}", name, what));
}

double at(const CsvGrid& g, std::size_t r, std::size_t c) { return g.values[r * g.cols + c]; }

bool is_position(double v) { return v >= 0 && v < 0x1p53 && std::floor(v) == v; }

/// pandas' marks of an index: to_csv writes it with an empty header, read_csv names that
/// column "Unnamed: 0" (and a re-save keeps the name).
bool is_pandas_index(const std::string& h) {
  if (h.empty()) return true;
  const std::string_view prefix = "Unnamed: ";
  if (h.size() <= prefix.size() || h.compare(0, prefix.size(), prefix) != 0) return false;
  return std::all_of(h.begin() + static_cast<std::ptrdiff_t>(prefix.size()), h.end(),
                     [](unsigned char c) { return std::isdigit(c) != 0; });
}

/// posenc's index headers (and the usual names of one).
bool is_posenc_index(const std::string& header) {
  std::string h = header;
  std::transform(h.begin(), h.end(), h.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  static const std::set<std::string> kNames = {"position", "token", "i", "t", "offset", "index"};
  return kNames.count(h) != 0;
}

/// "column 2 ('position')", "column 1 (pandas' unnamed index)"; with `values`, the
/// column's first and last value too: "column 2 ('position', 0..99)".
std::string column_text(const CsvGrid& g, std::size_t c, bool values = false) {
  std::vector<std::string> parts;
  if (!g.header.empty()) {
    const std::string& h = g.header[c];
    if (h.empty()) {
      parts.push_back("pandas' unnamed index");
    } else {
      parts.push_back(fmt::format("'{}'", printable(h)));
      if (is_pandas_index(h)) parts.push_back("pandas' index");
    }
  }
  if (values) parts.push_back(fmt::format("{}..{}", at(g, 0, c), at(g, g.rows - 1, c)));
  return parts.empty() ? fmt::format("column {}", c + 1) : fmt::format("column {} ({})", c + 1, fmt::join(parts, ", "));
}

/// The first row where column c stops being consecutive integers from a first value >= 0
/// (g.rows when it does not).
std::size_t first_break(const CsvGrid& g, std::size_t c) {
  const double first = at(g, 0, c);
  if (!is_position(first)) return 0;
  for (std::size_t r = 1; r < g.rows; ++r)
    if (at(g, r, c) != first + static_cast<double>(r)) return r;
  return g.rows;
}

bool increasing_integers(const CsvGrid& g, std::size_t c) {
  for (std::size_t r = 0; r < g.rows; ++r)
    if (!is_position(at(g, r, c)) || (r > 0 && !(at(g, r, c) > at(g, r - 1, c)))) return false;
  return true;
}

/// Refuses an index column whose labels are not consecutive positions.
[[noreturn]] void refuse_index(const CsvGrid& g, std::size_t c, std::size_t r, const std::string& name) {
  const double v = at(g, r, c);
  const std::string what =
      r == 0 ? fmt::format("its first label {} is not a position (an integer >= 0)", v)
             : fmt::format("its labels are not consecutive positions ({} then {})", at(g, r - 1, c), v);
  fail_layout(name, fmt::format("{} is an index, but {}, and posenc reads rows as consecutive positions: give --index-col {} "
                         "(0-based, as pandas' index_col) to take it as labels anyway, or --no-index to read it as data",
                         column_text(g, c), what, c));
}

/// The column --index-col names: a header cell, else a 0-based number (pandas' index_col).
std::size_t find_column(const CsvGrid& g, const std::string& key, const std::string& name) {
  for (std::size_t c = 0; c < g.header.size(); ++c)
    if (g.header[c] == key) return c;
  std::size_t c = 0;
  const bool number = !key.empty() && key.size() < 10 && std::all_of(key.begin(), key.end(), [](unsigned char ch) {
    return std::isdigit(ch) != 0;
  });
  if (number) c = std::stoul(key);
  if (!number || c >= g.cols) {
    std::vector<std::string> names;
    for (const auto& h : g.header) names.push_back(fmt::format("'{}'", printable(h, 40)));
    fail_layout(name, fmt::format("--index-col '{}' names no column: give a number 0..{}{}", printable(key), g.cols - 1,
                           names.empty() ? std::string(" (the file has no header)")
                                         : fmt::format(" or one of {}", fmt::join(names, ", "))));
  }
  return c;
}

/// posenc's long form (`head,i,j,bias`): k >= 3 leading columns enumerating every index of a
/// k-D array in C order, then the value. Returns the shape, or empty.
std::vector<std::size_t> long_form_shape(const CsvGrid& g, const std::vector<std::size_t>& keep) {
  if (g.header.empty() || keep.size() < 4) return {};
  const std::size_t k = keep.size() - 1;
  std::vector<std::size_t> shape(k);
  std::size_t total = 1;
  for (std::size_t a = 0; a < k; ++a) {
    double top = 0;
    for (std::size_t r = 0; r < g.rows; ++r) {
      const double v = at(g, r, keep[a]);
      if (!is_position(v) || v >= static_cast<double>(g.rows)) return {};
      top = std::max(top, v);
    }
    shape[a] = static_cast<std::size_t>(top) + 1;
    total *= shape[a];  // each axis <= rows, and the product is checked against rows as it grows
    if (total > g.rows) return {};
  }
  if (total != g.rows) return {};
  std::vector<std::size_t> index(k, 0);
  for (std::size_t r = 0; r < g.rows; ++r) {
    for (std::size_t a = 0; a < k; ++a)
      if (at(g, r, keep[a]) != static_cast<double>(index[a])) return {};
    for (std::size_t a = k; a-- > 0;) {  // next index, last axis first
      if (++index[a] < shape[a]) break;
      index[a] = 0;
    }
  }
  return shape;
}

std::string shape_text(const std::vector<std::size_t>& shape) { return fmt::format("{}", fmt::join(shape, " x ")); }

}  // namespace

TableFile parse_csv_table(std::string_view text, const std::string& name, const ReadOptions& opts) {
  CsvGrid g = parse_csv_grid(text, name, opts.delimiter);
  TableFile out;
  std::vector<std::size_t> index;  // columns read as labels, in order
  std::vector<std::string> noted;  // pandas' index columns taken, for the note
  if (opts.index == ReadOptions::Index::kColumn) {
    const std::size_t c = find_column(g, opts.index_column, name);
    if (g.cols == 1) fail_layout(name, fmt::format("--index-col {}: no data columns besides it", c));
    index.push_back(c);
    if (first_break(g, c) != g.rows)
      out.notes.push_back(fmt::format("--input '{}': the labels of {} are not consecutive positions: the rows are read "
                                      "as positions 0..{} in file order",
                                      name, column_text(g, c), g.rows - 1));
  } else if (opts.index == ReadOptions::Index::kAuto && !g.header.empty()) {
    // pandas' index columns first (a re-saved file can have several), then posenc's own.
    std::size_t c = 0;
    for (; c < g.cols && is_pandas_index(g.header[c]); ++c) {
      const std::size_t r = first_break(g, c);
      if (r != g.rows) refuse_index(g, c, r, name);
      index.push_back(c);
      noted.push_back(column_text(g, c, true));
    }
    if (c < g.cols && is_posenc_index(g.header[c])) {
      const std::size_t r = first_break(g, c);
      if (r == g.rows) {
        index.push_back(c);
        if (!noted.empty()) noted.push_back(column_text(g, c, true));
      } else if (increasing_integers(g, c)) {
        refuse_index(g, c, r, name);
      }
    }
    if (!index.empty() && index.size() == g.cols)
      fail_layout(name, fmt::format("no data columns besides '{}'", printable(g.header[index.back()])));
    if (!noted.empty())
      out.notes.push_back(fmt::format("--input '{}': took {} as the index (position labels), not as data; --no-index "
                                      "reads {} as data",
                                      name, fmt::join(noted, " and "), noted.size() == 1 ? "it" : "them"));
  }
  if (!index.empty()) {
    const std::size_t c = index.back();
    const double first = at(g, 0, c);
    if (first_break(g, c) == g.rows) out.first_position = static_cast<std::size_t>(first);
    out.index_name = g.header.empty() ? "" : g.header[c];
    if (is_pandas_index(out.index_name)) out.index_name.clear();
  }
  std::vector<std::size_t> keep;
  for (std::size_t c = 0; c < g.cols; ++c)
    if (std::find(index.begin(), index.end(), c) == index.end()) keep.push_back(c);

  const auto shape = opts.index == ReadOptions::Index::kAuto ? long_form_shape(g, keep) : std::vector<std::size_t>{};
  if (!shape.empty()) {
    std::vector<std::string> axes;
    for (std::size_t a = 0; a + 1 < keep.size(); ++a) axes.push_back(g.header[keep[a]]);
    const std::string value = g.header[keep.back()];
    const std::string what = fmt::format("posenc's long form of a {} array ({} -> {})", shape_text(shape),
                                         fmt::join(axes, ", "), value);
    if (shape.size() > opts.max_axes)
      fail_layout(name, fmt::format("{}: this command takes {} tables (rows = positions); check and generate read "
                             "{}-D arrays",
                             what, opts.max_axes == 2 ? "2-D" : fmt::format("up to {}-D", opts.max_axes), shape.size()));
    std::size_t w = 0;
    for (std::size_t r = 0; r < g.rows; ++r) g.values[w++] = at(g, r, keep.back());
    out.values = Matrix(g.rows / shape.back(), shape.back(), std::move(g.values));
    out.shape = shape;
    out.axis_names = std::move(axes);
    out.value_name = value;
    out.index_name.clear();
    out.first_position = 0;
    out.notes.push_back(fmt::format("--input '{}': read as {}", name, what));
    return out;
  }
  if (!index.empty()) {
    // Drop the index columns in place: each value moves to a lower or equal index.
    std::size_t w = 0;
    for (std::size_t r = 0; r < g.rows; ++r)
      for (const std::size_t c : keep) g.values[w++] = at(g, r, c);
  }
  for (const std::size_t c : keep) {
    if (g.header.empty()) break;
    out.column_names.push_back(g.header[c].empty() ? fmt::format("dim{}", out.column_names.size()) : g.header[c]);
  }
  out.values = Matrix(g.rows, keep.size(), std::move(g.values));
  return out;
}

Matrix parse_csv(std::string_view text, const std::string& name) { return std::move(parse_csv_table(text, name).values); }

}  // namespace posenc::formats
