// The q/k dot-product kernels (qk_kernels.hpp): AVX-512, AVX2+FMA and portable, chosen at run time.
// Each sums in float32 lanes in blocks of kQkkBlock terms per lane, then adds the lanes in double,
// so the error bound of the header holds for every kernel and any row length.
#include "posenc/models/qk_kernels.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#include <immintrin.h>
#define POSENC_QK_X86 1
// GCC 12's AVX-512 intrinsics start from _mm512_undefined_*(), which -Wuninitialized and
// -Wmaybe-uninitialized report at every inlined use (the header's false positive).
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace posenc::models {
namespace {

constexpr std::size_t kQkkBlock = 16;  // float32 terms per lane before the lanes go to double

template <bool kBf16>
inline float qkk_at(const void* p, std::size_t c) {
  if constexpr (kBf16) {
    std::uint16_t b;
    std::memcpy(&b, static_cast<const char*>(p) + 2 * c, 2);
    return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16);
  } else {
    float f;
    std::memcpy(&f, static_cast<const char*>(p) + 4 * c, 4);
    return f;
  }
}

/// Columns [c, n) one at a time in double (the part shorter than one vector), gains in float.
template <bool kQ, bool kK>
void qkk_pair_tail(QkRowPtr a, QkRowPtr b, QkRowPtr x, QkRowPtr y, const float* gq, const float* gk, std::size_t c,
                   std::size_t n, double* sum) {
  for (; c < n; ++c) {
    const double qa = qkk_at<kQ>(a.p, c) * gq[c], qb = qkk_at<kQ>(b.p, c) * gq[c];
    const double ka = qkk_at<kK>(x.p, c) * gk[c], kb = qkk_at<kK>(y.p, c) * gk[c];
    const double v[10] = {qa * qa, qb * qb, qa * qb, ka * ka, kb * kb, ka * kb, qa * ka, qa * kb, qb * ka, qb * kb};
    for (std::size_t j = 0; j < 10; ++j) sum[j] += v[j];
  }
}

QkPairSums qkk_result(const double* s) { return {s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9]}; }

template <bool kQ, bool kK>
QkPairSums qkk_pair_portable(QkRowPtr a, QkRowPtr b, QkRowPtr x, QkRowPtr y, const float* gq, const float* gk,
                             std::size_t n) {
  constexpr std::size_t W = 8;
  double sum[10] = {};
  std::size_t c = 0;
  while (c + W <= n) {
    float acc[10][W] = {};
    const std::size_t end = std::min(c + kQkkBlock * W, n / W * W);
    for (; c < end; c += W)
      for (std::size_t k = 0; k < W; ++k) {
        const float qa = qkk_at<kQ>(a.p, c + k) * gq[c + k], qb = qkk_at<kQ>(b.p, c + k) * gq[c + k];
        const float ka = qkk_at<kK>(x.p, c + k) * gk[c + k], kb = qkk_at<kK>(y.p, c + k) * gk[c + k];
        acc[0][k] += qa * qa;
        acc[1][k] += qb * qb;
        acc[2][k] += qa * qb;
        acc[3][k] += ka * ka;
        acc[4][k] += kb * kb;
        acc[5][k] += ka * kb;
        acc[6][k] += qa * ka;
        acc[7][k] += qa * kb;
        acc[8][k] += qb * ka;
        acc[9][k] += qb * kb;
      }
    for (std::size_t j = 0; j < 10; ++j)
      for (std::size_t k = 0; k < W; ++k) sum[j] += static_cast<double>(acc[j][k]);
  }
  qkk_pair_tail<kQ, kK>(a, b, x, y, gq, gk, c, n, sum);
  return qkk_result(sum);
}

