// safetensors: one tensor's elements read on demand by ranges (pread of just their bytes, from
// any thread), and the bulk float32 decoding of F16, BF16 and F32 (see safetensors.hpp).
#include <fcntl.h>
#include "posenc/cpu.hpp"
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "posenc/error.hpp"
#include "posenc/formats/safetensors.hpp"
#include "posenc/table.hpp"
#include "safetensors_internal.hpp"

namespace posenc::formats {

namespace {

constexpr std::size_t kStRangeChunk = std::size_t{1} << 18;  // bytes per pread: stays in L2 while decoded

// binary16 bits to the float32 bits of the same value, branch-free so that the loop vectorises:
// a normal number moves its exponent from bias 15 to 127; a subnormal m * 2^-24 is computed
// exactly as (2^-14 + m * 2^-24) - 2^-14 in float32; ±inf stays infinite; a NaN becomes the
// quiet NaN of its sign (what f16_value's double gives when rounded to float32).
inline std::uint32_t st_half_bits(std::uint16_t h) {
  const auto em = static_cast<std::int32_t>(h & 0x7fffu);
  const auto shifted = static_cast<std::uint32_t>(em) << 13;
  const std::uint32_t normal = shifted + 0x38000000u;  // (127 - 15) << 23
  const std::uint32_t sub = std::bit_cast<std::uint32_t>(std::bit_cast<float>(shifted + 0x38800000u) - 0x1p-14f);
  const std::uint32_t special = em == 0x7c00 ? 0x7f800000u : 0x7fc00000u;
  const std::uint32_t bits = em < 0x400 ? sub : em < 0x7c00 ? normal : special;
  return bits | (static_cast<std::uint32_t>(h & 0x8000u) << 16);
}

// float32 bits as the float64 round trip leaves them: a signalling NaN is made quiet.
inline std::uint32_t st_quiet(std::uint32_t bits) {
  return (bits & 0x7fffffffu) > 0x7f800000u ? bits | 0x00400000u : bits;
}

#if defined(__SSE2__)
// Eight binary16 (or bfloat16) values at a time with SSE2 (every x86-64): the same bits as
// st_half_bits / st_quiet, which g++ does not vectorise (it keeps their selects as branches).
inline __m128i st_half8_bits(__m128i v) {
  const __m128i em = _mm_and_si128(v, _mm_set1_epi32(0x7fff));
  const __m128i shifted = _mm_slli_epi32(em, 13);
  const __m128i normal = _mm_add_epi32(shifted, _mm_set1_epi32(0x38000000));
  const __m128i sub = _mm_castps_si128(
      _mm_sub_ps(_mm_castsi128_ps(_mm_add_epi32(shifted, _mm_set1_epi32(0x38800000))), _mm_set1_ps(0x1p-14f)));
  const __m128i is_sub = _mm_cmplt_epi32(em, _mm_set1_epi32(0x400));
  const __m128i is_inf = _mm_cmpeq_epi32(em, _mm_set1_epi32(0x7c00));
  const __m128i is_nan = _mm_cmpgt_epi32(em, _mm_set1_epi32(0x7c00));
  __m128i bits = _mm_or_si128(_mm_and_si128(is_sub, sub), _mm_andnot_si128(is_sub, normal));
  bits = _mm_or_si128(_mm_andnot_si128(is_inf, bits), _mm_and_si128(is_inf, _mm_set1_epi32(0x7f800000)));
  bits = _mm_or_si128(_mm_andnot_si128(is_nan, bits), _mm_and_si128(is_nan, _mm_set1_epi32(0x7fc00000)));
  return _mm_or_si128(bits, _mm_slli_epi32(_mm_and_si128(v, _mm_set1_epi32(0x8000)), 16));
}

inline __m128i st_quiet4(__m128i bits) {
  const __m128i is_nan = _mm_cmpgt_epi32(_mm_and_si128(bits, _mm_set1_epi32(0x7fffffff)), _mm_set1_epi32(0x7f800000));
  return _mm_or_si128(bits, _mm_and_si128(is_nan, _mm_set1_epi32(0x00400000)));
}

/// Elements [0, n - n % 8) of F16 / BF16 / F32 at p into out; returns how many were done.
std::size_t st_decode_sse2(StDtype t, const unsigned char* p, std::size_t n, float* out) {
  const std::size_t whole = n - n % 8;
  const __m128i zero = _mm_setzero_si128();
  auto* o = reinterpret_cast<__m128i*>(out);
  for (std::size_t i = 0; i < whole; i += 8) {
    if (t == StDtype::kF32) {
      _mm_storeu_si128(o + i / 4, st_quiet4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 4 * i))));
      _mm_storeu_si128(o + i / 4 + 1, st_quiet4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 4 * i + 16))));
      continue;
    }
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 2 * i));
    if (t == StDtype::kF16) {
      _mm_storeu_si128(o + i / 4, st_half8_bits(_mm_unpacklo_epi16(h, zero)));
      _mm_storeu_si128(o + i / 4 + 1, st_half8_bits(_mm_unpackhi_epi16(h, zero)));
    } else {  // BF16: the high half of a float32
      _mm_storeu_si128(o + i / 4, st_quiet4(_mm_unpacklo_epi16(zero, h)));
      _mm_storeu_si128(o + i / 4 + 1, st_quiet4(_mm_unpackhi_epi16(zero, h)));
    }
  }
  return whole;
}
#endif

