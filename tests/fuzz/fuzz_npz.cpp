// libFuzzer target: the .npz reader (libzip, then the .npy reader on the member) on arbitrary
// bytes must return an array or throw Error, for the first member and for --npz-key b.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "posenc/error.hpp"
#include "posenc/formats/readers.hpp"
#include "posenc/memory.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  posenc::set_memory_limit(std::uint64_t{64} << 20);
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  posenc::formats::ReadOptions opts;
  opts.max_axes = 3;
  for (const char* key : {"", "b"}) {
    opts.npz_key = key;
    try {
      std::vector<std::string> notes;
      const auto a = posenc::formats::parse_npz(bytes, "fuzz.npz", opts, &notes);
      if (a.shape.empty() || a.values.rows() == 0 || a.values.cols() == 0) __builtin_trap();
    } catch (const posenc::Error&) {
    }
  }
  return 0;
}