template <bool kH>
QkDots qkk_dots_portable(const float* g, QkRowPtr h, std::size_t n) {
  constexpr std::size_t W = 8;
  double gh = 0, gg = 0, hh = 0, dd = 0;
  std::size_t c = 0;
  while (c + W <= n) {
    float agh[W] = {}, agg[W] = {}, ahh[W] = {}, add[W] = {};
    const std::size_t end = std::min(c + kQkkBlock * W, n / W * W);
    for (; c < end; c += W)
      for (std::size_t k = 0; k < W; ++k) {
        const float u = g[c + k], v = qkk_at<kH>(h.p, c + k);
        const float e = u - v;
        agh[k] += u * v;
        agg[k] += u * u;
        ahh[k] += v * v;
        add[k] += e * e;
      }
    for (std::size_t k = 0; k < W; ++k) gh += agh[k], gg += agg[k], hh += ahh[k], dd += add[k];
  }
  for (; c < n; ++c) {
    const double u = g[c], v = qkk_at<kH>(h.p, c);
    gh += u * v, gg += u * u, hh += v * v, dd += (u - v) * (u - v);
  }
  return {gh, gg, hh, dd};
}

template <bool kH, std::size_t M, bool kHh = true>
QkMultiDots qkk_multi_portable(const float* g, const QkRowPtr* h, std::size_t n, int close) {
  constexpr std::size_t W = 8;
  QkMultiDots out;
  const auto cl = static_cast<std::size_t>(close);  // ≥ M when none
  std::size_t c = 0;
  while (c + W <= n) {
    float agg[W] = {}, add[W] = {}, agh[M][W] = {}, ahh[M][W] = {};
    const std::size_t end = std::min(c + kQkkBlock * W, n / W * W);
    for (; c < end; c += W)
      for (std::size_t k = 0; k < W; ++k) {
        const float u = g[c + k];
        agg[k] += u * u;
        for (std::size_t j = 0; j < M; ++j) {
          const float v = qkk_at<kH>(h[j].p, c + k);
          agh[j][k] += u * v;
          if constexpr (kHh) ahh[j][k] += v * v;
          if (j == cl) add[k] += (u - v) * (u - v);
        }
      }
    for (std::size_t k = 0; k < W; ++k) {
      out.gg += agg[k], out.dd += add[k];
      for (std::size_t j = 0; j < M; ++j) out.gh[j] += agh[j][k], out.hh[j] += ahh[j][k];
    }
  }
  for (; c < n; ++c) {
    const double u = g[c];
    out.gg += u * u;
    for (std::size_t j = 0; j < M; ++j) {
      const double v = qkk_at<kH>(h[j].p, c);
      out.gh[j] += u * v;
      if constexpr (kHh) out.hh[j] += v * v;
      if (j == cl) out.dd += (u - v) * (u - v);
    }
  }
  return out;
}

double qkk_sumsq_portable(QkRowPtr h, std::size_t n) {
  constexpr std::size_t W = 8;
  double s = 0;
  std::size_t c = 0;
  while (c + W <= n) {
    float a[W] = {};
    const std::size_t end = std::min(c + kQkkBlock * W, n / W * W);
    for (; c < end; c += W)
      for (std::size_t k = 0; k < W; ++k) {
        const float v = qkk_at<true>(h.p, c + k);
        a[k] += v * v;
      }
    for (const float x : a) s += x;
  }
  for (; c < n; ++c) {
    const double v = qkk_at<true>(h.p, c);
    s += v * v;
  }
  return s;
}

#ifdef POSENC_QK_X86

#define POSENC_QK_AVX512 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,fma,f16c")))
#define POSENC_QK_AVX2 __attribute__((target("avx2,fma")))

template <bool kBf16>
POSENC_QK_AVX512 inline __m512 qkk_load16(const void* p, std::size_t c) {
  if constexpr (kBf16) {
    const __m256i h = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(static_cast<const std::uint16_t*>(p) + c));
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
  } else {
    return _mm512_loadu_ps(static_cast<const float*>(p) + c);
  }
}

/// d + the 16 float lanes of f, in double (8 lanes).
POSENC_QK_AVX512 inline __m512d qkk_widen16(__m512d d, __m512 f) {
  const __m512d lo = _mm512_cvtps_pd(_mm512_castps512_ps256(f));
  const __m512d hi = _mm512_cvtps_pd(_mm512_extractf32x8_ps(f, 1));
  return _mm512_add_pd(d, _mm512_add_pd(lo, hi));
}