#if defined(__x86_64__) && defined(__GNUC__)
#define POSENC_ST_F16C __attribute__((target("avx2,f16c")))
// Eight binary16 values per vcvtph2ps (exact for every number, as the SSE2 path), then a NaN
// made the quiet NaN of its sign as st_half_bits makes it; CPUs with F16C and AVX2 only.
POSENC_ST_F16C std::size_t st_decode_f16c(const unsigned char* p, std::size_t n, float* out) {
  const std::size_t whole = n - n % 8;
  const __m256i em_mask = _mm256_set1_epi32(0x7fff), inf = _mm256_set1_epi32(0x7c00);
  const __m256i sign_mask = _mm256_set1_epi32(static_cast<int>(0x80000000u)), qnan = _mm256_set1_epi32(0x7fc00000);
  for (std::size_t i = 0; i < whole; i += 8) {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 2 * i));
    const __m256i f = _mm256_castps_si256(_mm256_cvtph_ps(h));
    const __m256i em = _mm256_and_si256(_mm256_cvtepu16_epi32(h), em_mask);
    const __m256i is_nan = _mm256_cmpgt_epi32(em, inf);
    const __m256i nan = _mm256_or_si256(qnan, _mm256_and_si256(f, sign_mask));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), _mm256_blendv_epi8(f, nan, is_nan));
  }
  return whole;
}

bool st_have_f16c() {
  static const bool has = cpu::has(cpu::Feature::kAvx2) && cpu::has(cpu::Feature::kF16c);
  return has;
}
#endif

}  // namespace

namespace st_detail {

void decode_f32(StDtype t, const unsigned char* p, std::size_t n, float* out) {
  if constexpr (std::endian::native == std::endian::little) {
    if (t == StDtype::kF16 || t == StDtype::kBF16 || t == StDtype::kF32) {
      std::size_t i = 0;
#if defined(__x86_64__) && defined(__GNUC__)
      if (t == StDtype::kF16 && st_have_f16c()) i = st_decode_f16c(p, n, out);
#endif
#if defined(__SSE2__)
      if (i == 0) i = st_decode_sse2(t, p, n, out);
#endif
      const std::size_t size = t == StDtype::kF32 ? 4 : 2;
      for (; i < n; ++i) {
        std::uint32_t b = 0;
        std::memcpy(&b, p + size * i, size);
        out[i] = std::bit_cast<float>(t == StDtype::kF16 ? st_half_bits(static_cast<std::uint16_t>(b))
                                      : t == StDtype::kBF16 ? st_quiet(b << 16) : st_quiet(b));
      }
      return;
    }
  }
  const std::size_t size = dtype_bits(t) / 8;
  for (std::size_t i = 0; i < n; ++i) out[i] = to_f32(decode_element(t, p + i * size));
}

}  // namespace st_detail

StTensorReader::StTensorReader(const StCheckpoint& c, const StTensor& t) : t_(t) {
  const StFile& f = c.files.at(t.file);
  path_ = f.path;
  base_ = f.data_offset + t.begin;
  if (!is_decodable(t.dtype))
    st_detail::fail(f.path, base_,
                    fmt::format("tensor {}: dtype {} is not read by posenc (it reads F64, F32, F16, BF16, F8_E4M3, "
                                "F8_E5M2, the integer types and BOOL)",
                                st_detail::st_quoted(t.name), to_string(t.dtype)));
  fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw Error(fmt::format("'{}': cannot read: {}", path_, std::strerror(errno)));
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd_);
    throw Error(fmt::format("'{}': cannot read: not a regular file (a safetensors file is read by offsets)", path_));
  }
  if (static_cast<std::uint64_t>(st.st_size) != f.file_size) {
    ::close(fd_);
    st_detail::fail(path_, 0, fmt::format("the file changed since its header was read ({} bytes, now {})", f.file_size,
                                          st.st_size));
  }
}

StTensorReader::~StTensorReader() { ::close(fd_); }

template <class Out>
void StTensorReader::read_into(std::uint64_t first, std::span<Out> out) const {
  const std::uint64_t count = out.size();
  if (first > t_.elements || count > t_.elements - first)
    throw Error(fmt::format("tensor '{}': elements {}+{} are not in its {}", t_.name, first, count, t_.elements));
  const std::size_t size = dtype_bits(t_.dtype) / 8;
  const std::size_t per_chunk = kStRangeChunk / size;
  thread_local std::vector<unsigned char> buf;
  buf.resize(std::max(buf.size(), std::min<std::size_t>(out.size(), per_chunk) * size));
  for (std::size_t done = 0; done < out.size(); done += per_chunk) {
    const std::size_t n = std::min(per_chunk, out.size() - done);
    const std::uint64_t at = base_ + (first + done) * size;
    for (std::size_t got_total = 0; got_total < n * size;) {
      const ssize_t got = ::pread(fd_, buf.data() + got_total, n * size - got_total,
                                  static_cast<off_t>(at + got_total));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0)
        throw Error(fmt::format("'{}': byte {}: cannot read {} bytes: {}", path_, at + got_total, n * size - got_total,
                                got < 0 ? std::strerror(errno) : "the file shrank while it was read"));
      got_total += static_cast<std::size_t>(got);
    }
    if constexpr (std::is_same_v<Out, float>) {
      st_detail::decode_f32(t_.dtype, buf.data(), n, out.data() + done);
    } else {
      for (std::size_t i = 0; i < n; ++i) out[done + i] = decode_element(t_.dtype, buf.data() + i * size);
    }
  }
}

void StTensorReader::read(std::uint64_t first, std::span<float> out) const { read_into(first, out); }
void StTensorReader::read(std::uint64_t first, std::span<double> out) const { read_into(first, out); }

}  // namespace posenc::formats
