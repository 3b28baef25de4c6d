#pragma once
// Byte sources and the bounds-checked little/big-endian cursor of the GGUF reader (private).
#include <fmt/format.h>

#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "posenc/error.hpp"
#include "posenc/formats/gguf.hpp"

namespace posenc::formats::gguf_detail {

/// Random-access bytes: a file (read in blocks) or memory.
class Source {
 public:
  virtual ~Source() = default;
  virtual std::uint64_t size() const = 0;
  /// Copies bytes [offset, offset + n) (within size()) to dst.
  virtual void read(std::uint64_t offset, char* dst, std::size_t n) const = 0;
};

class MemorySource : public Source {
 public:
  explicit MemorySource(std::string_view b) : b_(b) {}
  std::uint64_t size() const override { return b_.size(); }
  void read(std::uint64_t offset, char* dst, std::size_t n) const override;

 private:
  std::string_view b_;
};

/// Opens a regular file; throws Error "'path': cannot read: reason" / "is a folder".
std::unique_ptr<Source> open_file(const std::string& path);

/// ggml_type traits: elements per block and bytes per block; block 0 = not a ggml type.
struct TypeInfo {
  std::string_view name;
  std::uint64_t block = 0, size = 0;
};
TypeInfo ggml_type_info(std::uint32_t type);

/// The order rule of tensor data (ggml: each tensor's data follows the previous one's, in the
/// order of the tensor infos): the end of a message about a tensor whose data (`offset`, `bytes`)
/// starts before the end of `before`, listed earlier.
inline std::string order_rule(std::uint64_t offset, std::uint64_t bytes, const GgufTensorInfo& before) {
  return fmt::format("data (offset {}, {} bytes) starts before the end of tensor '{}' (offset {}, {} bytes), listed "
                     "before it: tensor data must follow the order of the tensor infos without overlapping",
                     offset, bytes, before.name, before.offset, before.bytes);
}

/// Sequential reader with every read checked against the end of the source. Messages:
/// "NAME: byte N: what". Reads through a 64 KiB buffer.
class Reader {
 public:
  Reader(const Source& s, std::string name) : src_(s), name_(std::move(name)), size_(s.size()) {}
  bool swap = false;  ///< big-endian file
  bool v1 = false;    ///< 32-bit lengths and counts

  std::uint64_t pos() const { return pos_; }
  std::uint64_t size() const { return size_; }
  std::uint64_t remaining() const { return size_ - pos_; }
  void seek(std::uint64_t p) { pos_ = p; }
  [[noreturn]] void fail(std::uint64_t at, const std::string& what) const {
    throw Error(fmt::format("{}: byte {}: {}", name_, at, what));
  }

  void bytes(char* dst, std::size_t n, const char* what);
  void skip(std::uint64_t n, const char* what);
  std::uint8_t u8(const char* what) { return static_cast<std::uint8_t>(num<1>(what)); }
  std::uint16_t u16(const char* what) { return static_cast<std::uint16_t>(num<2>(what)); }
  std::uint32_t u32(const char* what) { return static_cast<std::uint32_t>(num<4>(what)); }
  std::uint64_t u64(const char* what) { return num<8>(what); }
  /// A count (u64; u32 in version 1).
  std::uint64_t count(const char* what) { return v1 ? u32(what) : u64(what); }
  /// A string length, checked against the bytes left.
  std::uint64_t length(const char* what);
  std::string text(std::size_t n, const char* what);
  /// Skips `count` strings (a length, then its bytes), as skip(length(what_len), what) each;
  /// the lengths read straight from the buffer (a tokenizer's array holds 100,000s of strings).
  void skip_strings(std::uint64_t count, const char* what_len, const char* what);

 private:
  const Source& src_;
  std::string name_;
  std::uint64_t size_;  ///< the source's (fixed)
  std::uint64_t pos_ = 0;
  std::vector<char> buf_;
  std::uint64_t buf_start_ = 0;

  template <int N>
  std::uint64_t num(const char* what) {
    unsigned char b[N];
    bytes(reinterpret_cast<char*>(b), N, what);
    std::uint64_t v = 0;
    for (int i = 0; i < N; ++i) v |= static_cast<std::uint64_t>(b[swap ? N - 1 - i : i]) << (8 * i);
    return v;
  }
};

}  // namespace posenc::formats::gguf_detail
