#include "posenc/io/writers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <nlohmann/json.hpp>

#include "posenc/error.hpp"

namespace posenc::io {

std::size_t block_rows(std::size_t cols) {
  // About 1 MiB of doubles per block, at least one row.
  constexpr std::size_t kBlockValues = (std::size_t{1} << 20) / sizeof(double);
  return std::max<std::size_t>(1, kBlockValues / std::max<std::size_t>(1, cols));
}

namespace {

/// Rounds to float without the undefined behaviour of casting an out-of-range double.
float to_f32(double v) {
  if (std::isfinite(v) && std::abs(v) >= 0x1p128) return v > 0 ? INFINITY : -INFINITY;
  return static_cast<float>(v);
}

struct NonFinite {
  const char* nan;
  const char* inf;
  const char* neg_inf;
};
constexpr NonFinite kCsvNonFinite{"nan", "inf", "-inf"};
constexpr NonFinite kJsonNonFinite{"null", "null", "null"};

/// fmt's "{}" is the shortest text that reads back to the same float/double, locale-free.
void append_number(std::string& buf, double v, DType dtype, const NonFinite& nf) {
  if (std::isnan(v)) {
    buf += nf.nan;
  } else if (dtype == DType::kFloat32) {
    const float f = to_f32(v);
    if (std::isinf(f)) {
      buf += f > 0 ? nf.inf : nf.neg_inf;
    } else {
      fmt::format_to(std::back_inserter(buf), "{}", f);
    }
  } else if (std::isinf(v)) {
    buf += v > 0 ? nf.inf : nf.neg_inf;
  } else {
    fmt::format_to(std::back_inserter(buf), "{}", v);
  }
}

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

/// Calls body(first_row, count, values) for consecutive blocks of rows.
template <class Body>
void for_each_block(const Table& t, Body&& body) {
  const std::size_t rows = t.rows(), cols = t.cols();
  const std::size_t step = block_rows(cols);
  std::vector<double> buf(std::min(step, rows) * cols);
  for (std::size_t first = 0; first < rows; first += step) {
    const std::size_t n = std::min(step, rows - first);
    const std::span<double> block(buf.data(), n * cols);
    t.fill(first, n, block);
    body(first, n, std::span<const double>(block));
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
  out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
  for_each_block(t, [&](std::size_t first, std::size_t n, std::span<const double> v) {
    buf.clear();
    for (std::size_t r = 0; r < n; ++r) {
      fmt::format_to(std::back_inserter(buf), "{}", info.first_position + first + r);
      for (std::size_t c = 0; c < cols; ++c) {
        buf += ',';
        append_number(buf, v[r * cols + c], dtype, kCsvNonFinite);
      }
      buf += '\n';
    }
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
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
  out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
  std::vector<std::size_t> index(shape.size());
  for_each_block(t, [&](std::size_t first, std::size_t n, std::span<const double> v) {
    buf.clear();
    for (std::size_t r = 0; r < n; ++r) {
      std::size_t rest = first + r;  // unravel the row over the leading axes
      for (std::size_t a = shape.size() - 1; a-- > 0;) {
        index[a] = rest % shape[a];
        rest /= shape[a];
      }
      for (std::size_t c = 0; c < cols; ++c) {
        index.back() = c;
        for (const auto i : index) fmt::format_to(std::back_inserter(buf), "{},", i);
        append_number(buf, v[r * cols + c], dtype, kCsvNonFinite);
        buf += '\n';
      }
    }
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
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
  for_each_block(t, [&](std::size_t first, std::size_t n, std::span<const double> v) {
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t r = first + k;
      for (const auto p : periods) buf += (p != 0 && r % p == 0) ? "[" : "";
      if (!one_d) buf += '[';
      for (std::size_t c = 0; c < cols; ++c) {
        if (c > 0) buf += ',';
        append_number(buf, v[k * cols + c], dtype, kJsonNonFinite);
      }
      if (!one_d) buf += ']';
      for (const auto p : periods) buf += (p != 0 && (r + 1) % p == 0) ? "]" : "";
      if (r + 1 < rows) buf += ",\n";
    }
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
    buf.clear();
  });
  buf += "]}\n";
  out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
}

std::string npy_header(const std::vector<std::size_t>& shape, DType dtype) {
  const std::string tuple = fmt::format("({}{})", fmt::join(shape, ", "), shape.size() == 1 ? "," : "");
  std::string dict = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}",
                                 dtype == DType::kFloat32 ? "<f4" : "<f8", tuple);
  // Like numpy >= 1.23: room for the first axis to grow to 21 digits, then spaces and '\n'
  // so that the data starts at a multiple of 64 bytes (numpy pads 1..64 spaces).
  if (!shape.empty()) dict.append(21 - std::min<std::size_t>(21, fmt::formatted_size("{}", shape[0])), ' ');
  const std::size_t pad = 64 - (10 + dict.size() + 1) % 64;
  dict.append(pad, ' ');
  dict += '\n';
  if (dict.size() > 0xffff) throw Error("npy header too long for format version 1.0");
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(dict.size() & 0xff);
  out += static_cast<char>(dict.size() >> 8);
  return out + dict;
}

namespace {

template <class T>
void append_le(std::string& buf, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  if constexpr (std::endian::native == std::endian::big) std::reverse(bytes, bytes + sizeof(T));
  buf.append(bytes, sizeof(T));
}

}  // namespace

void write_npy(const Table& t, std::ostream& out, DType dtype) {
  std::string buf = npy_header(t.info().shape, dtype);
  out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
  for_each_block(t, [&](std::size_t, std::size_t, std::span<const double> v) {
    buf.clear();
    for (const double x : v) {
      if (dtype == DType::kFloat32) {
        append_le(buf, to_f32(x));
      } else {
        append_le(buf, x);
      }
    }
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
  });
}

}  // namespace posenc::io
