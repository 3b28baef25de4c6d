// `posenc tensors` as text and JSON (see tensors_writers.hpp).
#include "posenc/reports/tensors_writers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <iterator>
#include <string_view>
#include <nlohmann/json.hpp>

#include "posenc/text.hpp"

namespace posenc::reports {

namespace {

/// "80348736 bytes (76.6 MiB)".
std::string tensor_bytes_text(std::uint64_t n) {
  if (n < 1024) return fmt::format("{} bytes", n);
  const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = static_cast<double>(n) / 1024;
  std::size_t u = 0;
  while (v >= 1024 && u + 1 < std::size(units)) v /= 1024, ++u;
  return fmt::format("{} bytes ({:.1f} {})", n, v, units[u]);
}

std::string tensor_shape_text(const std::vector<std::uint64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += fmt::format("{}{}", i ? ", " : "", shape[i]);
  return s + "]";
}

/// Printable ASCII of at most 200 bytes: printable() gives it back unchanged, and a column of
/// such text is as wide as its bytes.
bool plain_text(std::string_view s) {
  return s.size() <= 200 && std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
}

/// Appends the decimal digits of v.
void append_digits(std::string& out, std::uint64_t v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

void append_padded(std::string& out, std::string_view text, std::size_t width, bool right = false) {
  if (right) out.append(width > text.size() ? width - text.size() : 0, ' ');
  out += text;
  if (!right) out.append(width > text.size() ? width - text.size() : 0, ' ');
}

/// The table rows when every name and file is plain text (the usual case): what the general
/// rows below give, byte for byte, written in parts of 64 KiB without a string per cell (the
/// text listing of 1155 tensors: best wall time 2.42 -> 1.60 ms, as the JSON one). False, and
/// nothing written, otherwise.
bool write_plain_rows(const formats::TensorListing& l, std::ostream& out) {
  for (const auto& f : l.file_names)
    if (!plain_text(f)) return false;
  std::string shapes;  // every shape's text, one after another
  std::vector<std::size_t> ends;
  ends.reserve(l.tensors.size());
  std::size_t w[4] = {4, 5, 5, 5};  // "name", "dtype", "shape", "bytes"
  char digits[24];
  for (const auto& t : l.tensors) {
    if (!plain_text(t.name) || !plain_text(t.dtype)) return false;
    const std::size_t start = shapes.size();
    shapes += '[';
    for (std::size_t i = 0; i < t.shape.size(); ++i) {
      if (i > 0) shapes += ", ";
      append_digits(shapes, t.shape[i]);
    }
    shapes += ']';
    ends.push_back(shapes.size());
    w[0] = std::max(w[0], t.name.size());
    w[1] = std::max(w[1], t.dtype.size());
    w[2] = std::max(w[2], shapes.size() - start);
    w[3] = std::max(w[3], static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, t.bytes).ptr - digits));
  }
  std::string s;
  s.reserve((1 << 16) + 1024);
  const auto row = [&](std::string_view name, std::string_view dtype, std::string_view shape, std::string_view bytes,
                       std::string_view file) {
    append_padded(s, name, w[0]);
    s += "  ";
    append_padded(s, dtype, w[1]);
    s += "  ";
    append_padded(s, shape, w[2]);
    s += "  ";
    append_padded(s, bytes, w[3], true);
    s += "  ";
    s += file;
    s += '\n';
    if (s.size() >= (1 << 16)) {
      out.write(s.data(), static_cast<std::streamsize>(s.size()));
      s.clear();
    }
  };
  row("name", "dtype", "shape", "bytes", "file");
  std::size_t start = 0;
  for (std::size_t i = 0; i < l.tensors.size(); ++i) {
    const auto& t = l.tensors[i];
    const std::string_view bytes(digits, static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, t.bytes).ptr - digits));
    row(t.name, t.dtype, std::string_view(shapes).substr(start, ends[i] - start), bytes, l.file_names.at(t.file));
    start = ends[i];
  }
  out.write(s.data(), static_cast<std::streamsize>(s.size()));
  return true;
}

}  // namespace

