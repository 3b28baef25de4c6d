// GGUF header reader (see gguf.hpp). Format: ggml docs/gguf.md; checks follow ggml's
// src/gguf.cpp gguf_init_from_file_impl (ggml-org/ggml @ d99724f2b141fed9e1a9f402213506c081433465).
#include "posenc/formats/gguf.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <unordered_map>

#include "gguf_source.hpp"
#include "posenc/error.hpp"

namespace posenc::formats {
namespace {

constexpr std::uint32_t kTypeCount = 13;
constexpr std::uint32_t kTypeCountV1 = 10;  // u64, i64, f64 came with version 2
constexpr std::size_t kMaxKeyBytes = 65535;  // spec: keys are at most 2^16 - 1 bytes
constexpr std::size_t kMaxTensorName = 63;   // GGML_MAX_NAME 64 with the NUL
constexpr std::uint32_t kMaxDims = 4;        // GGML_MAX_DIMS

std::size_t scalar_size(GgufType t) {
  switch (t) {
    case GgufType::kU8: case GgufType::kI8: case GgufType::kBool: return 1;
    case GgufType::kU16: case GgufType::kI16: return 2;
    case GgufType::kU32: case GgufType::kI32: case GgufType::kF32: return 4;
    case GgufType::kU64: case GgufType::kI64: case GgufType::kF64: return 8;
    case GgufType::kString: case GgufType::kArray: return 0;
  }
  return 0;
}

class Parser {
 public:
  Parser(const gguf_detail::Source& src, GgufFile& f) : r_(src, f.name), f_(f) {}

  void run() {
    f_.file_size = r_.size();
    char magic[4] = {};
    r_.bytes(magic, 4, "the magic bytes");
    if (std::memcmp(magic, "GGUF", 4) != 0)
      r_.fail(0, fmt::format("not a GGUF file (the first 4 bytes are {:02x} {:02x} {:02x} {:02x}, not \"GGUF\")",
                             static_cast<unsigned char>(magic[0]), static_cast<unsigned char>(magic[1]),
                             static_cast<unsigned char>(magic[2]), static_cast<unsigned char>(magic[3])));
    std::uint32_t v = r_.u32("the version");
    if (v != 0 && (v & 0xFFFFu) == 0) {  // gguf-py and ggml's test: a byte-swapped version
      r_.swap = true;
      f_.big_endian = true;
      v = __builtin_bswap32(v);
    }
    if (v == 0 || v > 3)
      r_.fail(4, fmt::format("GGUF version {} is not supported (versions 1, 2 and 3 exist)", v));
    f_.version = v;
    r_.v1 = v == 1;
    const std::uint64_t n_tensors = r_.count("the tensor count");
    const std::uint64_t n_kv = r_.count("the metadata count");
    // Each record takes at least 13 bytes (key length, type, a 1-byte value; v1: 9).
    check_count(n_kv, r_.v1 ? 9 : 13, "metadata count", r_.pos() - (r_.v1 ? 4 : 8));
    for (std::uint64_t i = 0; i < n_kv; ++i) read_kv();
    check_count(n_tensors, r_.v1 ? 20 : 24, "tensor count", r_.v1 ? 8 : 8);
    for (std::uint64_t i = 0; i < n_tensors; ++i) read_tensor_info();
    f_.data_offset = r_.pos();
    if (n_tensors > 0) {  // ggml pads only when there are tensors
      const std::uint64_t pad = (f_.alignment - f_.data_offset % f_.alignment) % f_.alignment;
      f_.data_offset += pad;
    }
    std::uint64_t end = 0;  // of the data of the tensors checked so far
    const GgufTensorInfo* owner = nullptr;
    for (const auto& t : f_.tensors) {
      check_tensor_data(t);
      if (owner != nullptr && t.offset < end)
        r_.fail(t.record_offset, fmt::format("tensor '{}' {}", t.name, gguf_detail::order_rule(t.offset, t.bytes, *owner)));
      if (t.bytes != 0 && t.offset + t.bytes > end) end = t.offset + t.bytes, owner = &t;
    }
  }

 private:
  gguf_detail::Reader r_;
  GgufFile& f_;
  std::unordered_map<std::string, std::uint64_t> keys_, names_;

  void check_count(std::uint64_t n, std::uint64_t min_bytes, const char* what, std::uint64_t at) {
    if (n > r_.remaining() / min_bytes)
      r_.fail(at, fmt::format("{} {} cannot fit in the {} bytes left (each takes at least {} bytes)", what, n,
                              r_.remaining(), min_bytes));
  }