template <bool kQ, bool kK>
POSENC_QK_AVX512 QkPairSums qkk_pair_avx512(QkRowPtr a, QkRowPtr b, QkRowPtr x, QkRowPtr y, const float* gq,
                                            const float* gk, std::size_t n) {
  constexpr std::size_t W = 16;
  __m512d d[10];
  for (auto& v : d) v = _mm512_setzero_pd();
  std::size_t c = 0;
  while (c + W <= n) {
    __m512 f[10];
    for (auto& v : f) v = _mm512_setzero_ps();
    const std::size_t end = std::min(c + kQkkBlock * W, n / W * W);
    for (; c < end; c += W) {
      const __m512 g = _mm512_loadu_ps(gq + c), h = _mm512_loadu_ps(gk + c);
      const __m512 qa = _mm512_mul_ps(qkk_load16<kQ>(a.p, c), g), qb = _mm512_mul_ps(qkk_load16<kQ>(b.p, c), g);
      const __m512 ka = _mm512_mul_ps(qkk_load16<kK>(x.p, c), h), kb = _mm512_mul_ps(qkk_load16<kK>(y.p, c), h);
      f[0] = _mm512_fmadd_ps(qa, qa, f[0]);
      f[1] = _mm512_fmadd_ps(qb, qb, f[1]);
      f[2] = _mm512_fmadd_ps(qa, qb, f[2]);
      f[3] = _mm512_fmadd_ps(ka, ka, f[3]);
      f[4] = _mm512_fmadd_ps(kb, kb, f[4]);
      f[5] = _mm512_fmadd_ps(ka, kb, f[5]);
      f[6] = _mm512_fmadd_ps(qa, ka, f[6]);
      f[7] = _mm512_fmadd_ps(qa, kb, f[7]);
      f[8] = _mm512_fmadd_ps(qb, ka, f[8]);
      f[9] = _mm512_fmadd_ps(qb, kb, f[9]);
    }
    for (std::size_t j = 0; j < 10; ++j) d[j] = qkk_widen16(d[j], f[j]);
  }
  double sum[10];
  for (std::size_t j = 0; j < 10; ++j) sum[j] = _mm512_reduce_add_pd(d[j]);
  qkk_pair_tail<kQ, kK>(a, b, x, y, gq, gk, c, n, sum);
  return qkk_result(sum);
}

template <bool kH>
POSENC_QK_AVX512 QkDots qkk_dots_avx512(const float* g, QkRowPtr h, std::size_t n) {
  constexpr std::size_t W = 16;
  __m512d dgh = _mm512_setzero_pd(), dgg = dgh, dhh = dgh, ddd = dgh;
  std::size_t c = 0;
  while (c + W <= n) {
    __m512 fgh = _mm512_setzero_ps(), fgg = fgh, fhh = fgh, fdd = fgh;
    const std::size_t end = std::min(c + kQkkBlock * W, n / W * W);
    for (; c < end; c += W) {
      const __m512 u = _mm512_loadu_ps(g + c), v = qkk_load16<kH>(h.p, c), e = _mm512_sub_ps(u, v);
      fgh = _mm512_fmadd_ps(u, v, fgh);
      fgg = _mm512_fmadd_ps(u, u, fgg);
      fhh = _mm512_fmadd_ps(v, v, fhh);
      fdd = _mm512_fmadd_ps(e, e, fdd);
    }
    dgh = qkk_widen16(dgh, fgh);
    dgg = qkk_widen16(dgg, fgg);
    dhh = qkk_widen16(dhh, fhh);
    ddd = qkk_widen16(ddd, fdd);
  }
  double gh = _mm512_reduce_add_pd(dgh), gg = _mm512_reduce_add_pd(dgg), hh = _mm512_reduce_add_pd(dhh),
         dd = _mm512_reduce_add_pd(ddd);
  for (; c < n; ++c) {
    const double u = g[c], v = qkk_at<kH>(h.p, c);
    gh += u * v, gg += u * u, hh += v * v, dd += (u - v) * (u - v);
  }
  return {gh, gg, hh, dd};
}

