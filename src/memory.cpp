#include "posenc/memory.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <string>

#include "posenc/error.hpp"

namespace posenc {
namespace {

std::atomic<std::uint64_t> g_limit{0};

std::uint64_t default_limit() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  std::uint64_t kib = 0;
  while (in >> key >> kib >> unit) {
    if (key == "MemAvailable:") return kib * 1024 / 2;
  }
  return std::uint64_t{4} << 30;
}

}  // namespace

std::uint64_t memory_limit() {
  const std::uint64_t set = g_limit.load();
  if (set != 0) return set;
  static const std::uint64_t fallback = default_limit();
  return fallback;
}

void set_memory_limit(std::uint64_t bytes) { g_limit.store(bytes); }

bool memory_limit_is_default() { return g_limit.load() == 0; }

std::string format_bytes(double bytes) {
  static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  std::size_t u = 0;
  while (bytes >= 1024 && u + 1 < std::size(units)) bytes /= 1024, ++u;
  if (u == 0) return fmt::format("{} B", static_cast<std::uint64_t>(bytes));
  return fmt::format("{:.3g} {}", bytes, units[u]);
}

void check_memory(std::uint64_t count, std::uint64_t element_size, std::string_view what, std::string_view advice) {
  const std::uint64_t limit = memory_limit();
  const bool overflow = element_size != 0 && count > std::numeric_limits<std::uint64_t>::max() / element_size;
  const double need = static_cast<double>(count) * static_cast<double>(element_size);
  if (!overflow && count * element_size <= limit) return;
  throw Error(fmt::format("{} needs {} in memory, more than the limit of {}{}: give --max-memory SIZE to allow it{}",
                          what.empty() ? "the result" : what, format_bytes(need), format_bytes(static_cast<double>(limit)),
                          g_limit.load() == 0 ? " (half the available memory)" : " (--max-memory)",
                          advice.empty() ? ", or a smaller --len/--dim" : advice));
}

void check_working_memory(double doubles, std::string_view what, std::string_view advice) {
  const double most = static_cast<double>(std::numeric_limits<std::uint64_t>::max() / sizeof(double));
  check_memory(doubles >= most ? static_cast<std::uint64_t>(most) + 1 : static_cast<std::uint64_t>(doubles), sizeof(double),
               what, advice);
}

void check_matrix_memory(std::uint64_t rows, std::uint64_t cols, std::string_view what) {
  const bool overflow = cols != 0 && rows > std::numeric_limits<std::uint64_t>::max() / cols;
  const std::uint64_t count = overflow ? std::numeric_limits<std::uint64_t>::max() / sizeof(double) + 1 : rows * cols;
  if (what.empty()) {
    const std::string w = fmt::format("a {} x {} table", rows, cols);
    check_memory(count, sizeof(double), w,
                 ", or a smaller --len/--dim, or 'posenc generate' to csv/npy/json, which streams rows to the file");
  } else {
    check_memory(count, sizeof(double), what);
  }
}

std::uint64_t parse_bytes(std::string_view text) {
  const auto bad = [&] {
    return Error(fmt::format("--max-memory '{}': give a size in bytes, or with a suffix K, M, G or T (e.g. 8G)", text));
  };
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || !std::isfinite(v) || v <= 0) throw bad();
  std::string unit(end, text.data() + text.size());
  std::transform(unit.begin(), unit.end(), unit.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  double scale = 1;
  if (unit == "" || unit == "b") scale = 1;
  else if (unit == "k" || unit == "kb" || unit == "kib") scale = 0x1p10;
  else if (unit == "m" || unit == "mb" || unit == "mib") scale = 0x1p20;
  else if (unit == "g" || unit == "gb" || unit == "gib") scale = 0x1p30;
  else if (unit == "t" || unit == "tb" || unit == "tib") scale = 0x1p40;
  else throw bad();
  const double bytes = v * scale;
  if (bytes < 1 || bytes >= 0x1p63) throw bad();
  return static_cast<std::uint64_t>(bytes);
}

}  // namespace posenc
