#pragma once
// ggml's block types decoded to float32 (private to formats/; the public entry points are in
// posenc/formats/gguf_tensors.hpp).
#include <cstddef>
#include <cstdint>

namespace posenc::formats::ggml_dequant {

/// IEEE binary16 bits to float32, as ggml's GGML_FP16_TO_FP32 gives on x86: exact for every
/// finite value and infinity; a NaN keeps its payload with the quiet bit set (ggml's conversion
/// multiplies, which quiets a signalling NaN).
float half_to_float(std::uint16_t h);

/// True when decode_blocks handles `type`.
bool supported(std::uint32_t type);

/// Decodes `n_blocks` blocks of ggml type `type` (supported) starting at `src` into `dst` (block
/// elements each). No alignment is assumed. `big_endian`: multi-byte fields are big-endian.
void decode_blocks(std::uint32_t type, const unsigned char* src, std::size_t n_blocks, float* dst, bool big_endian);

}  // namespace posenc::formats::ggml_dequant