/// Columns c..c+15 of a float32 row, or of a Q8_0 row (d·q, exact in float32: the same values
/// as the decoded row).
template <bool kQ8>
POSENC_QK_AVX512 inline __m512 qkk_g16(const void* g, std::size_t c) {
  if constexpr (kQ8) {
    const unsigned char* b = static_cast<const unsigned char*>(g) + c / 32 * 34;
    std::uint16_t bits;
    std::memcpy(&bits, b, 2);
    const __m128i q = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + 2 + c % 32));
    return _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(q)), _mm512_set1_ps(_cvtsh_ss(bits)));
  } else {
    return _mm512_loadu_ps(static_cast<const float*>(g) + c);
  }
}

template <bool kH, std::size_t M, bool kQ8 = false, bool kHh = true>
POSENC_QK_AVX512 QkMultiDots qkk_multi_avx512(const void* gp, const QkRowPtr* h, std::size_t n, int close) {
  const float* g = static_cast<const float*>(gp);  // the tail's (not used for Q8_0: n % 32 = 0)
  constexpr std::size_t W = 16;
  const auto cl = static_cast<std::size_t>(close);  // ≥ M when none
  __m512d dgg = _mm512_setzero_pd(), ddd = dgg, dgh[M], dhh[M];
  for (std::size_t j = 0; j < M; ++j) dgh[j] = dhh[j] = _mm512_setzero_pd();
  std::size_t c = 0;
  while (c + W <= n) {
    __m512 fgg = _mm512_setzero_ps(), fdd = fgg, fgh[M], fhh[M];
    for (std::size_t j = 0; j < M; ++j) fgh[j] = fhh[j] = _mm512_setzero_ps();
    const std::size_t end = std::min(c + kQkkBlock * W, n / W * W);
    for (; c < end; c += W) {
      const __m512 u = qkk_g16<kQ8>(gp, c);
      fgg = _mm512_fmadd_ps(u, u, fgg);
      for (std::size_t j = 0; j < M; ++j) {
        const __m512 v = qkk_load16<kH>(h[j].p, c);
        fgh[j] = _mm512_fmadd_ps(u, v, fgh[j]);
        if constexpr (kHh) fhh[j] = _mm512_fmadd_ps(v, v, fhh[j]);
        if (j == cl) {
          const __m512 e = _mm512_sub_ps(u, v);
          fdd = _mm512_fmadd_ps(e, e, fdd);
        }
      }
    }
    dgg = qkk_widen16(dgg, fgg);
    ddd = qkk_widen16(ddd, fdd);
    for (std::size_t j = 0; j < M; ++j) dgh[j] = qkk_widen16(dgh[j], fgh[j]), dhh[j] = qkk_widen16(dhh[j], fhh[j]);
  }
  QkMultiDots out;
  out.gg = _mm512_reduce_add_pd(dgg);
  out.dd = _mm512_reduce_add_pd(ddd);
  for (std::size_t j = 0; j < M; ++j) out.gh[j] = _mm512_reduce_add_pd(dgh[j]), out.hh[j] = _mm512_reduce_add_pd(dhh[j]);
  for (; c < n; ++c) {
    const double u = g[c];
    out.gg += u * u;
    for (std::size_t j = 0; j < M; ++j) {
      const double v = qkk_at<kH>(h[j].p, c);
      out.gh[j] += u * v;
      if constexpr (kHh) out.hh[j] += v * v;
      if (j == cl) out.dd += (u - v) * (u - v);
    }
  }
  return out;
}

template <bool kH>
POSENC_QK_AVX512 double qkk_sumsq_avx512(QkRowPtr h, std::size_t n) {
  constexpr std::size_t W = 16;
  __m512d d = _mm512_setzero_pd();
  std::size_t c = 0;
  while (c + W <= n) {
    __m512 f = _mm512_setzero_ps();
    const std::size_t end = std::min(c + kQkkBlock * W, n / W * W);
    for (; c < end; c += W) {
      const __m512 v = qkk_load16<kH>(h.p, c);
      f = _mm512_fmadd_ps(v, v, f);
    }
    d = qkk_widen16(d, f);
  }
  double s = _mm512_reduce_add_pd(d);
  for (; c < n; ++c) {
    const double v = qkk_at<kH>(h.p, c);
    s += v * v;
  }
  return s;
}

