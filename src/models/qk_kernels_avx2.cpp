// The AVX2+FMA q/k kernels: qk_kernels_core.hpp over __m256 (8 float lanes), every function of
// this file compiled for AVX2+FMA (the dispatcher in qk_kernels.cpp calls them only on CPUs that
// have both). Each block's lanes are added in double into a scalar.
#include "qk_kernels_internal.hpp"

#ifdef POSENC_QK_X86
#include <immintrin.h>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#pragma GCC push_options
#pragma GCC target("avx2,fma")
#include "qk_kernels_core.hpp"

namespace posenc::models {
namespace {

struct QkkAvx2 {
  static constexpr std::size_t W = 8;
  using F = __m256;
  using D = double;
  [[gnu::always_inline]] static F zero() { return _mm256_setzero_ps(); }
  [[gnu::always_inline]] static D dzero() { return 0; }
  template <bool kBf16>
  [[gnu::always_inline]] static F load(const void* p, std::size_t c) {
    if constexpr (kBf16) {
      const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(static_cast<const std::uint16_t*>(p) + c));
      return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
    } else {
      return _mm256_loadu_ps(static_cast<const float*>(p) + c);
    }
  }
  [[gnu::always_inline]] static F mul(F a, F b) { return _mm256_mul_ps(a, b); }
  [[gnu::always_inline]] static F sub(F a, F b) { return _mm256_sub_ps(a, b); }
  [[gnu::always_inline]] static F fma(F a, F b, F acc) { return _mm256_fmadd_ps(a, b, acc); }
  /// d + the 8 float lanes of f added in double.
  [[gnu::always_inline]] static D widen(D d, F f) {
    const __m256d s =
        _mm256_add_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(f)), _mm256_cvtps_pd(_mm256_extractf128_ps(f, 1)));
    const __m128d t = _mm_add_pd(_mm256_castpd256_pd128(s), _mm256_extractf128_pd(s, 1));
    return d + _mm_cvtsd_f64(_mm_add_sd(t, _mm_unpackhi_pd(t, t)));
  }
  [[gnu::always_inline]] static double reduce(D d) { return d; }
};

}  // namespace

namespace qk_detail {

QkPairSums pair_avx2(QkRowPtr a, QkRowPtr b, QkRowPtr x, QkRowPtr y, const float* gq, const float* gk,
                     std::size_t n) {
  return qkk_pair_rows<QkkAvx2>(a, b, x, y, gq, gk, n);
}

QkDots dots_avx2(const float* g, QkRowPtr h, std::size_t n) { return qkk_dots_rows<QkkAvx2>(g, h, n); }

}  // namespace qk_detail
}  // namespace posenc::models

#pragma GCC pop_options
#endif  // POSENC_QK_X86
