// libFuzzer target: the CSV reader on arbitrary bytes must return a matrix or throw Error.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "posenc/error.hpp"
#include "posenc/io/readers.hpp"
#include "posenc/memory.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  posenc::set_memory_limit(std::uint64_t{64} << 20);
  try {
    const auto m = posenc::io::parse_csv(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.csv");
    if (m.rows() == 0 || m.cols() == 0) __builtin_trap();
  } catch (const posenc::Error&) {
  }
  return 0;
}
