#pragma once
/// What posenc read from a llama.cpp GGUF header, kept with the RopeConfig it gave (the report's
/// `gguf` section). Filled by models::gguf_rope_config.
#include <cstdint>
#include <string>
#include <vector>

namespace posenc::rope {

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
  /// Why llama.cpp refuses to load the file (a key of the wrong type, GGUF v1, another byte
  /// order, a required key missing); each is also in `notes`.
  std::vector<std::string> load_errors;
};

}  // namespace posenc::rope
