// Reading q/k projection tensors as stored bytes and decoding them row by row (qk_weights.hpp).
#include "posenc/models/qk_weights.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cstring>

#include "posenc/error.hpp"
#include "posenc/formats/gguf.hpp"
#include "posenc/formats/gguf_tensors.hpp"
#include "posenc/formats/safetensors.hpp"
#include "posenc/memory.hpp"
#include "qk_files.hpp"

namespace posenc::models {
namespace {

/// A read-only mapping of a file range, unmapped with its last owner.
struct QkMapping {
  void* base = nullptr;
  std::size_t length = 0;
  QkMapping(const QkMapping&) = delete;
  QkMapping& operator=(const QkMapping&) = delete;
  QkMapping(void* b, std::size_t n) : base(b), length(n) {}
  ~QkMapping() { ::munmap(base, length); }
};

/// Reads [offset, offset + n) of an open file into a string with pread, in 64 MiB calls.
std::shared_ptr<const std::string> qk_pread_range(int fd, const std::string& path, std::uint64_t offset,
                                                  std::uint64_t n, const std::string& what) {
  auto out = std::make_shared<std::string>(static_cast<std::size_t>(n), '\0');
  std::uint64_t done = 0;
  while (done < n) {
    const std::size_t chunk = static_cast<std::size_t>(std::min<std::uint64_t>(n - done, std::uint64_t{64} << 20));
    const ssize_t got = ::pread(fd, out->data() + done, chunk, static_cast<off_t>(offset + done));
    if (got <= 0)
      throw Error(fmt::format("'{}': byte {}: {} cannot be read ({})", path, offset + done, what,
                              got == 0 ? "the file ends first" : std::strerror(errno)));
    done += static_cast<std::uint64_t>(got);
  }
  return out;
}

/// [offset, offset + n) of `path` as m.bytes: a read-only mapping of the pages (no copy; the
/// kernel reads ahead), or, where the file cannot be mapped, the bytes read with pread.
void qk_load_range(RawMatrix& m, const std::string& path, std::uint64_t offset, std::uint64_t n, const std::string& what) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error(fmt::format("'{}': cannot open ({})", path, std::strerror(errno)));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) == 0 && static_cast<std::uint64_t>(st.st_size) < offset + n)
    throw Error(fmt::format("'{}': byte {}: {} cannot be read (the file ends first)", path,
                            static_cast<std::uint64_t>(st.st_size), what));
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  const std::uint64_t start = offset / page * page, skip = offset - start;
  if (n > 0) {
    void* p = ::mmap(nullptr, static_cast<std::size_t>(n + skip), PROT_READ, MAP_PRIVATE, fd, static_cast<off_t>(start));
    if (p != MAP_FAILED) {
      ::madvise(p, static_cast<std::size_t>(n + skip), MADV_WILLNEED);
      auto map = std::make_shared<const QkMapping>(p, static_cast<std::size_t>(n + skip));
      m.bytes = std::string_view(static_cast<const char*>(p) + skip, static_cast<std::size_t>(n));
      m.owner = std::move(map);
      return;
    }
  }
  auto s = qk_pread_range(fd, path, offset, n, what);
  m.bytes = *s;
  m.owner = std::move(s);
}

}  // namespace

void RawMatrix::row(std::int64_t r, float* out) const {
  const auto n = static_cast<std::size_t>(cols);
  if (!values.empty()) {
    std::memcpy(out, values.data() + static_cast<std::size_t>(r) * n, n * sizeof(float));
    return;
  }
  const char* p = bytes.data() + static_cast<std::size_t>(r) * row_bytes;
  constexpr int kGgmlQ8_0 = 8;
  if (ggml_type == kGgmlQ8_0 && !big_endian && n % 32 == 0 && row_bytes == n / 32 * 34 &&
      qk_decode_q8_0(p, n / 32, out))  // the order check's common case, vectorised
    return;
  if (ggml_type >= 0) {
    formats::dequantize_ggml(static_cast<std::uint32_t>(ggml_type), std::string_view(p, row_bytes),
                             std::span<float>(out, n), big_endian);
    return;
  }
  const auto t = static_cast<formats::StDtype>(st_dtype);
  if (t == formats::StDtype::kBF16) {  // the common case, a shift (vectorised)
    for (std::size_t i = 0; i < n; ++i) {
      std::uint16_t b;
      std::memcpy(&b, p + 2 * i, 2);
      out[i] = std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16);
    }
  } else if (t == formats::StDtype::kF32) {
    std::memcpy(out, p, n * sizeof(float));
  } else {
    formats::decode_elements(t, std::string_view(p, row_bytes), std::span<float>(out, n));
  }
}

