// libFuzzer target: the .npy reader on arbitrary bytes must return a matrix or throw Error,
// with the options a user can give: up to 3 axes (check, generate) and 2-byte raw values read
// as bfloat16 or float16 (--input-dtype).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "posenc/error.hpp"
#include "posenc/formats/readers.hpp"
#include "posenc/memory.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  posenc::set_memory_limit(std::uint64_t{64} << 20);
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    const auto m = posenc::formats::parse_npy(bytes, "fuzz.npy");
    if (m.rows() == 0 || m.cols() == 0) __builtin_trap();  // the reader promises a non-empty table
  } catch (const posenc::Error&) {
  }
  posenc::formats::ReadOptions opts;
  opts.max_axes = 3;
  opts.raw2 = size % 2 == 0 ? "bfloat16" : "float16";
  try {
    const auto a = posenc::formats::parse_npy_array(bytes, "fuzz.npy", opts);
    std::size_t n = 1;
    for (const std::size_t d : a.shape) n *= d;
    if (a.shape.empty() || a.shape.size() > 3 || n != a.values.rows() * a.values.cols()) __builtin_trap();
  } catch (const posenc::Error&) {
  }
  return 0;
}
