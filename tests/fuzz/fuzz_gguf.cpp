// libFuzzer target: the GGUF header reader on arbitrary bytes must return a header or throw
// Error; the frequency-tensor reader must return the values or throw Error.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "posenc/error.hpp"
#include "posenc/formats/gguf.hpp"
#include "posenc/memory.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  posenc::set_memory_limit(std::uint64_t{64} << 20);
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    const auto f = posenc::formats::parse_gguf(bytes, "fuzz.gguf");
    if (f.data_offset > f.file_size && !f.tensors.empty()) __builtin_trap();  // the reader checked it
    for (const auto& t : f.tensors) {
      if (t.type != 0 || t.dims.size() != 1) continue;
      try {
        const auto v = posenc::formats::gguf_f32_from_bytes(f, t, bytes);
        if (v.size() != t.elements) __builtin_trap();
      } catch (const posenc::Error&) {
      }
    }
  } catch (const posenc::Error&) {
  }
  return 0;
}
