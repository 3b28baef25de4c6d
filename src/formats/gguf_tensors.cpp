// GGUF tensor data (see gguf_tensors.hpp): the rules a tensor must meet, reading its range in
// chunks (pread from the file, or a view of bytes in memory) and decoding each chunk into a small
// buffer that is appended to the result. Rules: ggml's src/gguf.cpp gguf_init_from_file_impl
// (ggml-org/ggml @ d99724f2b141fed9e1a9f402213506c081433465).
#include "posenc/formats/gguf_tensors.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>

#include "ggml_dequant.hpp"
#include "gguf_source.hpp"
#include "posenc/error.hpp"
#include "posenc/memory.hpp"

namespace posenc::formats {
namespace {

constexpr std::uint64_t kTensorReadBytes = std::uint64_t{1} << 20;  // one pread
constexpr std::size_t kTensorDecodeFloats = 16384;                  // 64 KiB: stays in L2 while appended

struct TensorLayout {
  std::uint64_t start = 0;     // absolute byte offset of the data
  std::uint64_t bytes = 0;
  std::uint64_t elements = 0;
  std::uint64_t block = 1, block_bytes = 4;
};

// The rules of a tensor info, checked again here (a GgufFile may be made by hand): the byte offset
// named is that of the tensor's info record, where the faulty number is, or of the data.
TensorLayout check_tensor_layout(const GgufFile& f, const GgufTensorInfo& t) {
  const auto fail = [&](std::uint64_t at, const std::string& what) {
    throw Error(fmt::format("{}: byte {}: tensor '{}' {}", f.name, at, t.name, what));
  };
  const std::uint64_t at = t.record_offset;
  const auto info = gguf_detail::ggml_type_info(t.type);
  if (info.block == 0) fail(at, fmt::format("has ggml type {}, which ggml does not define", t.type));
  if (!ggml_dequant::supported(t.type))
    fail(at, fmt::format("has type {}, which posenc does not dequantise (it reads F32, F16, BF16, Q8_0, Q4_0, Q4_1, "
                         "Q5_0, Q5_1, Q4_K, Q5_K, Q6_K, IQ4_NL, IQ4_XS and MXFP4)",
                         info.name));
  if (t.dims.size() > 4) fail(at, fmt::format("has {} dimensions (ggml allows at most 4)", t.dims.size()));
  TensorLayout l;
  l.block = info.block;
  l.block_bytes = info.size;
  l.elements = 1;
  bool zero = false, overflow = false;
  for (std::uint64_t ne : t.dims) {
    zero = zero || ne == 0;
    if (ne != 0 && l.elements > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) / ne) overflow = true;
    l.elements *= ne;
  }
  if (overflow && !zero) fail(at, "element count overflows int64");
  if (zero) l.elements = 0;
  const std::uint64_t ne0 = t.dims.empty() ? 1 : t.dims[0];
  if (ne0 % l.block != 0)
    fail(at, fmt::format("of type {}: ne[0] = {} is not a multiple of the block size {}", info.name, ne0, l.block));
  const std::uint64_t blocks = l.elements / l.block;
  if (blocks > std::numeric_limits<std::uint64_t>::max() / l.block_bytes) fail(at, "byte size overflows");
  l.bytes = blocks * l.block_bytes;
  const std::uint64_t size = f.file_size;
  if (f.data_offset > size || t.offset > size - f.data_offset || l.bytes > size - f.data_offset - t.offset)
    fail(at, fmt::format("data (bytes {} + {} + {}) runs past the end of the file ({} bytes)", f.data_offset, t.offset,
                         l.bytes, size));
  l.start = f.data_offset + t.offset;
  // Order: every tensor listed before this one ends at or before its offset (ggml requires the
  // data in the order of the infos, each one right after the previous, padded).
  std::uint64_t end = 0;
  const GgufTensorInfo* owner = nullptr;
  for (const auto& u : f.tensors) {
    if (&u == &t || (u.name == t.name && u.record_offset == t.record_offset)) break;
    const std::uint64_t u_end = u.bytes > std::numeric_limits<std::uint64_t>::max() - u.offset
                                    ? std::numeric_limits<std::uint64_t>::max() : u.offset + u.bytes;
    if (u.bytes != 0 && u_end > end) end = u_end, owner = &u;
  }
  if (owner != nullptr && t.offset < end) fail(at, gguf_detail::order_rule(t.offset, l.bytes, *owner));
  return l;
}

class TensorByteSource {
 public:
  virtual ~TensorByteSource() = default;
  // `n` bytes at absolute offset `offset` (within the file); valid until the next call.
  virtual const unsigned char* get(std::uint64_t offset, std::size_t n) = 0;
};

class TensorMemoryBytes : public TensorByteSource {
 public:
  explicit TensorMemoryBytes(std::string_view b) : b_(b) {}
  const unsigned char* get(std::uint64_t offset, std::size_t) override {
    return reinterpret_cast<const unsigned char*>(b_.data()) + offset;
  }

