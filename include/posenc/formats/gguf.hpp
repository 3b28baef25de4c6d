#pragma once
/// Reading the header of a GGUF file (llama.cpp's model format; ggml docs/gguf.md): versions 1
/// (32-bit counts and lengths), 2 and 3, either byte order (a big-endian file keeps the magic
/// bytes "GGUF" and stores every other field byte-swapped), every metadata value type, arrays,
/// `general.alignment`, tensor infos. Only the header is read, streamed in small blocks; a
/// tensor's data is read on request by seeking to it, so a 100 GB model opens in milliseconds
/// (any type, dequantised: gguf_tensors.hpp). Tensor data must lie inside the file in the order
/// of the tensor infos without overlapping (ggml's rule). Anything malformed throws Error
/// "FILE: byte N: what was wrong".
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace posenc::formats {

/// gguf_type (ggml include/gguf.h). u64, i64 and f64 exist from version 2 on.
enum class GgufType : std::uint32_t { kU8, kI8, kU16, kI16, kU32, kI32, kF32, kBool, kString, kArray, kU64, kI64, kF64 };

/// "u8", "i8", ..., "str", "arr" (gguf-py's short names).
std::string_view to_string(GgufType t);

/// One metadata value. Numbers are kept exactly in `integer`/`uinteger` (integer types) and as
/// `number` (every numeric type and bool); arrays keep their numeric elements when there are at
/// most kMaxKeptElements of them (tokenizer arrays are walked, not stored).
struct GgufValue {
  static constexpr std::uint64_t kMaxKeptElements = 4096;
  static constexpr std::size_t kMaxKeptText = 65536;
  GgufType type = GgufType::kU8;
  GgufType element_type = GgufType::kU8;  ///< arrays only
  std::uint64_t count = 0;                ///< arrays: number of elements
  double number = 0;                      ///< numeric and bool scalars
  std::int64_t integer = 0;               ///< signed integer scalars
  std::uint64_t uinteger = 0;             ///< unsigned integer scalars (and bool 0/1)
  std::string text;                       ///< strings (up to kMaxKeptText bytes; see text_truncated)
  bool text_truncated = false;
  std::vector<double> numbers;            ///< numeric array elements, when kept
  bool elements_kept = false;

  bool is_numeric() const;  ///< an integer, float or bool scalar
  /// For reports: `500000`, `"yarn"`, `[16, 24, 24, 0]`, `[32000 strings]`.
  std::string to_text() const;
  /// The stored type as gguf-py prints it: `u32`, `f32`, `arr[i32,4]`.
  std::string type_text() const;
};

struct GgufKv {
  std::string key;
  GgufValue value;
  std::uint64_t offset = 0;  ///< byte offset of the key's record
};

struct GgufTensorInfo {
  std::string name;
  std::vector<std::uint64_t> dims;  ///< ne[0] (innermost) first
  std::uint32_t type = 0;           ///< ggml_type: 0 F32, 1 F16, ...
  std::uint64_t offset = 0;         ///< relative to the data section
  std::uint64_t record_offset = 0;  ///< byte offset of the tensor-info record
  std::uint64_t elements = 0;
  std::uint64_t bytes = 0;          ///< data size
};

struct GgufFile {
  std::string name;  ///< the path, for messages
  std::uint32_t version = 0;
  bool big_endian = false;
  std::uint64_t file_size = 0;
  std::uint64_t alignment = 32;
  bool alignment_given = false;
  std::uint64_t data_offset = 0;  ///< start of tensor data (unpadded end of header when no tensors)
  std::vector<GgufKv> kvs;
  std::vector<GgufTensorInfo> tensors;

  const GgufKv* find(std::string_view key) const;
  const GgufTensorInfo* tensor(std::string_view name) const;
};

/// ggml's name for a tensor type ("F32", "Q4_K", ...), or "type N" for an unknown id.
std::string ggml_type_name(std::uint32_t type);

/// True when the file at `path` starts with the GGUF magic bytes (false when unreadable).
bool has_gguf_magic(const std::string& path);

/// A file to read as GGUF: it starts with the magic, or its name ends in ".gguf" (any case), so
/// that an empty or damaged .gguf gets the GGUF reader's message (byte offset and rule), not a
/// JSON parser's.
bool is_gguf_path(const std::string& path);

/// Reads the header of the GGUF file at `path`.
GgufFile read_gguf(const std::string& path);

/// Parses a GGUF file held in memory (tests, fuzzing); `name` labels messages.
GgufFile parse_gguf(std::string_view bytes, const std::string& name = "model.gguf");

/// The values of a 1-D F32 tensor of at most 1,048,576 elements (the frequency tensors
/// rope_freqs, rope_factors_long/short), read by seeking in the file. Throws Error naming the
/// tensor when it has another type or shape.
std::vector<float> read_gguf_f32(const GgufFile& f, const GgufTensorInfo& t);

/// Same, from the bytes of the whole file (what parse_gguf read).
std::vector<float> gguf_f32_from_bytes(const GgufFile& f, const GgufTensorInfo& t, std::string_view bytes);

}  // namespace posenc::formats
