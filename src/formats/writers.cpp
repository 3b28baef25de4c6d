#include "posenc/formats/writers.hpp"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <type_traits>
#include <nlohmann/json.hpp>

#include "posenc/error.hpp"
#include "posenc/formats/number_text.hpp"
#include "posenc/parallel.hpp"

namespace posenc::formats {

std::size_t block_rows(std::size_t cols) {
  // About 1 MiB of doubles per block, at least one row.
  constexpr std::size_t kBlockValues = (std::size_t{1} << 20) / sizeof(double);
  return std::max<std::size_t>(1, kBlockValues / std::max<std::size_t>(1, cols));
}

namespace {

constexpr NonFiniteText kCsvNonFinite{"nan", "inf", "-inf"};
constexpr NonFiniteText kJsonNonFinite{"null", "null", "null"};

/// The shortest text that reads back to the same float/double (fmt's "{}"), non-finite values
/// spelt as `nf` says. A float is printed as a float (float32 output), a double as a double.
template <class T>
void append_number(std::string& buf, T v, const NonFiniteText& nf) {
  char tmp[25 + kNumberTextRoom];  // what write_shortest_list needs for one value
  buf.append(tmp, write_shortest_list(tmp, std::span<const T>(&v, 1), ',', nf));
}

void append_index(std::string& buf, std::size_t i) {
  char tmp[24];
  buf.append(tmp, fmt::format_to(tmp, FMT_COMPILE("{}"), i));
}

void write_bytes(std::ostream& out, const std::string& s) { out.write(s.data(), static_cast<std::streamsize>(s.size())); }

/// A CSV field, quoted when it holds a comma, quote or line break (RFC 4180).
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string q = "\"";
  for (const char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

/// A block of values and the text made from it: text[0, used) is written out. `text` only
/// grows, so a writer that formats in place does not pay for zero-filling it on every block.
template <class T>
struct TextBlock {
  std::vector<T> values;
  std::string text;
  std::size_t used = 0;
};

/// Formats blocks of rows on worker threads: format(first, n, values, text) writes the text
/// of rows [first, first + n) at the start of `text` and returns its length; the texts are
/// written to `out` in order. float32 output reads the table through Table::fill_f32 (the
/// fast path where a table has one), so CSV/JSON hold the same floats as a float32 .npy.
template <class T, class Format>
void write_text_blocks_as(const Table& t, std::ostream& out, Format& format) {
  const std::size_t cols = t.cols();
  pipeline<TextBlock<T>>(
      t.rows(), block_rows(cols),
      [&](std::size_t first, std::size_t n, TextBlock<T>& b) {
        b.values.resize(n * cols);
        if constexpr (std::is_same_v<T, float>) {
          t.fill_f32(first, n, b.values);
        } else {
          t.fill(first, n, b.values);
        }
        b.used = format(first, n, std::span<const T>(b.values), b.text);
      },
      [&](std::size_t, std::size_t, const TextBlock<T>& b) {
        out.write(b.text.data(), static_cast<std::streamsize>(b.used));
      });
}

/// `format` is a generic lambda, called with std::span<const float> or <const double>.
template <class Format>
void write_text_blocks(const Table& t, std::ostream& out, DType dtype, Format&& format) {
  if (dtype == DType::kFloat32) {
    write_text_blocks_as<float>(t, out, format);
  } else {
    write_text_blocks_as<double>(t, out, format);
  }
}

std::string axis_name(const TableInfo& info, std::size_t axis, const char* fallback) {
  return axis < info.axis_names.size() && !info.axis_names[axis].empty() ? info.axis_names[axis] : fallback;
}

void write_csv_wide(const Table& t, std::ostream& out, DType dtype) {
  const auto& info = t.info();
  const std::size_t cols = t.cols();
  std::string buf = csv_field(axis_name(info, 0, "position"));
  for (std::size_t c = 0; c < cols; ++c) {
    buf += ',';
    buf += csv_field(c < info.column_names.size() ? info.column_names[c] : fmt::format("dim{}", c));
  }
  buf += '\n';
  write_bytes(out, buf);
  write_text_blocks(t, out, dtype, [&](std::size_t first, std::size_t n, auto v, std::string& text) {
    // Room for the whole block (at most 25 chars a number with its comma, 21 for the
    // position), formatted in place; the last number may write kNumberTextRoom bytes.
    const std::size_t room = n * (cols + 1) * 25 + kNumberTextRoom;
    if (text.size() < room) text.resize(room);
    char* const start = text.data();
    char* p = start;
    for (std::size_t r = 0; r < n; ++r) {
      p = fmt::format_to(p, FMT_COMPILE("{}"), info.first_position + first + r);
      if (cols > 0) *p++ = ',';
      p = write_shortest_list(p, v.subspan(r * cols, cols), ',', kCsvNonFinite);
      *p++ = '\n';
    }
    return static_cast<std::size_t>(p - start);
  });
}

/// Long form, one line per cell: every index, then the value (`head,i,j,bias`).
void write_csv_long(const Table& t, std::ostream& out, DType dtype) {
  const auto& info = t.info();
  const auto& shape = info.shape;
  const std::size_t cols = t.cols();
  static const char* const kDefault3[] = {"head", "i", "j"};
  std::string buf;
  for (std::size_t a = 0; a < shape.size(); ++a) {
    const std::string fallback = shape.size() == 3 ? kDefault3[a] : fmt::format("axis{}", a);
    buf += csv_field(axis_name(info, a, fallback.c_str())) + ',';
  }
  buf += csv_field(info.value_name) + '\n';
  write_bytes(out, buf);
  write_text_blocks(t, out, dtype, [&](std::size_t first, std::size_t n, auto v, std::string& text) {
    text.clear();
    std::vector<std::size_t> index(shape.size());
    for (std::size_t r = 0; r < n; ++r) {
      std::size_t rest = first + r;  // unravel the row over the leading axes
      for (std::size_t a = shape.size() - 1; a-- > 0;) {
        index[a] = rest % shape[a];
        rest /= shape[a];
      }
      for (std::size_t c = 0; c < cols; ++c) {
        index.back() = c;
        for (const auto i : index) {
          append_index(text, i);
          text += ',';
        }
        append_number(text, v[r * cols + c], kCsvNonFinite);
        text += '\n';
      }
    }
    return text.size();
  });
}

nlohmann::ordered_json to_json(const ParamValue& value) {
  return std::visit([](const auto& v) { return nlohmann::ordered_json(v); }, value);
}

nlohmann::ordered_json to_json(const std::vector<std::pair<std::string, ParamValue>>& items) {
  auto obj = nlohmann::ordered_json::object();
  for (const auto& [name, value] : items) obj[name] = to_json(value);
  return obj;
}

}  // namespace

void write_csv(const Table& t, std::ostream& out, DType dtype) {
  if (t.info().shape.size() == 2) {
    write_csv_wide(t, out, dtype);
  } else {
    write_csv_long(t, out, dtype);
  }
}

void write_json(const Table& t, std::ostream& out, DType dtype) {
  const auto& info = t.info();
  nlohmann::ordered_json head;
  head["scheme"] = info.scheme;
  head["params"] = to_json(info.params);
  if (!info.results.empty()) head["results"] = to_json(info.results);
  head["shape"] = info.shape;
  head["axes"] = info.axis_names;
  if (!info.column_names.empty()) head["columns"] = info.column_names;
  head["dtype"] = dtype_name(dtype);
  if (info.first_position != 0) head["first_position"] = info.first_position;
  // The header goes through nlohmann; "data" is streamed so a huge table never becomes a tree.
  std::string buf = head.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  buf.pop_back();  // the closing brace
  buf += ",\"data\":[";
  // Row r opens a bracket for each leading axis whose block starts at r, closes at its end.
  const auto& shape = info.shape;
  std::vector<std::size_t> periods;  // rows per block of axes 1 .. ndim-2
  for (std::size_t a = 1; a + 1 < shape.size(); ++a) {
    std::size_t p = 1;
    for (std::size_t b = a; b + 1 < shape.size(); ++b) p *= shape[b];
    periods.push_back(p);
  }
  const std::size_t rows = t.rows(), cols = t.cols();
  const bool one_d = shape.size() < 2;
  write_bytes(out, buf);
  write_text_blocks(t, out, dtype, [&](std::size_t first, std::size_t n, auto v, std::string& text) {
    // Room for the whole block (at most 25 chars a number with its comma, brackets), formatted
    // in place; the last number may write kNumberTextRoom bytes.
    const std::size_t room = n * (cols * 25 + 2 * periods.size() + 8) + kNumberTextRoom;
    if (text.size() < room) text.resize(room);
    char* const start = text.data();
    char* p = start;
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t r = first + k;
      for (const auto period : periods) {
        if (period != 0 && r % period == 0) *p++ = '[';
      }
      if (!one_d) *p++ = '[';
      p = write_shortest_list(p, v.subspan(k * cols, cols), ',', kJsonNonFinite);
      if (!one_d) *p++ = ']';
      for (const auto period : periods) {
        if (period != 0 && (r + 1) % period == 0) *p++ = ']';
      }
      if (r + 1 < rows) {
        *p++ = ',';
        *p++ = '\n';
      }
    }
    return static_cast<std::size_t>(p - start);
  });
  write_bytes(out, "]}\n");
}

}  // namespace posenc::formats
