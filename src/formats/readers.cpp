#include "posenc/formats/readers.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <limits>

#include "posenc/error.hpp"
#include "posenc/formats/file.hpp"
#include "posenc/formats/safetensors.hpp"
#include "posenc/memory.hpp"
#include "posenc/text.hpp"

#include <charconv>

namespace posenc::formats {

namespace {

std::string lower_ext(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

/// A CSV takes about 5 times its size in memory: its text, and 8-byte doubles for about one
/// value per 2 bytes ("0,").
constexpr std::uint64_t kCsvFactor = 5;

std::string limit_source() { return memory_limit_is_default() ? "half the available memory" : "--max-memory"; }

[[noreturn]] void too_big(const std::string& path, std::uint64_t size, std::uint64_t per_byte) {
  const std::uint64_t limit = memory_limit();
  throw Error(fmt::format("--input '{}': the {} file needs about {} in memory, more than the limit of {} ({}): give "
                          "--max-memory SIZE to allow it",
                          path, format_bytes(static_cast<double>(size)),
                          format_bytes(static_cast<double>(size) * static_cast<double>(per_byte)),
                          format_bytes(static_cast<double>(limit)), limit_source()));
}

/// The file's bytes ("-": stdin), its size first checked against what reading it will take
/// in memory: `per_byte` times its size (5 for a CSV, 1 for an .npy, whose values are checked
/// again when the header gives their number).
std::string read_input_file(const std::string& path, std::uint64_t per_byte) {
  const std::uint64_t limit = memory_limit();
  const std::uint64_t size = path == "-" ? UINT64_MAX : regular_file_size(path);
  if (size != UINT64_MAX && size > limit / per_byte) too_big(path, size, per_byte);
  // A pipe, FIFO or device has no size: read up to what fits.
  return read_small_file(path, "--input", limit / per_byte,
                         fmt::format(" ({}the memory limit is {}, {})",
                                     per_byte == kCsvFactor ? "a CSV needs about 5 times its size in memory; " : "",
                                     format_bytes(static_cast<double>(limit)), limit_source()));
}

/// The format a name says: its extension, "" when it has none or names a stream.
std::string format_of_name(const std::string& path) {
  if (path == "-" || path.rfind("/dev/", 0) == 0 || path.rfind("/proc/", 0) == 0) return "";
  const std::string ext = lower_ext(std::filesystem::path(path).extension().string());
  if (ext == ".npy" || ext == ".npz" || ext == ".csv") return ext.substr(1);
  if (ext == ".tsv") return "tsv";
  if (ext.empty()) return "";
  if (ext == ".safetensors" || lower_ext(path).ends_with(".safetensors.index.json"))
    throw Error(fmt::format("--input '{}': name the tensor to read: --input '{}:NAME' ('posenc tensors {}' lists them)",
                            path, path, path));
  if (is_pytorch_checkpoint(path)) throw Error("--input " + pytorch_refusal(path));
  throw Error(fmt::format("--input '{}': cannot read '{}' files: give a .npy, .npz or .csv file, or say what it "
                          "holds with --input-format csv|npy|npz",
                          path, printable(ext)));
}

/// The format the first bytes say: numpy's magic, a zip's local header, else text.
std::string sniff(std::string_view bytes) {
  if (bytes.substr(0, 6) == "\x93NUMPY") return "npy";
  if (bytes.substr(0, 4) == std::string_view("PK\x03\x04", 4)) return "npz";
  return "csv";
}

TableFile from_array(NpyArray a) {
  TableFile t;
  t.values = std::move(a.values);
  if (a.shape.size() >= 3) t.shape = std::move(a.shape);
  return t;
}

}  // namespace

Matrix read_csv(const std::string& path) {
  return std::move(parse_csv_table(read_input_file(path, kCsvFactor), path).values);
}

Matrix read_npy(const std::string& path) { return parse_npy(read_input_file(path, 1), path); }

NpyArray read_npy_array(const std::string& path, std::size_t max_axes) {
  return parse_npy_array(read_input_file(path, 1), path, max_axes);
}

namespace {

std::int64_t slice_bound(const std::string& text, const std::string& rows) {
  std::int64_t v = 0;
  const auto* end = text.data() + text.size();
  const auto [p, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || p != end)
    throw Error(fmt::format("--rows must be A:B, A: or :B with integers A < B (got '{}')", rows));
  return v;
}

/// Keeps rows [first, end) of a 2-D table; its positions keep their labels (first_position).
TableFile slice_rows(TableFile t, const ReadOptions& o, const std::string& path) {
  if (o.rows.empty()) return t;
  if (!t.shape.empty() && t.shape.size() != 2)
    throw Error(fmt::format("--rows {} selects positions of a 2-D table; --input '{}' holds {} axes", o.rows, path,
                            t.shape.size()));
  const auto [first, end] = row_slice(o.rows, t.values.rows());
  Matrix m(end - first, t.values.cols());
  for (std::size_t r = first; r < end; ++r)
    for (std::size_t c = 0; c < m.cols(); ++c) m(r - first, c) = t.values(r, c);
  t.values = std::move(m);
  if (!t.shape.empty()) t.shape[0] = end - first;
  t.first_position += first;
  t.notes.push_back(fmt::format("--rows {}: rows {} … {} of {}", o.rows, first, end - 1, path));
  return t;
}

}  // namespace

std::pair<std::size_t, std::size_t> row_slice(const std::string& rows, std::size_t count) {
  const auto colon = rows.find(':');
  if (colon == std::string::npos || rows.find(':', colon + 1) != std::string::npos)
    throw Error(fmt::format("--rows must be A:B, A: or :B with integers A < B (got '{}')", rows));
  const auto n = static_cast<std::int64_t>(count);
  const auto bound = [&](const std::string& text, std::int64_t missing) {
    if (text.empty()) return missing;
    const std::int64_t v = slice_bound(text, rows);
    return v < 0 ? v + n : v;
  };
  const std::int64_t a = bound(rows.substr(0, colon), 0), b = bound(rows.substr(colon + 1), n);
  if (a < 0 || b > n || a >= b)
    throw Error(fmt::format("--rows {} must select rows within the table's {} rows (0 ≤ A < B ≤ {}; negative bounds count "
                            "from the end)",
                            rows, count, count));
  return {static_cast<std::size_t>(a), static_cast<std::size_t>(b)};
}

TableFile read_input(const std::string& path, const ReadOptions& opts) {
  return slice_rows(read_whole_input(path, opts), opts, path);
}

TableFile read_whole_input(const std::string& path, const ReadOptions& opts) {
  if (path == "-" && ::isatty(0) == 1)
    throw Error("--input -: stdin is a terminal; pipe a table in (cat pe.csv | posenc ... --input -) or give a file");
  // FILE.safetensors:NAME, INDEX.json:NAME, FOLDER:NAME: one tensor of a checkpoint.
  if (const auto [file, tensor] = split_tensor_input(path); !file.empty())
    return from_array(read_tensor_table(file, tensor, path));
  std::string format = opts.format.empty() ? format_of_name(path) : opts.format;
  ReadOptions o = opts;
  if (format == "tsv") {
    format = "csv";
    if (o.delimiter == ',') o.delimiter = '\t';
  }
  if (format == "csv") return parse_csv_table(read_input_file(path, kCsvFactor), path, o);
  // An .npy or .npz, or a stream whose first bytes decide.
  std::string bytes = read_input_file(path, 1);
  if (format.empty()) format = sniff(bytes);
  if (format == "csv") {
    const std::uint64_t limit = memory_limit();
    if (bytes.size() > limit / kCsvFactor) too_big(path, bytes.size(), kCsvFactor);
    return parse_csv_table(bytes, path, o);
  }
  if (format == "npz") {
    std::vector<std::string> notes;
    TableFile t = from_array(parse_npz(bytes, path, o, &notes));
    t.notes = std::move(notes);
    return t;
  }
  return from_array(parse_npy_array(bytes, path, o));
}

Matrix read_table(const std::string& path) { return std::move(read_input(path).values); }

}  // namespace posenc::formats