POSENC_QK_AVX512 void qkk_q8_0_avx512(const unsigned char* p, std::size_t blocks, float* out) {
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

template <bool kBf16>
POSENC_QK_AVX2 inline __m256 qkk_load8(const void* p, std::size_t c) {
  if constexpr (kBf16) {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(static_cast<const std::uint16_t*>(p) + c));
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
  } else {
    return _mm256_loadu_ps(static_cast<const float*>(p) + c);
  }
}

/// The 8 float lanes of f added in double.
POSENC_QK_AVX2 inline double qkk_widen8(__m256 f) {
  const __m256d s = _mm256_add_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(f)), _mm256_cvtps_pd(_mm256_extractf128_ps(f, 1)));
  const __m128d t = _mm_add_pd(_mm256_castpd256_pd128(s), _mm256_extractf128_pd(s, 1));
  return _mm_cvtsd_f64(_mm_add_sd(t, _mm_unpackhi_pd(t, t)));
}

template <bool kQ, bool kK>
POSENC_QK_AVX2 QkPairSums qkk_pair_avx2(QkRowPtr a, QkRowPtr b, QkRowPtr x, QkRowPtr y, const float* gq,
                                        const float* gk, std::size_t n) {
  constexpr std::size_t W = 8;
  double sum[10] = {};
  std::size_t c = 0;
  while (c + W <= n) {
    __m256 f[10];
    for (auto& v : f) v = _mm256_setzero_ps();
    const std::size_t end = std::min(c + kQkkBlock * W, n / W * W);
    for (; c < end; c += W) {
      const __m256 g = _mm256_loadu_ps(gq + c), h = _mm256_loadu_ps(gk + c);
      const __m256 qa = _mm256_mul_ps(qkk_load8<kQ>(a.p, c), g), qb = _mm256_mul_ps(qkk_load8<kQ>(b.p, c), g);
      const __m256 ka = _mm256_mul_ps(qkk_load8<kK>(x.p, c), h), kb = _mm256_mul_ps(qkk_load8<kK>(y.p, c), h);
      f[0] = _mm256_fmadd_ps(qa, qa, f[0]);
      f[1] = _mm256_fmadd_ps(qb, qb, f[1]);
      f[2] = _mm256_fmadd_ps(qa, qb, f[2]);
      f[3] = _mm256_fmadd_ps(ka, ka, f[3]);
      f[4] = _mm256_fmadd_ps(kb, kb, f[4]);
      f[5] = _mm256_fmadd_ps(ka, kb, f[5]);
      f[6] = _mm256_fmadd_ps(qa, ka, f[6]);
      f[7] = _mm256_fmadd_ps(qa, kb, f[7]);
      f[8] = _mm256_fmadd_ps(qb, ka, f[8]);
      f[9] = _mm256_fmadd_ps(qb, kb, f[9]);
    }
    for (std::size_t j = 0; j < 10; ++j) sum[j] += qkk_widen8(f[j]);
  }
  qkk_pair_tail<kQ, kK>(a, b, x, y, gq, gk, c, n, sum);
  return qkk_result(sum);
}

