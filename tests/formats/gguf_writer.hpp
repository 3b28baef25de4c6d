#pragma once
// A small GGUF writer for tests, written from the format specification (ggml docs/gguf.md):
// magic "GGUF", u32 version, u64 tensor count, u64 metadata count (u32 both in v1), the
// key/value records (u64 key length + key, u32 type, value; strings u64 length + bytes; arrays
// u32 element type + u64 count + elements), the tensor-info records (u64 name length + name,
// u32 n_dims, u64 dims, u32 ggml type, u64 offset), zero padding to the alignment, tensor data.
// A big-endian file keeps the magic bytes and swaps every other field.
#include <bit>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "test_data.hpp"

namespace posenc::test {

class GgufWriter {
 public:
  std::uint32_t version = 3;
  bool big_endian = false;
  std::uint64_t alignment = 32;  ///< used for padding; add the key with u32("general.alignment", ...)

  // Value type ids (gguf_type).
  enum : std::uint32_t { U8, I8, U16, I16, U32, I32, F32, BOOL, STR, ARR, U64, I64, F64 };

  GgufWriter& str(const std::string& key, const std::string& v) { return kv(key, STR, [&] { text(v); }); }
  GgufWriter& u32(const std::string& key, std::uint32_t v) { return kv(key, U32, [&] { put(v, 4); }); }
  GgufWriter& i32(const std::string& key, std::int32_t v) { return kv(key, I32, [&] { put(std::uint32_t(v), 4); }); }
  GgufWriter& u64(const std::string& key, std::uint64_t v) { return kv(key, U64, [&] { put(v, 8); }); }
  GgufWriter& f32(const std::string& key, float v) { return kv(key, F32, [&] { put(std::bit_cast<std::uint32_t>(v), 4); }); }
  GgufWriter& f64(const std::string& key, double v) { return kv(key, F64, [&] { put(std::bit_cast<std::uint64_t>(v), 8); }); }
  GgufWriter& boolean(const std::string& key, bool v) { return kv(key, BOOL, [&] { put(v ? 1 : 0, 1); }); }
  GgufWriter& i32s(const std::string& key, const std::vector<std::int32_t>& v) {
    return kv(key, ARR, [&] {
      put(I32, 4), count(v.size());
      for (auto x : v) put(std::uint32_t(x), 4);
    });
  }
  GgufWriter& f32s(const std::string& key, const std::vector<float>& v) {
    return kv(key, ARR, [&] {
      put(F32, 4), count(v.size());
      for (auto x : v) put(std::bit_cast<std::uint32_t>(x), 4);
    });
  }
  GgufWriter& strs(const std::string& key, const std::vector<std::string>& v) {
    return kv(key, ARR, [&] {
      put(STR, 4), count(v.size());
      for (const auto& x : v) text(x);
    });
  }
  /// Raw record bytes (for hostile files): the key, then `type` and `value_bytes` as given.
  GgufWriter& raw(const std::string& key, std::uint32_t type, const std::string& value_bytes) {
    return kv(key, type, [&] { out_ += value_bytes; });
  }
  /// An F32 tensor of shape {values.size()}.
  GgufWriter& tensor_f32(const std::string& name, const std::vector<float>& values) {
    std::string data;
    for (float x : values) data += bytes_of(std::bit_cast<std::uint32_t>(x), 4);
    tensors_.push_back({name, {values.size()}, 0, data});
    return *this;
  }
  /// Any tensor: dims, ggml type and data bytes as given.
  GgufWriter& tensor(const std::string& name, std::vector<std::uint64_t> dims, std::uint32_t type, std::string data) {
    tensors_.push_back({name, std::move(dims), type, std::move(data)});
    return *this;
  }
  /// Overrides the counts written in the header (hostile files).
  std::uint64_t* kv_count_override = nullptr;

  /// Encodes `v` in the file's byte order on `n` bytes.
  std::string bytes_of(std::uint64_t v, int n) const {
    std::string s(static_cast<std::size_t>(n), '\0');
    for (int i = 0; i < n; ++i) s[static_cast<std::size_t>(big_endian ? n - 1 - i : i)] = static_cast<char>(v >> (8 * i));
    return s;
  }

  std::string bytes(std::uint64_t n_kv_written = UINT64_MAX, std::uint64_t n_tensors_written = UINT64_MAX) const {
    std::string h = "GGUF" + bytes_of(version, 4);
    const int w = version == 1 ? 4 : 8;
    h += bytes_of(n_tensors_written != UINT64_MAX ? n_tensors_written : tensors_.size(), w);
    h += bytes_of(n_kv_written != UINT64_MAX ? n_kv_written : n_kv_, w);
    h += out_;
    std::uint64_t offset = 0;
    std::string data;
    for (const auto& t : tensors_) {
      h += bytes_of(t.name.size(), w) + t.name + bytes_of(t.dims.size(), 4);
      for (auto d : t.dims) h += bytes_of(d, w);
      h += bytes_of(t.type, 4) + bytes_of(offset, 8);
      data += t.data;
      while (data.size() % alignment != 0) data += '\0';
      offset = data.size();
    }
    if (!tensors_.empty())
      while (h.size() % alignment != 0) h += '\0';
    return h + data;
  }

  void save(const std::filesystem::path& p) const { std::ofstream(p, std::ios::binary) << bytes(); }

 private:
  struct Tensor {
    std::string name;
    std::vector<std::uint64_t> dims;
    std::uint32_t type;
    std::string data;
  };
  std::string out_;
  std::uint64_t n_kv_ = 0;
  std::vector<Tensor> tensors_;

  void put(std::uint64_t v, int n) { out_ += bytes_of(v, n); }
  void count(std::uint64_t n) { put(n, version == 1 ? 4 : 8); }
  void text(const std::string& s) { count(s.size()), out_ += s; }
  template <class F>
  GgufWriter& kv(const std::string& key, std::uint32_t type, F value) {
    text(key), put(type, 4), value();
    ++n_kv_;
    return *this;
  }
};

/// A file under ../shared/data/gguf (the repository's sibling folder; POSENC_GGUF_DATA overrides
/// the folder). Empty when absent: tests using it skip.
inline std::string shared_gguf(const std::string& relative) {
  const char* env = std::getenv("POSENC_GGUF_DATA");
  const std::string dir = env != nullptr && *env != 0 ? std::string(env) : data_path("../../../shared/data/gguf");
  const std::string path = dir + "/" + relative;
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) ? path : std::string();
}

}  // namespace posenc::test