  GgufType read_type(const char* what, bool element) {
    const std::uint64_t at = r_.pos();
    const std::uint32_t t = r_.u32(what);
    const std::uint32_t limit = r_.v1 ? kTypeCountV1 : kTypeCount;
    if (t >= limit)
      r_.fail(at, fmt::format("{} {} is not a GGUF value type (0..{}{})", what, t, limit - 1,
                              r_.v1 && t < kTypeCount ? " in version 1" : ""));
    if (element && t == static_cast<std::uint32_t>(GgufType::kArray))
      r_.fail(at, "an array of arrays (element type 9): nested arrays are not supported (ggml refuses them too)");
    return static_cast<GgufType>(t);
  }

  void read_scalar(GgufType t, GgufValue& v, const char* what) {
    switch (t) {
      case GgufType::kU8: v.uinteger = r_.u8(what); break;
      case GgufType::kI8: v.integer = static_cast<std::int8_t>(r_.u8(what)); break;
      case GgufType::kBool: v.uinteger = r_.u8(what) != 0 ? 1 : 0; break;  // ggml: any non-zero is true
      case GgufType::kU16: v.uinteger = r_.u16(what); break;
      case GgufType::kI16: v.integer = static_cast<std::int16_t>(r_.u16(what)); break;
      case GgufType::kU32: v.uinteger = r_.u32(what); break;
      case GgufType::kI32: v.integer = static_cast<std::int32_t>(r_.u32(what)); break;
      case GgufType::kF32: v.number = static_cast<double>(std::bit_cast<float>(r_.u32(what))); return;
      case GgufType::kU64: v.uinteger = r_.u64(what); break;
      case GgufType::kI64: v.integer = static_cast<std::int64_t>(r_.u64(what)); break;
      case GgufType::kF64: v.number = std::bit_cast<double>(r_.u64(what)); return;
      case GgufType::kString: case GgufType::kArray: return;
    }
    const bool is_signed = t == GgufType::kI8 || t == GgufType::kI16 || t == GgufType::kI32 || t == GgufType::kI64;
    v.number = is_signed ? static_cast<double>(v.integer) : static_cast<double>(v.uinteger);
  }

  void read_array(GgufValue& v) {
    v.element_type = read_type("the array element type", true);
    const std::uint64_t at = r_.pos();
    v.count = r_.count("the array length");
    const std::size_t size = scalar_size(v.element_type);
    const std::uint64_t min = size != 0 ? size : (r_.v1 ? 4 : 8);  // a string is at least its length field
    if (v.count > r_.remaining() / min)
      r_.fail(at, fmt::format("array of {} {} values cannot fit in the {} bytes left", v.count,
                              to_string(v.element_type), r_.remaining()));
    if (v.element_type == GgufType::kString) {
      r_.skip_strings(v.count, "an array string length", "an array string");
      return;
    }
    v.elements_kept = v.count <= GgufValue::kMaxKeptElements;
    if (!v.elements_kept) {
      r_.skip(v.count * size, "the array");
      return;
    }
    v.numbers.reserve(static_cast<std::size_t>(v.count));
    for (std::uint64_t i = 0; i < v.count; ++i) {
      GgufValue e;
      read_scalar(v.element_type, e, "an array element");
      v.numbers.push_back(e.number);
    }
  }

  void read_kv() {
    GgufKv kv;
    kv.offset = r_.pos();
    const std::uint64_t len = r_.length("the key length");
    if (len == 0) r_.fail(kv.offset, "empty metadata key");
    if (len > kMaxKeyBytes) r_.fail(kv.offset, fmt::format("metadata key of {} bytes (at most {})", len, kMaxKeyBytes));
    kv.key = r_.text(static_cast<std::size_t>(len), "the key");
    if (auto [it, fresh] = keys_.emplace(kv.key, kv.offset); !fresh)
      r_.fail(kv.offset, fmt::format("duplicate metadata key '{}' (first at byte {})", kv.key, it->second));
    GgufValue& v = kv.value;
    v.type = read_type("the value type", false);
    if (v.type == GgufType::kArray) {
      read_array(v);
    } else if (v.type == GgufType::kString) {
      const std::uint64_t n = r_.length("the string length");
      if (n <= GgufValue::kMaxKeptText) {
        v.text = r_.text(static_cast<std::size_t>(n), "the string");
      } else {
        v.text = r_.text(GgufValue::kMaxKeptText, "the string");
        r_.skip(n - GgufValue::kMaxKeptText, "the string");
        v.text_truncated = true;
      }
    } else {
      read_scalar(v.type, v, "the value");
    }
    if (kv.key == "general.alignment") {
      if (v.type != GgufType::kU32)
        r_.fail(kv.offset, fmt::format("general.alignment must be of type u32 (got {})", v.type_text()));
      if (v.uinteger == 0 || !std::has_single_bit(v.uinteger))
        r_.fail(kv.offset, fmt::format("general.alignment must be a power of two (got {})", v.uinteger));
      f_.alignment = v.uinteger;
      f_.alignment_given = true;
    }
    f_.kvs.push_back(std::move(kv));
  }

