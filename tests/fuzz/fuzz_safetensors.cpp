// libFuzzer target: the safetensors header reader on arbitrary bytes must return a validated
// header or throw Error; every tensor of a parsed file must then decode to exactly its element
// count (or throw Error for a dtype posenc does not read); the same bytes as a sharded index
// must parse or throw Error. A header the fast path takes must give the general reader's tensors
// and metadata exactly.
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "posenc/error.hpp"
#include "posenc/formats/safetensors.hpp"
#include "posenc/memory.hpp"
#include "posenc/table.hpp"
#include "safetensors_internal.hpp"

namespace {

bool same_tensors(const posenc::formats::StFile& a, const posenc::formats::StFile& b) {
  if (a.tensors.size() != b.tensors.size() || a.metadata != b.metadata) return false;
  for (std::size_t i = 0; i < a.tensors.size(); ++i) {
    const auto &x = a.tensors[i], &y = b.tensors[i];
    if (x.name != y.name || x.dtype != y.dtype || x.shape != y.shape || x.begin != y.begin || x.end != y.end ||
        x.elements != y.elements || x.header_byte != y.header_byte)
      return false;
  }
  return true;
}

// The fast path against the general reader, on the header text of `bytes` (when whole).
void check_fast_path(std::string_view bytes) {
  if (bytes.size() < 8) return;
  std::uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(bytes[static_cast<std::size_t>(i)]);
  if (n > bytes.size() - 8) return;
  const std::string_view text = bytes.substr(8, n);
  if (text.find('\0') != std::string_view::npos) return;  // refused before either path
  namespace f = posenc::formats;
  f::StFile fast, general;
  if (!f::st_detail::parse_header_fast(text, fast)) return;
  try {
    f::st_detail::parse_header_general(text, "fuzz.safetensors", general);
  } catch (const posenc::Error&) {
    __builtin_trap();  // the fast path took a header the general reader refuses
  }
  if (!same_tensors(fast, general)) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  posenc::set_memory_limit(std::uint64_t{64} << 20);
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  namespace f = posenc::formats;
  check_fast_path(bytes);
  try {
    const f::StFile file = f::parse_safetensors(bytes, "fuzz.safetensors");
    // What the validation promises: the data section is covered exactly.
    std::uint64_t covered = 0;
    for (const auto& t : file.tensors) {
      if (t.end < t.begin || file.data_offset + t.end > size) __builtin_trap();
      covered += t.bytes();
      if (t.bytes() * 8 != t.elements * f::dtype_bits(t.dtype)) __builtin_trap();
      if (t.name.find('\0') != std::string::npos || t.name.find('/') != std::string::npos) __builtin_trap();
    }
    if (covered != file.file_size - file.data_offset) __builtin_trap();
    for (const auto& t : file.tensors) {
      try {
        const auto v = f::tensor_from_bytes(file, t, bytes);
        if (v.size() != t.elements) __builtin_trap();
        // The float32 decoding (bulk F16/BF16/F32 paths) gives the bits of the double rounded.
        std::vector<float> w(v.size());
        f::decode_elements(t.dtype, bytes.substr(file.data_offset + t.begin, t.bytes()), std::span<float>(w));
        for (std::size_t i = 0; i < v.size(); ++i)
          if (std::bit_cast<std::uint32_t>(w[i]) != std::bit_cast<std::uint32_t>(posenc::to_f32(v[i]))) __builtin_trap();
      } catch (const posenc::Error&) {
        if (f::is_decodable(t.dtype) && t.elements < 1000000) __builtin_trap();  // only the dtype or memory refuses
      }
    }
  } catch (const posenc::Error&) {
  }
  try {
    const f::StIndex idx = f::parse_safetensors_index(bytes, "model.safetensors.index.json");
    for (const auto& [name, shard] : idx.weight_map)
      if (shard.find('/') != std::string::npos || shard.find("..") != std::string::npos) __builtin_trap();
  } catch (const posenc::Error&) {
  }
  // The decoders on raw bytes, for every dtype they read.
  for (const auto t : {f::StDtype::kF16, f::StDtype::kBF16, f::StDtype::kF8E4M3, f::StDtype::kF8E5M2,
                       f::StDtype::kI64, f::StDtype::kF64}) {
    const std::size_t n = size / (f::dtype_bits(t) / 8);
    std::vector<float> out(n);
    f::decode_elements(t, bytes.substr(0, n * (f::dtype_bits(t) / 8)), std::span<float>(out));
  }
  return 0;
}