template <bool kH>
POSENC_QK_AVX2 QkDots qkk_dots_avx2(const float* g, QkRowPtr h, std::size_t n) {
  constexpr std::size_t W = 8;
  double gh = 0, gg = 0, hh = 0, dd = 0;
  std::size_t c = 0;
  while (c + W <= n) {
    __m256 fgh = _mm256_setzero_ps(), fgg = fgh, fhh = fgh, fdd = fgh;
    const std::size_t end = std::min(c + kQkkBlock * W, n / W * W);
    for (; c < end; c += W) {
      const __m256 u = _mm256_loadu_ps(g + c), v = qkk_load8<kH>(h.p, c), e = _mm256_sub_ps(u, v);
      fgh = _mm256_fmadd_ps(u, v, fgh);
      fgg = _mm256_fmadd_ps(u, u, fgg);
      fhh = _mm256_fmadd_ps(v, v, fhh);
      fdd = _mm256_fmadd_ps(e, e, fdd);
    }
    gh += qkk_widen8(fgh), gg += qkk_widen8(fgg), hh += qkk_widen8(fhh), dd += qkk_widen8(fdd);
  }
  for (; c < n; ++c) {
    const double u = g[c], v = qkk_at<kH>(h.p, c);
    gh += u * v, gg += u * u, hh += v * v, dd += (u - v) * (u - v);
  }
  return {gh, gg, hh, dd};
}

#endif  // POSENC_QK_X86

template <bool kQ, bool kK>
QkPairSums qkk_pair(QkKernel k, QkRowPtr a, QkRowPtr b, QkRowPtr x, QkRowPtr y, const float* gq, const float* gk,
                    std::size_t n) {
#ifdef POSENC_QK_X86
  if (k == QkKernel::kAvx512) return qkk_pair_avx512<kQ, kK>(a, b, x, y, gq, gk, n);
  if (k == QkKernel::kAvx2) return qkk_pair_avx2<kQ, kK>(a, b, x, y, gq, gk, n);
#endif
  (void)k;
  return qkk_pair_portable<kQ, kK>(a, b, x, y, gq, gk, n);
}

template <bool kH>
QkDots qkk_dots(QkKernel k, const float* g, QkRowPtr h, std::size_t n) {
#ifdef POSENC_QK_X86
  if (k == QkKernel::kAvx512) return qkk_dots_avx512<kH>(g, h, n);
  if (k == QkKernel::kAvx2) return qkk_dots_avx2<kH>(g, h, n);
#endif
  (void)k;
  return qkk_dots_portable<kH>(g, h, n);
}

}  // namespace

std::vector<QkKernel> qk_kernels() {
  std::vector<QkKernel> out{QkKernel::kPortable};
#ifdef POSENC_QK_X86
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) out.push_back(QkKernel::kAvx2);
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c"))
    out.push_back(QkKernel::kAvx512);
#endif
  return out;
}

QkKernel qk_best_kernel() {
  static const QkKernel best = qk_kernels().back();
  return best;
}

std::string_view to_string(QkKernel k) {
  switch (k) {
    case QkKernel::kAvx512: return "avx512";
    case QkKernel::kAvx2: return "avx2";
    case QkKernel::kPortable: break;
  }
  return "portable";
}

QkPairSums qk_pair_sums(QkRowPtr a, QkRowPtr b, QkRowPtr x, QkRowPtr y, const float* gq, const float* gk,
                        std::size_t n, QkKernel k) {
  if (a.bf16)
    return x.bf16 ? qkk_pair<true, true>(k, a, b, x, y, gq, gk, n) : qkk_pair<true, false>(k, a, b, x, y, gq, gk, n);
  return x.bf16 ? qkk_pair<false, true>(k, a, b, x, y, gq, gk, n) : qkk_pair<false, false>(k, a, b, x, y, gq, gk, n);
}

QkDots qk_dots(const float* g, QkRowPtr h, std::size_t n, QkKernel k) {
  return h.bf16 ? qkk_dots<true>(k, g, h, n) : qkk_dots<false>(k, g, h, n);
}