void write_tensors_text(const formats::TensorListing& l, std::ostream& out) {
  out << fmt::format("{}: {}, {} in {}, {} of tensor data", printable(l.path, 200), l.format,
                     counted(static_cast<std::int64_t>(l.total), "tensor", "tensors"),
                     counted(static_cast<std::int64_t>(l.files), "file", "files"), tensor_bytes_text(l.total_bytes));
  if (l.tensors.size() != l.total) out << fmt::format(" ({} shown)", l.tensors.size());
  out << "\n";
  if (!l.metadata.empty()) {
    out << "metadata:\n";
    for (const auto& [k, v] : l.metadata) out << fmt::format("  {} = {}\n", printable(k, 100), printable(v, 100));
  }
  if (l.tensors.empty()) return;
  if (write_plain_rows(l, out)) return;
  // Names or files with escapes or non-ASCII text: printable() and fmt's padding (by display width).
  struct Row {
    std::string name, dtype, shape, bytes, file;
  };
  std::vector<Row> rows = {{"name", "dtype", "shape", "bytes", "file"}};
  for (const auto& t : l.tensors)
    rows.push_back({printable(t.name, 200), t.dtype, tensor_shape_text(t.shape), std::to_string(t.bytes), printable(l.file_names.at(t.file), 200)});
  std::size_t w[4] = {};
  for (const auto& r : rows) {
    w[0] = std::max(w[0], r.name.size());
    w[1] = std::max(w[1], r.dtype.size());
    w[2] = std::max(w[2], r.shape.size());
    w[3] = std::max(w[3], r.bytes.size());
  }
  for (const auto& r : rows)
    out << fmt::format("{:<{}}  {:<{}}  {:<{}}  {:>{}}  {}\n", r.name, w[0], r.dtype, w[1], r.shape, w[2], r.bytes, w[3],
                       r.file);
}

namespace {

/// A JSON string as nlohmann's dump(2, ' ', false, replace) writes it: plain printable ASCII
/// as it is, anything else (escapes, UTF-8, invalid bytes replaced by U+FFFD) by nlohmann.
void tensors_json_string(std::string& out, const std::string& s) {
  const bool plain = std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; });
  if (plain) {
    out += '"';
    out += s;
    out += '"';
    return;
  }
  out += nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

// Written directly (nlohmann's ordered_json tree of a 1155-tensor listing, built then dumped,
// took about a third of the run), byte for byte what dump(2) gave.
void write_tensors_json(const formats::TensorListing& l, std::ostream& out) {
  // Written in parts of about 64 KiB, so that a long listing never builds its whole text.
  constexpr std::size_t kPart = 1 << 16;
  std::string s;
  s.reserve(kPart + 4096);
  s += "{\n  \"path\": ";
  tensors_json_string(s, l.path);
  s += ",\n  \"format\": ";
  tensors_json_string(s, l.format);
  s += fmt::format(",\n  \"files\": {},\n  \"total_tensors\": {},\n  \"total_bytes\": {},\n  \"tensors\": ", l.files,
                   l.total, l.total_bytes);
  if (l.tensors.empty()) s += "[]";
  for (std::size_t i = 0; i < l.tensors.size(); ++i) {
    const auto& t = l.tensors[i];
    s += i == 0 ? "[\n    {\n      \"name\": " : ",\n    {\n      \"name\": ";
    tensors_json_string(s, t.name);
    s += ",\n      \"dtype\": ";
    tensors_json_string(s, t.dtype);
    s += ",\n      \"shape\": ";
    if (t.shape.empty()) s += "[]";
    for (std::size_t k = 0; k < t.shape.size(); ++k) {
      s += k == 0 ? "[\n        " : ",\n        ";
      append_digits(s, t.shape[k]);
    }
    if (!t.shape.empty()) s += "\n      ]";
    s += ",\n      \"bytes\": ";
    append_digits(s, t.bytes);
    s += ",\n      \"file\": ";
    tensors_json_string(s, l.file_names.at(t.file));
    s += "\n    }";
    if (s.size() >= kPart) {
      out.write(s.data(), static_cast<std::streamsize>(s.size()));
      s.clear();
    }
  }
  if (!l.tensors.empty()) s += "\n  ]";
  s += ",\n  \"metadata\": ";
  // Keys as an object keeps them: a key given twice keeps its first place and its last value.
  std::vector<std::pair<std::string, std::string>> meta;
  for (const auto& kv : l.metadata) {
    const auto it = std::find_if(meta.begin(), meta.end(), [&](const auto& m) { return m.first == kv.first; });
    if (it == meta.end()) {
      meta.push_back(kv);
    } else {
      it->second = kv.second;
    }
  }
  if (meta.empty()) s += "{}";
  for (std::size_t i = 0; i < meta.size(); ++i) {
    s += i == 0 ? "{\n    " : ",\n    ";
    tensors_json_string(s, meta[i].first);
    s += ": ";
    tensors_json_string(s, meta[i].second);
  }
  if (!meta.empty()) s += "\n  }";
  s += "\n}\n";
  out.write(s.data(), static_cast<std::streamsize>(s.size()));
}

}  // namespace posenc::reports
