#pragma once
// Private pieces of the safetensors reader shared by its files (safetensors*.cpp).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace posenc::formats {
struct StCheckpoint;
struct StTensor;
}  // namespace posenc::formats

namespace posenc::formats::st_detail {

/// Elements [first, first + count) of a tensor, read with pread and decoded.
std::vector<double> read_elements(const StCheckpoint& c, const StTensor& t, std::uint64_t first, std::uint64_t count);

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

/// True when `head` starts with a zip's or a pickle's magic where a safetensors header would
/// start with its JSON.
bool looks_like_pytorch(std::string_view head);

}  // namespace posenc::formats::st_detail
