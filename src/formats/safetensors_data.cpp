// safetensors: reading a header from a file, and a tensor's bytes on demand (pread, in blocks),
// decoded element by element (see safetensors.hpp).
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string_view>

#include "posenc/error.hpp"
#include "posenc/formats/safetensors.hpp"
#include "posenc/memory.hpp"
#include "posenc/table.hpp"
#include "safetensors_internal.hpp"

namespace posenc::formats {

namespace st_detail {

bool looks_like_pytorch(std::string_view head) {
  const bool zip = head.substr(0, 4) == std::string_view("PK\x03\x04", 4);
  // Pickle protocol 2 to 5 opens with PROTO (0x80) and the protocol number.
  const bool pickle = head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x80 && head[1] >= 2 && head[1] <= 5;
  if (!zip && !pickle) return false;
  // A safetensors header length can start with those bytes; its JSON then starts with '{'.
  return head.size() < 9 || std::string_view("{ \t\r\n").find(head[8]) == std::string_view::npos;
}

}  // namespace st_detail

namespace {

/// An open file read with pread; closed on destruction.
class StFd {
 public:
  explicit StFd(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw Error(fmt::format("'{}': cannot read: {}", path, std::strerror(errno)));
    struct stat st {};
    if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(fd_);
      throw Error(fmt::format("'{}': cannot read: not a regular file (a safetensors file is read by offsets)", path));
    }
    size_ = static_cast<std::uint64_t>(st.st_size);
  }
  ~StFd() { ::close(fd_); }
  StFd(const StFd&) = delete;
  StFd& operator=(const StFd&) = delete;
  std::uint64_t size() const { return size_; }

  /// Bytes [offset, offset + n) into dst.
  void read(std::uint64_t offset, char* dst, std::size_t n) const {
    std::size_t done = 0;
    while (done < n) {
      const ssize_t got = ::pread(fd_, dst + done, n - done, static_cast<off_t>(offset + done));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0)
        throw Error(fmt::format("'{}': byte {}: cannot read {} bytes: {}", path_, offset + done, n - done,
                                got < 0 ? std::strerror(errno) : "the file shrank while it was read"));
      done += static_cast<std::size_t>(got);
    }
  }

 private:
  std::string path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

template <class T>
std::uint64_t le_bits(const unsigned char* p) {
  std::uint64_t v = 0;
  for (std::size_t i = sizeof(T); i-- > 0;) v = (v << 8) | p[i];
  return v;
}

template <class Out>
void decode_into(StDtype t, std::string_view bytes, std::span<Out> out) {
  const std::size_t size = dtype_bits(t) / 8;
  if (!is_decodable(t))
    throw Error(fmt::format("dtype {} is not read by posenc (it reads F64, F32, F16, BF16, F8_E4M3, F8_E5M2, the "
                            "integer types and BOOL)",
                            to_string(t)));
  if (bytes.size() != out.size() * size) throw Error("decode_elements: byte count and element count differ");
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  if constexpr (std::is_same_v<Out, float>) {
    st_detail::decode_f32(t, p, out.size(), out.data());
  } else {
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = decode_element(t, p + i * size);
  }
}

template <class Out>
std::vector<Out> read_values(const StCheckpoint& c, const StTensor& t, std::uint64_t first_element,
                             std::uint64_t count) {
  const StTensorReader reader(c, t);  // the dtype refused, the file opened and its size checked
  if (first_element > t.elements || count > t.elements - first_element)
    throw Error(fmt::format("tensor '{}': elements {}+{} are not in its {}", t.name, first_element, count, t.elements));
  check_memory(count, sizeof(Out), fmt::format("tensor '{}' ({} values)", t.name, count));
  std::vector<Out> out(static_cast<std::size_t>(count));
  reader.read(first_element, std::span<Out>(out));
  return out;
}

}  // namespace

bool is_decodable(StDtype t) {
  switch (t) {
    case StDtype::kBool: case StDtype::kU8: case StDtype::kI8: case StDtype::kU16: case StDtype::kI16:
    case StDtype::kU32: case StDtype::kI32: case StDtype::kU64: case StDtype::kI64: case StDtype::kF16:
    case StDtype::kBF16: case StDtype::kF32: case StDtype::kF64: case StDtype::kF8E4M3: case StDtype::kF8E5M2:
      return true;
    default:
      return false;
  }
}

double f16_value(std::uint16_t bits) {
  const int e = (bits >> 10) & 31;
  const int m = bits & 1023;
  double v = 0;
  if (e == 0) {
    v = std::ldexp(m, -24);  // subnormal: m * 2^-10 * 2^-14
  } else if (e == 31) {
    v = m == 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  } else {
    v = std::ldexp(1024 + m, e - 25);  // (1 + m/1024) * 2^(e-15)
  }
  return (bits & 0x8000) ? -v : v;
}

double bf16_value(std::uint16_t bits) {
  return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16));
}

