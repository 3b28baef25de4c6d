#pragma once
/// Reading safetensors checkpoints (Hugging Face's weight format): a single file, a sharded
/// checkpoint (`model.safetensors.index.json`) or a folder. The layout is 8 bytes of header
/// length N (u64 little-endian), N bytes of JSON, then the data section; each tensor's
/// `data_offsets` [BEGIN, END) are relative to the data section. The header is validated as
/// the reference Rust reader (huggingface/safetensors `tensor.rs`) does, plus what it misses:
/// duplicate names, NUL bytes and path separators in names, a JSON nesting deeper than a
/// header needs. Only headers are read when a checkpoint is opened; a tensor's bytes are read
/// on request with pread, block by block, and decoded element by element (the data section
/// gives no alignment guarantee). Every error is one line, "FILE: byte B: tensor 'NAME': rule".
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "posenc/formats/readers.hpp"

namespace posenc::formats {

/// The dtypes of the reference reader's `enum Dtype` (safetensors `tensor.rs`), with the
/// number of bits of one element. Every one of them is listed; decode() reads the ones that
/// map to numbers: BOOL, U8..U64, I8..I64, F16, BF16, F32, F64, F8_E4M3 (float8_e4m3fn),
/// F8_E5M2.
enum class StDtype : std::uint8_t {
  kBool, kF4, kF6E2M3, kF6E3M2, kU8, kI8, kF8E5M2, kF8E4M3, kF8E8M0, kF8E4M3Fnuz, kF8E5M2Fnuz,
  kI16, kU16, kF16, kBF16, kI32, kU32, kF32, kC64, kF64, kI64, kU64,
};

/// "F32", "BF16", "F8_E4M3", ... as the header spells it.
std::string_view to_string(StDtype t);
/// Bits of one element (4 for F4, 6 for F6_*, 8 .. 64).
unsigned dtype_bits(StDtype t);
/// True when decode_element reads the dtype.
bool is_decodable(StDtype t);

/// The header's largest length: 100,000,000 bytes, as the reference reader (MAX_HEADER_SIZE).
inline constexpr std::uint64_t kMaxSafetensorsHeader = 100'000'000;

struct StTensor {
  std::string name;
  StDtype dtype = StDtype::kF32;
  std::vector<std::uint64_t> shape;  ///< PyTorch order (row-major, last axis fastest)
  std::uint64_t begin = 0;           ///< data_offsets[0], relative to the data section
  std::uint64_t end = 0;             ///< data_offsets[1]
  std::uint64_t elements = 1;        ///< product of shape (1 for a scalar)
  std::uint64_t header_byte = 0;     ///< file byte of the tensor's key in the header (for messages)
  std::size_t file = 0;              ///< index in StCheckpoint::files
  std::uint64_t bytes() const { return end - begin; }
};

/// One validated .safetensors file: its header, never its data.
struct StFile {
  std::string path;                  ///< as given (messages, listings)
  std::uint64_t file_size = 0;
  std::uint64_t header_size = 0;     ///< N
  std::uint64_t data_offset = 0;     ///< 8 + N
  std::vector<std::pair<std::string, std::string>> metadata;  ///< __metadata__, in header order
  std::vector<StTensor> tensors;     ///< in header order
};

/// Parses and validates a header. `head` holds the file's first bytes, at least 8 + N of them
/// (more is fine), `file_size` the file's size; `path` names the file in messages.
StFile parse_safetensors_header(std::string_view head, std::uint64_t file_size, const std::string& path);
/// Same for a whole file in memory (tests, fuzzing).
StFile parse_safetensors(std::string_view bytes, const std::string& path = "model.safetensors");
/// Reads and validates the header of the file `path` (8 bytes, then N bytes: nothing else).
StFile read_safetensors_header(const std::string& path);

/// A sharded checkpoint's index (`model.safetensors.index.json`): `metadata` (values as JSON
/// text, e.g. total_size) and `weight_map` tensor name -> shard file name, in file order.
struct StIndex {
  std::vector<std::pair<std::string, std::string>> metadata;
  std::vector<std::pair<std::string, std::string>> weight_map;
  std::vector<std::uint64_t> weight_map_bytes;  ///< byte of each weight_map key in the index (messages)
  std::vector<std::string> shards;  ///< the distinct shard names, in order of first use
};
/// Parses an index's JSON; refuses duplicate names, a shard name with '/', '\', "..", a drive
/// or NUL (shard names are file names next to the index, never paths), an empty weight_map.
StIndex parse_safetensors_index(std::string_view json, const std::string& path);

/// A checkpoint: one file, or the shards an index names (every shard's header validated, each
/// tensor in exactly the shard the index says, and no tensor left out of the index).
struct StCheckpoint {
  std::string path;        ///< what was opened (file, index or folder)
  std::string index_path;  ///< the index read, "" for a single file
  std::vector<std::pair<std::string, std::string>> index_metadata;
  std::vector<StFile> files;      ///< path, sizes and metadata of each file (their `tensors` moved below)
  std::vector<StTensor> tensors;  ///< every file's tensors, files in index order, header order within

