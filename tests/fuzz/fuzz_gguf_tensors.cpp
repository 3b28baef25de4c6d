// libFuzzer target: a GGUF file held in memory, its header parsed and every tensor read and
// dequantised (formats::gguf_tensor_from_bytes). Each step must return or throw Error; a returned
// tensor must hold exactly the values its shape says. The same bytes in a memfd are then read by
// range with GgufTensorReader (what the streamed --input uses): a range cut anywhere in its
// blocks must give the bits of the whole tensor's values there.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "posenc/error.hpp"
#include "posenc/formats/gguf.hpp"
#include "posenc/formats/gguf_tensors.hpp"
#include "posenc/memory.hpp"

namespace {

/// The bytes as a file the readers can open ("/proc/self/fd/N"); -1 when memfd is unavailable.
int file_of(std::string_view bytes) {
  const int fd = ::memfd_create("fuzz.gguf", MFD_CLOEXEC);
  if (fd < 0) return -1;
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) {
      ::close(fd);
      return -1;
    }
    done += static_cast<std::size_t>(n);
  }
  return fd;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  posenc::set_memory_limit(std::uint64_t{64} << 20);
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  int fd = -1;
  try {
    auto f = posenc::formats::parse_gguf(bytes, "fuzz.gguf");
    for (const auto& t : f.tensors) {
      try {
        const auto v = posenc::formats::gguf_tensor_from_bytes(f, t, bytes);
        std::size_t n = 1;
        for (std::size_t d : v.shape) n *= d;
        if (v.values.size() != n || v.values.size() != t.elements || v.shape.size() != t.dims.size()) __builtin_trap();
        if (v.values.empty()) continue;
        if (fd < 0 && (fd = file_of(bytes)) < 0) continue;
        posenc::formats::GgufFile on_disk = f;
        on_disk.name = "/proc/self/fd/" + std::to_string(fd);
        const posenc::formats::GgufTensorReader reader(on_disk, on_disk.tensors[static_cast<std::size_t>(&t - f.tensors.data())]);
        // A range from the input's own bytes: first in [0, n), count in [1, n - first].
        const std::size_t first = (size * 7919 + t.offset) % v.values.size();
        const std::size_t count = 1 + (size * 104729 + t.elements) % (v.values.size() - first);
        std::vector<float> part(count);
        reader.read(first, part);
        for (std::size_t i = 0; i < count; ++i)
          if (std::bit_cast<std::uint32_t>(part[i]) != std::bit_cast<std::uint32_t>(v.values[first + i])) __builtin_trap();
      } catch (const posenc::Error&) {
      }
    }
  } catch (const posenc::Error&) {
  }
  if (fd >= 0) ::close(fd);
  return 0;
}