QkMultiDots qk_multi_dots(const float* g, const QkRowPtr* h, std::size_t m, std::size_t n, int close, QkKernel k) {
  if (m == 0) {
    QkMultiDots out;
    out.gg = qk_dots(g, {g, false}, n, k).gg;
    return out;
  }
  m = std::min<std::size_t>(m, 3);
  if (close < 0 || static_cast<std::size_t>(close) >= m) close = 3;
  const bool b = h[0].bf16;
#ifdef POSENC_QK_X86
  if (k == QkKernel::kAvx512) {
    if (m == 1) return b ? qkk_multi_avx512<true, 1>(g, h, n, close) : qkk_multi_avx512<false, 1>(g, h, n, close);
    if (m == 2) return b ? qkk_multi_avx512<true, 2>(g, h, n, close) : qkk_multi_avx512<false, 2>(g, h, n, close);
    return b ? qkk_multi_avx512<true, 3>(g, h, n, close) : qkk_multi_avx512<false, 3>(g, h, n, close);
  }
  if (k == QkKernel::kAvx2) {  // one row at a time
    QkMultiDots out;
    for (std::size_t j = 0; j < m; ++j) {
      const QkDots d = qk_dots(g, h[j], n, k);
      out.gg = d.gg, out.gh[j] = d.gh, out.hh[j] = d.hh;
      if (static_cast<int>(j) == close) out.dd = d.dd;
    }
    return out;
  }
#endif
  if (m == 1) return b ? qkk_multi_portable<true, 1>(g, h, n, close) : qkk_multi_portable<false, 1>(g, h, n, close);
  if (m == 2) return b ? qkk_multi_portable<true, 2>(g, h, n, close) : qkk_multi_portable<false, 2>(g, h, n, close);
  return b ? qkk_multi_portable<true, 3>(g, h, n, close) : qkk_multi_portable<false, 3>(g, h, n, close);
}

bool qk_multi_dots_q8_0(const void* g, const QkRowPtr* h, std::size_t m, std::size_t n, int close, QkMultiDots& out,
                        bool with_hh, QkKernel k) {
#ifdef POSENC_QK_X86
  if (k == QkKernel::kAvx512 && m >= 1 && m <= 3 && n % 32 == 0) {
    if (close < 0 || static_cast<std::size_t>(close) >= m) close = 3;
    const bool b = h[0].bf16;
    if (with_hh) {
      if (m == 1) out = b ? qkk_multi_avx512<true, 1, true>(g, h, n, close) : qkk_multi_avx512<false, 1, true>(g, h, n, close);
      else if (m == 2) out = b ? qkk_multi_avx512<true, 2, true>(g, h, n, close) : qkk_multi_avx512<false, 2, true>(g, h, n, close);
      else out = b ? qkk_multi_avx512<true, 3, true>(g, h, n, close) : qkk_multi_avx512<false, 3, true>(g, h, n, close);
    } else {
      if (m == 1) out = b ? qkk_multi_avx512<true, 1, true, false>(g, h, n, close) : qkk_multi_avx512<false, 1, true, false>(g, h, n, close);
      else if (m == 2) out = b ? qkk_multi_avx512<true, 2, true, false>(g, h, n, close) : qkk_multi_avx512<false, 2, true, false>(g, h, n, close);
      else out = b ? qkk_multi_avx512<true, 3, true, false>(g, h, n, close) : qkk_multi_avx512<false, 3, true, false>(g, h, n, close);
    }
    return true;
  }
#endif
  (void)g, (void)h, (void)m, (void)n, (void)close, (void)out, (void)with_hh, (void)k;
  return false;
}

double qk_sumsq(QkRowPtr h, std::size_t n, QkKernel k) {
#ifdef POSENC_QK_X86
  if (k == QkKernel::kAvx512) return h.bf16 ? qkk_sumsq_avx512<true>(h, n) : qkk_sumsq_avx512<false>(h, n);
#endif
  // portable and AVX2: Σ h² as the multi-row kernel sums it (g = h, one row)
  if (!h.bf16) return qk_dots(static_cast<const float*>(h.p), h, n, k).hh;
  return qkk_sumsq_portable(h, n);
}

bool qk_decode_q8_0(const void* row, std::size_t blocks, float* out, QkKernel k) {
#ifdef POSENC_QK_X86
  if (k == QkKernel::kAvx512) {
    qkk_q8_0_avx512(static_cast<const unsigned char*>(row), blocks, out);
    return true;
  }
#endif
  (void)row, (void)blocks, (void)out, (void)k;
  return false;
}

}  // namespace posenc::models
