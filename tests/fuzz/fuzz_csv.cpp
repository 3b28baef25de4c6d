// libFuzzer target: the CSV reader on arbitrary bytes must return a matrix or throw Error,
// with the options a user can give: the defaults; up to 3 axes (long form) with ';' cells;
// --index-col 1 or by the name 'b'; --no-index.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "posenc/error.hpp"
#include "posenc/formats/readers.hpp"
#include "posenc/memory.hpp"

namespace {

void read(std::string_view text, const posenc::formats::ReadOptions& opts) {
  try {
    const auto t = posenc::formats::parse_csv_table(text, "fuzz.csv", opts);
    if (t.values.rows() == 0 || t.values.cols() == 0) __builtin_trap();
    if (!t.shape.empty()) {
      std::size_t n = 1;
      for (const std::size_t d : t.shape) n *= d;
      if (t.shape.size() > opts.max_axes || n != t.values.rows() * t.values.cols()) __builtin_trap();
    }
  } catch (const posenc::Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  posenc::set_memory_limit(std::uint64_t{64} << 20);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  using posenc::formats::ReadOptions;
  read(text, {});
  ReadOptions opts;
  opts.max_axes = 3;
  opts.delimiter = size % 2 == 0 ? ',' : ';';
  read(text, opts);
  opts.delimiter = ',';
  opts.index = ReadOptions::Index::kColumn;
  opts.index_column = size % 2 == 0 ? "1" : "b";
  read(text, opts);
  opts.index = ReadOptions::Index::kNone;
  read(text, opts);
  return 0;
}
