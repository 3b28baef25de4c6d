#pragma once
/// The tensor data of a GGUF file (the header is gguf.hpp): a tensor's bytes are read on demand
/// (pread of its range, in chunks, never the whole file) and decoded to float32 element by
/// element, so alignment is never assumed. Block types are dequantised as ggml's scalar
/// reference does (ggml/src/ggml-quants.c `dequantize_row_*`, llama.cpp @ c392e5094dea, MXFP4 @
/// 01243c587fec; ggml-org/ggml @ d99724f2b141): the same float32 operations in the same order, no
/// contraction into FMA, so every value is bit-identical to ggml's. docs/formats.md "GGUF tensor
/// data".
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "posenc/formats/gguf.hpp"

namespace posenc::formats {

/// A tensor's values as float32, in row-major (C) order.
struct GgufTensorData {
  std::string dtype;               ///< ggml's type name: "F32", "Q4_K", ...
  std::vector<std::size_t> shape;  ///< PyTorch order: ggml's ne reversed (ne[0], innermost, last)
  std::vector<float> values;
};

/// True for the ggml types posenc dequantises: F32, F16, BF16, Q4_0, Q4_1, Q5_0, Q5_1, Q8_0,
/// Q4_K, Q5_K, Q6_K, IQ4_NL, IQ4_XS, MXFP4.
bool ggml_type_dequantised(std::uint32_t type);

/// Reads and decodes tensor `t` of the GGUF file `f` (read by read_gguf), from f.name. Throws
/// Error in one line naming the file, the tensor and the byte offset when the tensor breaks a
/// rule (type unknown or not dequantised, ne[0] not a multiple of the block, sizes overflowing,
/// data out of order, overlapping another tensor or past the end of the file) or the file cannot
/// be read; check_memory guards the float32 result.
GgufTensorData read_gguf_tensor(const GgufFile& f, const GgufTensorInfo& t);

/// Same, from the bytes of the whole file held in memory (what parse_gguf read): tests, fuzzing.
GgufTensorData gguf_tensor_from_bytes(const GgufFile& f, const GgufTensorInfo& t, std::string_view bytes);

/// One tensor's elements read on demand, by ranges: read() preads only the blocks that hold the
/// elements asked for (1 MiB at a time through a per-thread buffer, never the whole tensor) and
/// dequantises them as read_gguf_tensor does (same values, bit for bit). read() may be called
/// from several threads at once.
class GgufTensorReader {
 public:
  /// Checks the tensor's rules as read_gguf_tensor does (same one-line errors), opens f.name and
  /// checks that its size is still the header's.
  GgufTensorReader(const GgufFile& f, const GgufTensorInfo& t);
  ~GgufTensorReader();
  GgufTensorReader(const GgufTensorReader&) = delete;
  GgufTensorReader& operator=(const GgufTensorReader&) = delete;

  std::uint64_t elements() const { return elements_; }
  /// Elements [first, first + out.size()) in row-major order; throws Error when they are not all
  /// in the tensor or the file cannot be read.
  void read(std::uint64_t first, std::span<float> out) const;

 private:
  std::string file_, name_;
  std::uint32_t type_ = 0;
  bool big_endian_ = false;
  std::uint64_t start_ = 0, elements_ = 0, block_ = 1, block_bytes_ = 4;
  int fd_ = -1;
};

/// Decodes whole blocks of ggml type `type` (ggml_type_dequantised) from `blocks` into `out`,
/// which holds exactly (blocks.size() / block bytes) * block elements values; `big_endian`:
/// every multi-byte field (f16 scales, Q5's 32-bit high bits, IQ4_XS's scales_h, F32/F16/BF16
/// values) is stored most significant byte first, as ggml on a big-endian host reads it.
/// Throws Error when the sizes do not match or the type is not dequantised.
void dequantize_ggml(std::uint32_t type, std::string_view blocks, std::span<float> out, bool big_endian = false);

}  // namespace posenc::formats