  /// The tensor called `name`, or nullptr.
  const StTensor* find(std::string_view name) const;
};

/// Opens `path`: a .safetensors file, an index (`*.safetensors.index.json`) or a folder (its
/// `model.safetensors.index.json`, else its one `*.safetensors.index.json`, else its one
/// `*.safetensors`). A PyTorch .bin/.pt/.pth/.ckpt (a zip or a pickle) is refused with the
/// command that converts it. Reads headers only.
StCheckpoint open_safetensors(const std::string& path);

/// True when `path` names a PyTorch pickle checkpoint (by its name, or a zip or pickle magic
/// where a safetensors header should be).
bool is_pytorch_checkpoint(const std::string& path);
/// The one-line refusal of a PyTorch checkpoint, with the conversion command.
std::string pytorch_refusal(const std::string& path);

/// One element of dtype `t` (the bytes at `p`, little-endian) as a double, exactly: F16 and
/// BF16 and both F8 are widened without rounding (subnormals, ±0, ±inf, NaN kept); I64 and
/// U64 beyond 2^53 round to nearest; BOOL is 0 or 1. Throws Error for a dtype that is not
/// decodable.
double decode_element(StDtype t, const unsigned char* p);
/// IEEE binary16 bits to their value.
double f16_value(std::uint16_t bits);
/// bfloat16 bits (the high half of a float32) to their value.
double bf16_value(std::uint16_t bits);
/// float8_e4m3fn (bias 7, no infinities, S.1111.111 NaN, largest 448) to its value.
double f8_e4m3_value(std::uint8_t bits);
/// float8_e5m2 (bias 15, IEEE-like: infinities and NaNs, largest 57344) to its value.
double f8_e5m2_value(std::uint8_t bits);

/// Decodes `bytes` (a whole number of elements of `t`) into `out` (one value per element).
void decode_elements(StDtype t, std::string_view bytes, std::span<double> out);
void decode_elements(StDtype t, std::string_view bytes, std::span<float> out);

/// A tensor's values, read from its file with pread in blocks (no buffer of the whole file or
/// tensor); the memory limit is checked before the result is allocated.
std::vector<double> read_tensor(const StCheckpoint& c, const StTensor& t);
std::vector<float> read_tensor_f32(const StCheckpoint& c, const StTensor& t);
/// Same, from a file held in memory (what parse_safetensors read).
std::vector<double> tensor_from_bytes(const StFile& f, const StTensor& t, std::string_view bytes);

/// One tensor's elements read on demand, by ranges: each read() preads just the bytes of the
/// elements asked for (in chunks of 256 KiB through a per-thread buffer, never the whole tensor)
/// and decodes them. read() may be called from several threads at once. The float32 read gives
/// the bits of the float64 read rounded to float32 (F16, BF16 and F32 exactly; a NaN keeps its
/// sign and is quiet), decoding F16, BF16 and F32 in bulk.
class StTensorReader {
 public:
  /// Refuses a dtype that is not decodable ("FILE: byte B: tensor 'NAME': dtype ..."), opens
  /// the tensor's file and checks that its size is still the header's.
  StTensorReader(const StCheckpoint& c, const StTensor& t);
  ~StTensorReader();
  StTensorReader(const StTensorReader&) = delete;
  StTensorReader& operator=(const StTensorReader&) = delete;

  const StTensor& tensor() const { return t_; }
  /// Elements [first, first + out.size()) into `out`; throws Error when they are not all in the
  /// tensor or the file cannot be read ("FILE: byte B: cannot read N bytes: ...").
  void read(std::uint64_t first, std::span<float> out) const;
  void read(std::uint64_t first, std::span<double> out) const;

 private:
  template <class Out>
  void read_into(std::uint64_t first, std::span<Out> out) const;
  StTensor t_;
  std::string path_;
  std::uint64_t base_ = 0;  ///< file byte of the tensor's first element
  int fd_ = -1;
};

/// `--input PATH:NAME` split: {PATH, NAME} when the part before a ':' names a .safetensors
/// file, a `.index.json` or a folder; else {}.
std::pair<std::string, std::string> split_tensor_input(const std::string& input);

/// A tensor as a table (`--input FILE.safetensors:NAME`): a 2-D tensor as it is, a 1-D one as
/// one column, a scalar as 1×1. NAME[i] (NAME[i,j]) selects index i of the first axis (i, j of
/// the first two), so that a 3-D or 4-D tensor gives a 2-D slice; a tensor left with more than
/// two axes is refused with the selector to use. `input` is the whole argument, for messages.
NpyArray read_tensor_table(const std::string& path, const std::string& name, const std::string& input);

}  // namespace posenc::formats
