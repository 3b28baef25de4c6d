#include "posenc/io/readers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <limits>

#include "posenc/error.hpp"
#include "posenc/io/file.hpp"
#include "posenc/memory.hpp"

namespace posenc::io {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

/// The file's bytes, its size first checked against what reading it will take in memory: a
/// CSV's text plus its values (about one number per 2 bytes, "0,", as 8-byte doubles), an
/// .npy's bytes (its values are checked again when the header gives their number).
std::string read_input_file(const std::string& path, bool csv) {
  const std::uint64_t limit = memory_limit();
  const std::uint64_t per_byte = csv ? 5 : 1;  // a CSV: its text + 8 bytes per value, a value per 2 bytes
  const std::string source = memory_limit_is_default() ? "half the available memory" : "--max-memory";
  const std::uint64_t size = regular_file_size(path);
  if (size != UINT64_MAX && size > limit / per_byte) {
    throw Error(fmt::format("--input '{}': the {} file needs about {} in memory, more than the limit of {} ({}): give "
                            "--max-memory SIZE to allow it",
                            path, format_bytes(static_cast<double>(size)),
                            format_bytes(static_cast<double>(size) * static_cast<double>(per_byte)),
                            format_bytes(static_cast<double>(limit)), source));
  }
  // A FIFO or device has no size: read up to what fits.
  return read_small_file(path, "--input", limit / per_byte,
                         fmt::format(" ({}the memory limit is {}, {})", csv ? "a CSV needs about 5 times its size in memory; " : "",
                                     format_bytes(static_cast<double>(limit)), source));
}

}  // namespace

Matrix parse_csv(std::string_view text, const std::string& name) { return std::move(parse_csv_table(text, name).values); }

Matrix read_csv(const std::string& path) { return std::move(parse_csv_table(read_input_file(path, true), path).values); }

Matrix read_npy(const std::string& path) { return parse_npy(read_input_file(path, false), path); }

NpyArray read_npy_array(const std::string& path, std::size_t max_axes) {
  return parse_npy_array(read_input_file(path, false), path, max_axes);
}

TableFile read_input(const std::string& path) {
  const std::string ext = lower(std::filesystem::path(path).extension().string());
  if (ext == ".npy") return {read_npy(path), {}, {}, 0};
  if (ext == ".csv") return parse_csv_table(read_input_file(path, true), path);
  throw Error(fmt::format("--input '{}': cannot read '{}' files: give a .npy or .csv file", path, ext.empty() ? path : ext));
}

Matrix read_table(const std::string& path) { return std::move(read_input(path).values); }

}  // namespace posenc::io