 private:
  std::string_view b_;
};

class TensorFileBytes : public TensorByteSource {
 public:
  TensorFileBytes(const GgufFile& f, const GgufTensorInfo& t) : f_(f), t_(t) {
    fd_ = ::open(f.name.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) fail(0, std::strerror(errno));
    struct stat st {};
    if (::fstat(fd_, &st) != 0) fail(0, std::strerror(errno));
    if (!S_ISREG(st.st_mode)) fail(0, "not a regular file");
    if (static_cast<std::uint64_t>(st.st_size) != f.file_size)
      fail(0, fmt::format("the file is now {} bytes, its header was read at {} bytes", st.st_size, f.file_size));
  }
  ~TensorFileBytes() override { ::close(fd_); }
  TensorFileBytes(const TensorFileBytes&) = delete;
  TensorFileBytes& operator=(const TensorFileBytes&) = delete;

  const unsigned char* get(std::uint64_t offset, std::size_t n) override {
    buf_.resize(std::max(buf_.size(), n));
    std::size_t done = 0;
    while (done < n) {
      const ssize_t got = ::pread(fd_, buf_.data() + done, n - done, static_cast<off_t>(offset + done));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) fail(offset + done, std::strerror(errno));
      if (got == 0) fail(offset + done, "the file shrank while it was read");
      done += static_cast<std::size_t>(got);
    }
    return buf_.data();
  }

 private:
  const GgufFile& f_;
  const GgufTensorInfo& t_;
  int fd_ = -1;
  std::vector<unsigned char> buf_;

  [[noreturn]] void fail(std::uint64_t at, const std::string& why) {
    if (fd_ >= 0) ::close(fd_), fd_ = -1;
    throw Error(fmt::format("{}: byte {}: tensor '{}': cannot read: {}", f_.name, at, t_.name, why));
  }
};

// A large result asks for transparent huge pages, as numpy does for arrays of 4 MiB and more
// (alloc.c, madvise(MADV_HUGEPAGE)): 512 times fewer page faults, which otherwise cost more than
// the decoding (a Q4_K tensor of 64 MiB makes 477 MB of floats). Only advice: errors are ignored.
void advise_huge_pages(const float* data, std::size_t count) {
#ifdef MADV_HUGEPAGE
  constexpr std::uintptr_t kHuge = std::uintptr_t{1} << 21;
  const std::size_t bytes = count * sizeof(float);
  if (bytes < (std::size_t{1} << 22)) return;
  const auto begin = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (begin + kHuge - 1) & ~(kHuge - 1), last = (begin + bytes) & ~(kHuge - 1);
  if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#else
  (void)data, (void)count;
#endif
}

GgufTensorData decode_tensor(const GgufFile& f, const GgufTensorInfo& t, TensorByteSource& src) {
  const TensorLayout l = check_tensor_layout(f, t);
  check_memory(l.elements, sizeof(float), fmt::format("{}: tensor '{}'", f.name, t.name));
  GgufTensorData out;
  out.dtype = ggml_type_name(t.type);
  for (auto it = t.dims.rbegin(); it != t.dims.rend(); ++it) out.shape.push_back(static_cast<std::size_t>(*it));
  out.values.reserve(static_cast<std::size_t>(l.elements));
  advise_huge_pages(out.values.data(), static_cast<std::size_t>(l.elements));
  const std::uint64_t blocks = l.elements / l.block;
  const std::uint64_t read_blocks = std::max<std::uint64_t>(1, kTensorReadBytes / l.block_bytes);
  const std::size_t decode_blocks = std::max<std::size_t>(1, kTensorDecodeFloats / static_cast<std::size_t>(l.block));
  std::vector<float> buf(decode_blocks * static_cast<std::size_t>(l.block));
  for (std::uint64_t b = 0; b < blocks; b += read_blocks) {
    const auto n = static_cast<std::size_t>(std::min(read_blocks, blocks - b));
    const unsigned char* p = src.get(l.start + b * l.block_bytes, n * static_cast<std::size_t>(l.block_bytes));
    for (std::size_t k = 0; k < n; k += decode_blocks) {
      const std::size_t m = std::min(decode_blocks, n - k);
      ggml_dequant::decode_blocks(t.type, p + k * l.block_bytes, m, buf.data(), f.big_endian);
      out.values.insert(out.values.end(), buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(m * l.block));
    }
  }
  return out;
}

}  // namespace

bool ggml_type_dequantised(std::uint32_t type) { return ggml_dequant::supported(type); }

GgufTensorData read_gguf_tensor(const GgufFile& f, const GgufTensorInfo& t) {
  check_tensor_layout(f, t);  // before opening the file: a refused tensor costs no read
  TensorFileBytes src(f, t);
  return decode_tensor(f, t, src);
}