  void read_tensor_info() {
    GgufTensorInfo t;
    t.record_offset = r_.pos();
    const std::uint64_t len = r_.length("the tensor name length");
    if (len > kMaxTensorName)
      r_.fail(t.record_offset, fmt::format("tensor name of {} bytes (ggml allows at most {})", len, kMaxTensorName));
    t.name = r_.text(static_cast<std::size_t>(len), "the tensor name");
    if (auto [it, fresh] = names_.emplace(t.name, t.record_offset); !fresh)
      r_.fail(t.record_offset, fmt::format("duplicate tensor name '{}' (first at byte {})", t.name, it->second));
    const std::uint64_t dims_at = r_.pos();
    const std::uint32_t n_dims = r_.u32("the tensor dimension count");
    if (n_dims > kMaxDims)
      r_.fail(dims_at, fmt::format("tensor '{}' has {} dimensions (ggml allows at most {})", t.name, n_dims, kMaxDims));
    t.elements = 1;
    bool overflow = false;
    for (std::uint32_t d = 0; d < n_dims; ++d) {
      const std::uint64_t ne = r_.v1 ? r_.u32("a tensor dimension") : r_.u64("a tensor dimension");
      if (ne > static_cast<std::uint64_t>(INT64_MAX))
        r_.fail(dims_at, fmt::format("tensor '{}' dimension {} is {} (negative as int64)", t.name, d, ne));
      t.dims.push_back(ne);
      if (ne != 0 && t.elements > static_cast<std::uint64_t>(INT64_MAX) / ne) overflow = true;
      t.elements *= ne;
    }
    for (std::uint64_t ne : t.dims) overflow = overflow && ne != 0;  // a zero dimension makes 0 elements
    if (overflow) r_.fail(dims_at, fmt::format("tensor '{}' element count overflows int64", t.name));
    const std::uint64_t type_at = r_.pos();
    t.type = r_.u32("the tensor type");
    const auto info = gguf_detail::ggml_type_info(t.type);
    if (info.block == 0)
      r_.fail(type_at, fmt::format("tensor '{}' has ggml type {}, which ggml does not define", t.name, t.type));
    const std::uint64_t ne0 = t.dims.empty() ? 1 : t.dims[0];
    if (ne0 % info.block != 0)
      r_.fail(dims_at, fmt::format("tensor '{}' of type {}: ne[0] = {} is not a multiple of the block size {}", t.name,
                                   info.name, ne0, info.block));
    const std::uint64_t blocks = t.elements / info.block;
    if (blocks > UINT64_MAX / info.size)
      r_.fail(dims_at, fmt::format("tensor '{}' byte size overflows", t.name));
    t.bytes = blocks * info.size;
    t.offset = r_.u64("the tensor offset");
    f_.tensors.push_back(std::move(t));
  }

