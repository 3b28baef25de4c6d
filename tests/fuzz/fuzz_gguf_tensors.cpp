// libFuzzer target: a GGUF file held in memory, its header parsed and every tensor read and
// dequantised (formats::gguf_tensor_from_bytes). Each step must return or throw Error; a returned
// tensor must hold exactly the values its shape says.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "posenc/error.hpp"
#include "posenc/formats/gguf.hpp"
#include "posenc/formats/gguf_tensors.hpp"
#include "posenc/memory.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  posenc::set_memory_limit(std::uint64_t{64} << 20);
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    const auto f = posenc::formats::parse_gguf(bytes, "fuzz.gguf");
    for (const auto& t : f.tensors) {
      try {
        const auto v = posenc::formats::gguf_tensor_from_bytes(f, t, bytes);
        std::size_t n = 1;
        for (std::size_t d : v.shape) n *= d;
        if (v.values.size() != n || v.values.size() != t.elements || v.shape.size() != t.dims.size()) __builtin_trap();
      } catch (const posenc::Error&) {
      }
    }
  } catch (const posenc::Error&) {
  }
  return 0;
}
