// `posenc tensors` as text and JSON (see tensors_writers.hpp).
#include "posenc/reports/tensors_writers.hpp"

#include <fmt/format.h>

#include <algorithm>
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
  struct Row {
    std::string name, dtype, shape, bytes, file;
  };
  std::vector<Row> rows = {{"name", "dtype", "shape", "bytes", "file"}};
  for (const auto& t : l.tensors)
    rows.push_back({printable(t.name, 200), t.dtype, tensor_shape_text(t.shape), std::to_string(t.bytes), printable(t.file, 200)});
  std::size_t w[4] = {};
  for (const auto& r : rows) {
    w[0] = std::max(w[0], r.name.size());
    w[1] = std::max(w[1], r.dtype.size());
    w[2] = std::max(w[2], r.shape.size());
    w[3] = std::max(w[3], r.bytes.size());
  }
  if (l.tensors.empty()) return;
  for (const auto& r : rows)
    out << fmt::format("{:<{}}  {:<{}}  {:<{}}  {:>{}}  {}\n", r.name, w[0], r.dtype, w[1], r.shape, w[2], r.bytes, w[3],
                       r.file);
}

void write_tensors_json(const formats::TensorListing& l, std::ostream& out) {
  using Json = nlohmann::ordered_json;
  Json j;
  j["path"] = l.path;
  j["format"] = l.format;
  j["files"] = l.files;
  j["total_tensors"] = l.total;
  j["total_bytes"] = l.total_bytes;
  Json tensors = Json::array();
  for (const auto& t : l.tensors)
    tensors.push_back({{"name", t.name}, {"dtype", t.dtype}, {"shape", t.shape}, {"bytes", t.bytes}, {"file", t.file}});
  j["tensors"] = std::move(tensors);
  Json meta = Json::object();
  for (const auto& [k, v] : l.metadata) meta[k] = v;
  j["metadata"] = std::move(meta);
  out << j.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
}

}  // namespace posenc::reports