QkRowPtr RawMatrix::stored(std::int64_t r) const {
  const auto n = static_cast<std::size_t>(cols);
  if (!values.empty()) return {values.data() + static_cast<std::size_t>(r) * n, false};
  if constexpr (std::endian::native != std::endian::little) return {};
  const char* p = bytes.data() + static_cast<std::size_t>(r) * row_bytes;
  constexpr int kGgmlF32 = 0, kGgmlBf16 = 30;
  if (ggml_type >= 0) {
    if (big_endian) return {};
    if (ggml_type == kGgmlF32) return {p, false};
    if (ggml_type == kGgmlBf16) return {p, true};
    return {};
  }
  const auto t = static_cast<formats::StDtype>(st_dtype);
  if (t == formats::StDtype::kBF16) return {p, true};
  if (t == formats::StDtype::kF32) return {p, false};
  return {};
}

std::shared_ptr<const RawMatrix> read_raw_matrix(const QkFiles& f, const std::string& name) {
  auto m = std::make_shared<RawMatrix>();
  m->name = name;
  if (f.gguf) {
    const formats::GgufTensorInfo* t = f.gguf->tensor(name);
    if (!t) return nullptr;
    if (!formats::ggml_type_dequantised(t->type))
      throw Error(fmt::format("'{}': tensor '{}' has type {}, which posenc does not dequantise (it reads F32, F16, "
                              "BF16, Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q4_K, Q5_K, Q6_K, IQ4_NL, IQ4_XS, MXFP4)",
                              f.gguf->name, name, formats::ggml_type_name(t->type)));
    if (t->dims.empty() || t->dims.size() > 2)
      throw Error(fmt::format("'{}': tensor '{}' has {} dimensions (a projection has 1 or 2)", f.gguf->name, name,
                              t->dims.size()));
    m->cols = static_cast<std::int64_t>(t->dims[0]);
    m->rows = t->dims.size() == 2 ? static_cast<std::int64_t>(t->dims[1]) : 1;
    m->ggml_type = static_cast<int>(t->type);
    m->dtype = formats::ggml_type_name(t->type);
    m->big_endian = f.gguf->big_endian;
    const std::uint64_t at = f.gguf->data_offset + t->offset;
    if (m->rows == 0 || t->bytes % static_cast<std::uint64_t>(m->rows) != 0 || at + t->bytes > f.gguf->file_size ||
        at + t->bytes < at)
      throw Error(fmt::format("'{}': byte {}: tensor '{}' data ({} bytes) does not fit the file", f.gguf->name, at,
                              name, t->bytes));
    m->row_bytes = t->bytes / static_cast<std::uint64_t>(m->rows);
    check_memory(t->bytes, 1, fmt::format("tensor '{}' ({} bytes)", name, t->bytes));
    qk_load_range(*m, f.gguf->name, at, t->bytes, fmt::format("tensor '{}'", name));
    return m;
  }
  const formats::StTensor* t = f.st->find(name);
  if (!t) return nullptr;
  if (!formats::is_decodable(t->dtype) || t->shape.empty() || t->shape.size() > 2)
    throw Error(fmt::format("'{}': tensor '{}' ({} of {} dimensions) is not a projection posenc reads (F32, F16, BF16, "
                            "F8 of 1 or 2 dimensions)",
                            f.st->files[t->file].path, name, formats::to_string(t->dtype), t->shape.size()));
  m->cols = static_cast<std::int64_t>(t->shape.back());
  m->rows = t->shape.size() == 2 ? static_cast<std::int64_t>(t->shape[0]) : 1;
  m->st_dtype = static_cast<int>(t->dtype);
  m->dtype = std::string(formats::to_string(t->dtype));
  m->row_bytes = static_cast<std::uint64_t>(m->cols) * formats::dtype_bits(t->dtype) / 8;
  check_memory(t->bytes(), 1, fmt::format("tensor '{}' ({} bytes)", name, t->bytes()));
  const formats::StFile& file = f.st->files[t->file];
  qk_load_range(*m, file.path, file.data_offset + t->begin, t->bytes(), fmt::format("tensor '{}'", name));
  return m;
}

std::int64_t QkRows::stored_row(std::int64_t h, std::int64_t i, int j) const {
  const std::int64_t in_rot = interleaved ? 2 * i + j : j * (rotary / 2) + i;
  return first_row + h * head_stride + rope_offset + in_rot;
}

QkRowPtr QkRows::pair_row(std::int64_t h, std::int64_t i, int j, float* scratch) const {
  const std::int64_t row_at = stored_row(h, i, j);
  if (row_at < 0 || row_at >= m->rows)  // a geometry that does not fit the tensor: our bug or a bad file
    throw Error(fmt::format("tensor '{}' has {} rows; head {} pair {} needs row {} (head stride {}, rope offset {}, "
                            "rotary {})",
                            m->name, m->rows, h, i, row_at, head_stride, rope_offset, rotary));
  const QkRowPtr p = m->stored(row_at);
  if (p.p) return p;
  m->row(row_at, scratch);
  return {scratch, false};
}

float QkRows::pair_row_gain(std::int64_t h, std::int64_t i, int j) const {
  if (row_gain.empty()) return 1.0f;
  const auto at = static_cast<std::size_t>(stored_row(h, i, j) - first_row);
  return row_gain[at % row_gain.size()];
}

}  // namespace posenc::models
