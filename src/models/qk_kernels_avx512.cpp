// The AVX-512 q/k kernels: qk_kernels_core.hpp over __m512 (16 float lanes, each block widened
// into 8 double lanes), and the Q8_0 rows decoded in registers; every function of this file is
// compiled for AVX-512 F/BW/DQ/VL + FMA + F16C (the dispatcher in qk_kernels.cpp calls them only
// on CPUs that have all of them).
#include "qk_kernels_internal.hpp"

#ifdef POSENC_QK_X86
#include <immintrin.h>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

// GCC 12's AVX-512 intrinsics start from _mm512_undefined_*(), which -Wuninitialized and
// -Wmaybe-uninitialized report at every inlined use (the header's false positive).
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512dq,avx512vl,fma,f16c")
#include "qk_kernels_core.hpp"

namespace posenc::models {
namespace {

struct QkkAvx512 {
  static constexpr std::size_t W = 16;
  using F = __m512;
  using D = __m512d;
  [[gnu::always_inline]] static F zero() { return _mm512_setzero_ps(); }
  [[gnu::always_inline]] static D dzero() { return _mm512_setzero_pd(); }
  template <bool kBf16>
  [[gnu::always_inline]] static F load(const void* p, std::size_t c) {
    if constexpr (kBf16) {
      const __m256i h = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(static_cast<const std::uint16_t*>(p) + c));
      return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
    } else {
      return _mm512_loadu_ps(static_cast<const float*>(p) + c);
    }
  }
  /// Columns c..c+15 of a Q8_0 row: d·q, exact in float32 (the same values as the decoded row).
  [[gnu::always_inline]] static F load_q8_0(const void* g, std::size_t c) {
    const unsigned char* b = static_cast<const unsigned char*>(g) + c / 32 * 34;
    std::uint16_t bits;
    std::memcpy(&bits, b, 2);
    const __m128i q = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + 2 + c % 32));
    return _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(q)), _mm512_set1_ps(_cvtsh_ss(bits)));
  }
  [[gnu::always_inline]] static F mul(F a, F b) { return _mm512_mul_ps(a, b); }
  [[gnu::always_inline]] static F sub(F a, F b) { return _mm512_sub_ps(a, b); }
  [[gnu::always_inline]] static F fma(F a, F b, F acc) { return _mm512_fmadd_ps(a, b, acc); }
  /// d + the 16 float lanes of f, in double (8 lanes).
  [[gnu::always_inline]] static D widen(D d, F f) {
    const __m512d lo = _mm512_cvtps_pd(_mm512_castps512_ps256(f));
    const __m512d hi = _mm512_cvtps_pd(_mm512_extractf32x8_ps(f, 1));
    return _mm512_add_pd(d, _mm512_add_pd(lo, hi));
  }
  [[gnu::always_inline]] static double reduce(D d) { return _mm512_reduce_add_pd(d); }
};

}  // namespace

namespace qk_detail {

QkPairSums pair_avx512(QkRowPtr a, QkRowPtr b, QkRowPtr x, QkRowPtr y, const float* gq, const float* gk,
                       std::size_t n) {
  return qkk_pair_rows<QkkAvx512>(a, b, x, y, gq, gk, n);
}

QkDots dots_avx512(const float* g, QkRowPtr h, std::size_t n) { return qkk_dots_rows<QkkAvx512>(g, h, n); }

QkMultiDots multi_avx512(const float* g, const QkRowPtr* h, std::size_t m, std::size_t n, int close) {
  return qkk_multi_rows<QkkAvx512>(g, h, m, n, close);
}

QkMultiDots multi_q8_0_avx512(const void* g, const QkRowPtr* h, std::size_t m, std::size_t n, int close,
                              bool with_hh) {
  return with_hh ? qkk_multi_rows<QkkAvx512, true, true>(g, h, m, n, close)
                 : qkk_multi_rows<QkkAvx512, true, false>(g, h, m, n, close);
}

double sumsq_avx512(QkRowPtr h, std::size_t n) {
  return h.bf16 ? qkk_sumsq<QkkAvx512, true>(h, n) : qkk_sumsq<QkkAvx512, false>(h, n);
}

void decode_q8_0_avx512(const unsigned char* p, std::size_t blocks, float* out) {
  for (std::size_t b = 0; b < blocks; ++b, p += 34, out += 32) {
    std::uint16_t bits;
    std::memcpy(&bits, p, 2);
    const __m512 d = _mm512_set1_ps(_cvtsh_ss(bits));
    const __m256i q = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 2));
    const __m512 lo = _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm256_castsi256_si128(q)));
    const __m512 hi = _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm256_extracti128_si256(q, 1)));
    _mm512_storeu_ps(out, _mm512_mul_ps(lo, d));
    _mm512_storeu_ps(out + 16, _mm512_mul_ps(hi, d));
  }
}

}  // namespace qk_detail
}  // namespace posenc::models

#pragma GCC pop_options
#endif  // POSENC_QK_X86