double f8_e4m3_value(std::uint8_t bits) {
  const int e = (bits >> 3) & 15;
  const int m = bits & 7;
  double v = 0;
  if (e == 15 && m == 7) {
    v = std::numeric_limits<double>::quiet_NaN();  // the FN variant: no infinities, S.1111.111 is NaN
  } else if (e == 0) {
    v = std::ldexp(m, -9);  // subnormal: m/8 * 2^(1-7)
  } else {
    v = std::ldexp(8 + m, e - 10);  // (1 + m/8) * 2^(e-7)
  }
  return (bits & 0x80) ? -v : v;
}

double f8_e5m2_value(std::uint8_t bits) {
  const int e = (bits >> 2) & 31;
  const int m = bits & 3;
  double v = 0;
  if (e == 31) {
    v = m == 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  } else if (e == 0) {
    v = std::ldexp(m, -16);  // subnormal: m/4 * 2^(1-15)
  } else {
    v = std::ldexp(4 + m, e - 17);  // (1 + m/4) * 2^(e-15)
  }
  return (bits & 0x80) ? -v : v;
}

double decode_element(StDtype t, const unsigned char* p) {
  switch (t) {
    case StDtype::kBool: return p[0] != 0 ? 1.0 : 0.0;
    case StDtype::kU8: return p[0];
    case StDtype::kI8: return static_cast<std::int8_t>(p[0]);
    case StDtype::kU16: return static_cast<double>(le_bits<std::uint16_t>(p));
    case StDtype::kI16: return static_cast<std::int16_t>(le_bits<std::uint16_t>(p));
    case StDtype::kU32: return static_cast<double>(le_bits<std::uint32_t>(p));
    case StDtype::kI32: return static_cast<std::int32_t>(le_bits<std::uint32_t>(p));
    case StDtype::kU64: return static_cast<double>(le_bits<std::uint64_t>(p));
    case StDtype::kI64: return static_cast<double>(static_cast<std::int64_t>(le_bits<std::uint64_t>(p)));
    case StDtype::kF16: return f16_value(static_cast<std::uint16_t>(le_bits<std::uint16_t>(p)));
    case StDtype::kBF16: return bf16_value(static_cast<std::uint16_t>(le_bits<std::uint16_t>(p)));
    case StDtype::kF32:
      return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(le_bits<std::uint32_t>(p))));
    case StDtype::kF64: return std::bit_cast<double>(le_bits<std::uint64_t>(p));
    case StDtype::kF8E4M3: return f8_e4m3_value(p[0]);
    case StDtype::kF8E5M2: return f8_e5m2_value(p[0]);
    default:
      throw Error(fmt::format("dtype {} is not read by posenc (it reads F64, F32, F16, BF16, F8_E4M3, F8_E5M2, the "
                              "integer types and BOOL)",
                              to_string(t)));
  }
}

void decode_elements(StDtype t, std::string_view bytes, std::span<double> out) { decode_into<double>(t, bytes, out); }
void decode_elements(StDtype t, std::string_view bytes, std::span<float> out) { decode_into<float>(t, bytes, out); }

std::vector<double> read_tensor(const StCheckpoint& c, const StTensor& t) {
  return read_values<double>(c, t, 0, t.elements);
}
std::vector<float> read_tensor_f32(const StCheckpoint& c, const StTensor& t) {
  return read_values<float>(c, t, 0, t.elements);
}


std::vector<double> tensor_from_bytes(const StFile& f, const StTensor& t, std::string_view bytes) {
  if (f.data_offset + t.end > bytes.size() || t.end < t.begin)
    st_detail::fail(f.path, f.data_offset + t.begin, fmt::format("tensor {}: its bytes are not in the file",
                                                                 st_detail::st_quoted(t.name)));
  check_memory(t.elements, sizeof(double), fmt::format("tensor '{}' ({} values)", t.name, t.elements));
  std::vector<double> out(static_cast<std::size_t>(t.elements));
  decode_elements(t.dtype, bytes.substr(f.data_offset + t.begin, t.bytes()), out);
  return out;
}

StFile read_safetensors_header(const std::string& path) {
  const StFd fd(path);
  char first[9];
  const auto got = static_cast<std::size_t>(std::min<std::uint64_t>(fd.size(), sizeof first));
  fd.read(0, first, got);
  const std::string_view head(first, got);
  if (head.size() >= 8 && !st_detail::looks_like_pytorch(head)) {
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(head[static_cast<std::size_t>(i)]);
    if (n <= kMaxSafetensorsHeader && n <= fd.size() - 8) {
      // Not zero-filled first: every byte is read over (a 1155-tensor header is ~150 KB).
      const auto size = static_cast<std::size_t>(8 + n);
      const auto whole = std::make_unique_for_overwrite<char[]>(size);
      fd.read(0, whole.get(), size);
      return parse_safetensors_header(std::string_view(whole.get(), size), fd.size(), path);
    }
  }
  return parse_safetensors_header(head, fd.size(), path);
}

}  // namespace posenc::formats