  void check_tensor_data(const GgufTensorInfo& t) {
    const std::uint64_t at = t.record_offset;
    if (t.offset % f_.alignment != 0)
      r_.fail(at, fmt::format("tensor '{}' offset {} is not a multiple of the alignment {}", t.name, t.offset,
                              f_.alignment));
    const std::uint64_t size = f_.file_size;
    if (f_.data_offset > size || t.offset > size - f_.data_offset || t.bytes > size - f_.data_offset - t.offset)
      r_.fail(at, fmt::format("tensor '{}' data (bytes {} + {} + {}) runs past the end of the file ({} bytes)", t.name,
                              f_.data_offset, t.offset, t.bytes, size));
  }
};

GgufFile parse(const gguf_detail::Source& src, const std::string& name) {
  GgufFile f;
  f.name = name;
  Parser(src, f).run();
  return f;
}

std::vector<float> f32_values(const GgufFile& f, const GgufTensorInfo& t, const gguf_detail::Source& src) {
  if (t.type != 0)
    throw Error(fmt::format("{}: tensor '{}' must be F32 (got {})", f.name, t.name, ggml_type_name(t.type)));
  if (t.dims.size() != 1 || t.elements > (1u << 20))
    throw Error(fmt::format("{}: tensor '{}' must be 1-D with at most 1048576 values (got {} elements in {} dims)",
                            f.name, t.name, t.elements, t.dims.size()));
  gguf_detail::Reader r(src, f.name);
  r.swap = f.big_endian;
  r.seek(f.data_offset + t.offset);
  std::vector<float> out(static_cast<std::size_t>(t.elements));
  for (auto& x : out) x = std::bit_cast<float>(r.u32("tensor data"));
  return out;
}

}  // namespace

std::string_view to_string(GgufType t) {
  static constexpr std::array<std::string_view, kTypeCount> names = {"u8",  "i8",  "u16", "i16", "u32", "i32", "f32",
                                                                     "bool", "str", "arr", "u64", "i64", "f64"};
  const auto i = static_cast<std::size_t>(t);
  return i < names.size() ? names[i] : "?";
}

bool GgufValue::is_numeric() const { return type != GgufType::kString && type != GgufType::kArray; }

std::string GgufValue::type_text() const {
  if (type != GgufType::kArray) return std::string(to_string(type));
  return fmt::format("arr[{},{}]", to_string(element_type), count);
}

std::string GgufValue::to_text() const {
  switch (type) {
    case GgufType::kString: return fmt::format("\"{}\"{}", text, text_truncated ? "…" : "");
    case GgufType::kBool: return uinteger != 0 ? "true" : "false";
    case GgufType::kF32: return fmt::format("{}", static_cast<float>(number));
    case GgufType::kF64: return fmt::format("{}", number);
    case GgufType::kI8: case GgufType::kI16: case GgufType::kI32: case GgufType::kI64: return fmt::format("{}", integer);
    case GgufType::kArray:
      if (!elements_kept) return fmt::format("[{} {} values]", count, to_string(element_type));
      return fmt::format("[{}]", fmt::join(numbers, ", "));
    default: return fmt::format("{}", uinteger);
  }
}

const GgufKv* GgufFile::find(std::string_view key) const {
  const auto it = std::find_if(kvs.begin(), kvs.end(), [&](const GgufKv& kv) { return kv.key == key; });
  return it == kvs.end() ? nullptr : &*it;
}

const GgufTensorInfo* GgufFile::tensor(std::string_view n) const {
  const auto it = std::find_if(tensors.begin(), tensors.end(), [&](const GgufTensorInfo& t) { return t.name == n; });
  return it == tensors.end() ? nullptr : &*it;
}

std::string ggml_type_name(std::uint32_t type) {
  const auto info = gguf_detail::ggml_type_info(type);
  return info.block != 0 ? std::string(info.name) : fmt::format("type {}", type);
}

bool has_gguf_magic(const std::string& path) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> fp(std::fopen(path.c_str(), "rb"), &std::fclose);
  char magic[4] = {};
  return fp && std::fread(magic, 1, 4, fp.get()) == 4 && std::memcmp(magic, "GGUF", 4) == 0;
}

bool is_gguf_path(const std::string& path) {
  if (has_gguf_magic(path)) return true;
  if (path.size() < 5) return false;
  std::string ext = path.substr(path.size() - 5);
  for (char& ch : ext) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return ext == ".gguf";
}

GgufFile read_gguf(const std::string& path) {
  const auto src = gguf_detail::open_file(path);
  return parse(*src, path);
}

GgufFile parse_gguf(std::string_view bytes, const std::string& name) {
  const gguf_detail::MemorySource src(bytes);
  return parse(src, name);
}

std::vector<float> read_gguf_f32(const GgufFile& f, const GgufTensorInfo& t) {
  const auto src = gguf_detail::open_file(f.name);
  return f32_values(f, t, *src);
}

std::vector<float> gguf_f32_from_bytes(const GgufFile& f, const GgufTensorInfo& t, std::string_view bytes) {
  const gguf_detail::MemorySource src(bytes);
  return f32_values(f, t, src);
}

}  // namespace posenc::formats