GgufTensorData gguf_tensor_from_bytes(const GgufFile& f, const GgufTensorInfo& t, std::string_view bytes) {
  if (bytes.size() != f.file_size)
    throw Error(fmt::format("{}: tensor '{}': {} bytes given, the header was read from {}", f.name, t.name, bytes.size(),
                            f.file_size));
  TensorMemoryBytes src(bytes);
  return decode_tensor(f, t, src);
}

GgufTensorReader::GgufTensorReader(const GgufFile& f, const GgufTensorInfo& t)
    : file_(f.name), name_(t.name), type_(t.type), big_endian_(f.big_endian) {
  const TensorLayout l = check_tensor_layout(f, t);
  start_ = l.start, elements_ = l.elements, block_ = l.block, block_bytes_ = l.block_bytes;
  const auto fail = [&](const std::string& why) {
    if (fd_ >= 0) ::close(fd_);
    throw Error(fmt::format("{}: byte 0: tensor '{}': cannot read: {}", file_, name_, why));
  };
  fd_ = ::open(f.name.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) fail(std::strerror(errno));
  struct stat st {};
  if (::fstat(fd_, &st) != 0) fail(std::strerror(errno));
  if (!S_ISREG(st.st_mode)) fail("not a regular file");
  if (static_cast<std::uint64_t>(st.st_size) != f.file_size)
    fail(fmt::format("the file is now {} bytes, its header was read at {} bytes", st.st_size, f.file_size));
}

GgufTensorReader::~GgufTensorReader() { ::close(fd_); }

void GgufTensorReader::read(std::uint64_t first, std::span<float> out) const {
  if (first > elements_ || out.size() > elements_ - first)
    throw Error(fmt::format("{}: tensor '{}': elements {}+{} are not in its {}", file_, name_, first, out.size(),
                            elements_));
  if (out.empty()) return;
  // Whole blocks [b0, b1) cover the range; a block cut by either end is decoded aside.
  const std::uint64_t b0 = first / block_, b1 = (first + out.size() + block_ - 1) / block_;
  const std::uint64_t per_read = std::max<std::uint64_t>(1, kTensorReadBytes / block_bytes_);
  thread_local std::vector<unsigned char> bytes;
  thread_local std::vector<float> aside;
  std::size_t at = 0;  // values of `out` written
  for (std::uint64_t b = b0; b < b1; b += per_read) {
    const auto n = static_cast<std::size_t>(std::min(per_read, b1 - b));
    const std::size_t nbytes = n * static_cast<std::size_t>(block_bytes_);
    bytes.resize(std::max(bytes.size(), nbytes));
    const std::uint64_t offset = start_ + b * block_bytes_;
    for (std::size_t done = 0; done < nbytes;) {
      const ssize_t got = ::pread(fd_, bytes.data() + done, nbytes - done, static_cast<off_t>(offset + done));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0)
        throw Error(fmt::format("{}: byte {}: tensor '{}': cannot read: {}", file_, offset + done, name_,
                                got < 0 ? std::strerror(errno) : "the file shrank while it was read"));
      done += static_cast<std::size_t>(got);
    }
    const std::uint64_t from = std::max(first, b * block_), to = std::min(first + out.size(), (b + n) * block_);
    if (from == b * block_ && to == (b + n) * block_) {
      ggml_dequant::decode_blocks(type_, bytes.data(), n, out.data() + at, big_endian_);
    } else {
      aside.resize(std::max(aside.size(), n * static_cast<std::size_t>(block_)));
      ggml_dequant::decode_blocks(type_, bytes.data(), n, aside.data(), big_endian_);
      std::copy(aside.begin() + static_cast<std::ptrdiff_t>(from - b * block_),
                aside.begin() + static_cast<std::ptrdiff_t>(to - b * block_), out.begin() + static_cast<std::ptrdiff_t>(at));
    }
    at += static_cast<std::size_t>(to - from);
  }
}

void dequantize_ggml(std::uint32_t type, std::string_view blocks, std::span<float> out, bool big_endian) {
  const auto info = gguf_detail::ggml_type_info(type);
  if (info.block == 0 || !ggml_dequant::supported(type))
    throw Error(fmt::format("ggml type {} is not dequantised by posenc", ggml_type_name(type)));
  if (blocks.size() % info.size != 0 || blocks.size() / info.size * info.block != out.size())
    throw Error(fmt::format("{} data of {} bytes does not make {} values (blocks of {} values in {} bytes)", info.name,
                            blocks.size(), out.size(), info.block, info.size));
  ggml_dequant::decode_blocks(type, reinterpret_cast<const unsigned char*>(blocks.data()),
                              static_cast<std::size_t>(blocks.size() / info.size), out.data(), big_endian);
}

}  // namespace posenc::formats
