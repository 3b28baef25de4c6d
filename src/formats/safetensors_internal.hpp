#pragma once
// Private pieces of the safetensors reader shared by its files (safetensors*.cpp).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace posenc::formats {
struct StCheckpoint;
struct StFile;
struct StTensor;
enum class StDtype : std::uint8_t;
}  // namespace posenc::formats

namespace posenc::formats::st_detail {

/// A tensor named by --input PATH:NAME[i…] (safetensors or GGUF), opened: the selection's first
/// element and count, the selection's shape (0 to 2 axes), and reads of its elements (any
/// thread). Errors are one line starting with "--input".
struct TensorInputSource {
  virtual ~TensorInputSource() = default;
  std::uint64_t first = 0, count = 1;
  std::vector<std::uint64_t> rest;
  virtual void read(std::uint64_t at, std::span<float> out) const = 0;
  virtual void read(std::uint64_t at, std::span<double> out) const = 0;
};
/// Opens tensor NAME (or NAME[i…]) of the checkpoint or GGUF `path`; `input` is the whole
/// --input argument, for messages. Refuses what read_tensor_table refuses, in the same words.
std::unique_ptr<TensorInputSource> open_tensor_input(const std::string& path, const std::string& name,
                                                     const std::string& input);

/// `n` elements of dtype `t` (decodable) at `p`, little-endian, to float32: the bits of
/// to_f32(decode_element(...)) for each; F16, BF16 and F32 decoded in bulk.
void decode_f32(StDtype t, const unsigned char* p, std::size_t n, float* out);

/// "'name'" with control bytes and bytes that are not UTF-8 escaped (\xNN), cut at 120 bytes.
std::string st_quoted(std::string_view name);

/// Throws Error "'PATH': byte B: WHAT".
[[noreturn]] void fail(const std::string& path, std::uint64_t byte, const std::string& what);

/// A key of the header's top-level object, as written (quotes and escapes included), and its
/// byte within the header text.
struct RawKey {
  std::size_t pos = 0;
  std::string_view raw;
};
/// The top-level keys of a JSON object text, in order, found by a scan that follows strings
/// and nesting only; refuses nesting deeper than 3 ("FILE: byte base+i: ...") before any
/// parser builds a tree.
std::vector<RawKey> scan_top_keys(std::string_view text, const std::string& path, std::uint64_t base);

/// The dtype a safetensors header names `name` (tensor.rs `enum Dtype`); false for another name.
bool dtype_named(std::string_view name, StDtype& out);

/// The fast path of parse_safetensors_header: parses `text` (the header's JSON, NUL-free) into
/// `f`'s tensors and metadata when it is written as writers write it (ASCII without escapes,
/// integers, no other field) and breaks no rule of read_entry (checked: every entry's dtype,
/// shape and data_offsets; unique names); false otherwise, `f` then partly filled: the general
/// reader must decide and say what is wrong. The data coverage is not checked here.
bool parse_header_fast(std::string_view text, StFile& f);
/// The general reader (nlohmann's SAX parser): any header; fills `f`'s tensors and metadata or
/// throws Error naming what is wrong. The data coverage is not checked here. For a header the
/// fast path takes, both give the same tensors and metadata (fuzz_safetensors checks it).
void parse_header_general(std::string_view text, const std::string& path, StFile& f);

/// True when `head` starts with a zip's or a pickle's magic where a safetensors header would
/// start with its JSON.
bool looks_like_pytorch(std::string_view head);

}  // namespace posenc::formats::st_detail
