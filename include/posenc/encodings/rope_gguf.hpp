#pragma once
/// The RoPE settings llama.cpp uses for a GGUF file: the `{arch}.rope.*` and related keys of its
/// header, llama.cpp's defaults for the absent ones, the frequency tensors (rope_freqs,
/// rope_factors_long/short, read by seeking), and the rope type of the architecture.
/// Key names and defaults: ggml-org/llama.cpp src/llama-arch.cpp, src/llama-model.cpp
/// (load_hparams), src/llama-context.cpp (see docs/gguf.md).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "posenc/encodings/rope.hpp"

namespace posenc::io {
struct GgufFile;
struct GgufTensorInfo;
}

namespace posenc::encodings {

/// One position-relevant key of the file, as stored.
struct RopeGgufKey {
  std::string key;    ///< "llama.rope.freq_base"
  std::string type;   ///< "f32", "u32", "arr[i32,4]"
  std::string value;  ///< "500000", "\"yarn\"", "[16, 24, 24, 0]"
};

/// What posenc read from a GGUF file (the report's `gguf` section).
struct RopeGgufSource {
  std::string path;
  std::uint32_t version = 0;
  bool big_endian = false;
  std::string architecture;   ///< general.architecture
  std::string rope_type;      ///< llama.cpp's: NORM, NEOX, MROPE, IMROPE
  std::int64_t n_ctx_train = 0;
  std::int64_t n_ctx_orig = 0;      ///< rope.scaling.original_context_length or n_ctx_train
  std::string scaling_type;         ///< as llama.cpp reads it ("linear" when absent)
  double freq_scale = 1;            ///< 1 / rope.scaling.factor (1 when absent or 0)
  std::vector<RopeGgufKey> keys;    ///< the position-relevant keys present, in file order
  std::vector<std::string> tensors; ///< frequency tensors read: "rope_freqs.weight F32[64]"
  std::vector<std::string> notes;   ///< what llama.cpp would refuse or ignore
};

/// Reads the values of one F32 tensor of the file (io::read_gguf_f32 or gguf_f32_from_bytes).
using GgufTensorReader = std::function<std::vector<float>(const io::GgufTensorInfo&)>;

/// The header summary of a parsed GGUF file (path, version, byte order, architecture, the rope
/// type llama.cpp assigns, the position-relevant keys); no RoPE resolution, so it serves files
/// of architectures without RoPE too. Throws Error for a file without a known architecture.
std::shared_ptr<RopeGgufSource> gguf_header_source(const io::GgufFile& f);

/// Resolves the settings of a parsed GGUF header, for convention ggml. Throws Error naming the
/// key for files llama.cpp cannot run with RoPE (no architecture, rope type NONE, a scaling type
/// llama.cpp aborts on, a required key absent).
RopeConfig gguf_rope_config(const io::GgufFile& f, const GgufTensorReader& read);

/// Reads the header of the GGUF file at `path` and resolves it (gguf_rope_config).
RopeConfig read_gguf_rope_config(const std::string& path);

}  // namespace posenc::encodings
