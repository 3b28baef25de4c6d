#pragma once
/// The tensors of a checkpoint (a safetensors file, index or folder) or of a GGUF file, from
/// their headers only (`posenc tensors`): name, dtype, shape in PyTorch order, bytes, file.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace posenc::formats {

struct TensorEntry {
  std::string name;
  std::string dtype;                  ///< safetensors' name (F32, BF16, ...) or ggml's (F32, Q4_K, ...)
  std::vector<std::uint64_t> shape;   ///< PyTorch order: a GGUF's ne[] reversed
  std::uint64_t bytes = 0;
  std::size_t file = 0;               ///< the file (shard) holding it: TensorListing::file_names[file]
};

struct TensorListing {
  std::string path;                   ///< as given
  std::string format;                 ///< "safetensors" or "gguf"
  std::size_t files = 1;              ///< shards read
  std::vector<std::string> file_names;  ///< each file read, without its folder
  std::size_t total = 0;              ///< tensors in the checkpoint, before the filter
  std::uint64_t total_bytes = 0;      ///< their bytes
  std::vector<TensorEntry> tensors;   ///< the ones the filter keeps, in file order
  /// The header metadata: a safetensors index's "metadata" and each file's __metadata__ (a key
  /// the shards repeat with one value is listed once); a GGUF's keys with their values as text.
  std::vector<std::pair<std::string, std::string>> metadata;
};

/// Lists the tensors at `path` (a .gguf by its magic or name, else safetensors: file, index or
/// folder); `glob` (fnmatch, e.g. "*.attn.*") keeps the names it matches ("" keeps all).
/// Throws Error as the readers do.
TensorListing list_tensors(const std::string& path, const std::string& glob = "");

}  // namespace posenc::formats
