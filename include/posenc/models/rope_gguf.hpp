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

#include "posenc/rope/gguf_source.hpp"
#include "posenc/rope/rope.hpp"

namespace posenc::formats {
struct GgufFile;
struct GgufTensorInfo;
}

namespace posenc::models {

using rope::RopeGgufKey;
using rope::RopeGgufSource;

/// Reads the values of one F32 tensor of the file (formats::read_gguf_f32 or gguf_f32_from_bytes).
using GgufTensorReader = std::function<std::vector<float>(const formats::GgufTensorInfo&)>;

/// The header summary of a parsed GGUF file (path, version, byte order, architecture, the rope
/// type llama.cpp assigns, the position-relevant keys); no RoPE resolution, so it serves files
/// of architectures without RoPE too. Throws Error for a file without a known architecture.
std::shared_ptr<RopeGgufSource> gguf_header_source(const formats::GgufFile& f);

/// Resolves the settings of a parsed GGUF header, for convention ggml. Throws Error naming the
/// key for files llama.cpp cannot run with RoPE (no architecture, rope type NONE, a scaling type
/// llama.cpp aborts on, a required key absent).
rope::RopeConfig gguf_rope_config(const formats::GgufFile& f, const GgufTensorReader& read);

/// Reads the header of the GGUF file at `path` and resolves it (gguf_rope_config).
rope::RopeConfig read_gguf_rope_config(const std::string& path);

}  // namespace posenc::models
