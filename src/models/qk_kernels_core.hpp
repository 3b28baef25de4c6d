#pragma once
// The common core of the q/k kernels (qk_kernels.hpp), written once over a vector type V and
// instantiated by qk_kernels_portable.cpp, qk_kernels_avx2.cpp and qk_kernels_avx512.cpp. Each of
// those includes this file inside its `#pragma GCC target` region, so that every function here is
// compiled for its instruction set; the anonymous namespace keeps each file's copies its own (an
// out-of-line copy built for AVX-512 can never stand in for the portable one at link time).
//
// Every kernel sums in float32 lanes in blocks of kQkkBlock terms per lane, then adds the lanes in
// double, so the error bound of qk_kernels.hpp holds for each of them and any row length. V gives:
//   W                 the float lanes; F a vector of W floats; D the double accumulator of one sum
//   zero(), dzero()   zeros of F and D
//   load<kBf16>(p, c) columns c..c+W-1 of a BF16 (bits) or float32 row
//   mul, sub, fma     lane by lane; fma(a, b, acc) = acc + a·b, fused where the set fuses it
//   widen(d, f)       d + the W lanes of f, in double; reduce(d) the double sum of d
//   load_q8_0(g, c)   (AVX-512 only) columns c..c+W-1 of a Q8_0 row, d·q exact in float32
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "qk_kernels_internal.hpp"

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

/// The end of the block that starts at column c: kQkkBlock vectors on, or the last whole vector.
template <std::size_t W>
inline std::size_t qkk_block_end(std::size_t c, std::size_t n) {
  const std::size_t end = c + kQkkBlock * W, whole = n / W * W;
  return end < whole ? end : whole;
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

template <class V, bool kQ, bool kK>
QkPairSums qkk_pair(QkRowPtr a, QkRowPtr b, QkRowPtr x, QkRowPtr y, const float* gq, const float* gk,
                    std::size_t n) {
  using F = typename V::F;
  typename V::D d[10];
  for (auto& v : d) v = V::dzero();
  std::size_t c = 0;
  while (c + V::W <= n) {
    F f[10];
    for (auto& v : f) v = V::zero();
    for (const std::size_t end = qkk_block_end<V::W>(c, n); c < end; c += V::W) {
      const F g = V::template load<false>(gq, c), h = V::template load<false>(gk, c);
      const F qa = V::mul(V::template load<kQ>(a.p, c), g), qb = V::mul(V::template load<kQ>(b.p, c), g);
      const F ka = V::mul(V::template load<kK>(x.p, c), h), kb = V::mul(V::template load<kK>(y.p, c), h);
      f[0] = V::fma(qa, qa, f[0]);
      f[1] = V::fma(qb, qb, f[1]);
      f[2] = V::fma(qa, qb, f[2]);
      f[3] = V::fma(ka, ka, f[3]);
      f[4] = V::fma(kb, kb, f[4]);
      f[5] = V::fma(ka, kb, f[5]);
      f[6] = V::fma(qa, ka, f[6]);
      f[7] = V::fma(qa, kb, f[7]);
      f[8] = V::fma(qb, ka, f[8]);
      f[9] = V::fma(qb, kb, f[9]);
    }
    for (std::size_t j = 0; j < 10; ++j) d[j] = V::widen(d[j], f[j]);
  }
  double s[10];
  for (std::size_t j = 0; j < 10; ++j) s[j] = V::reduce(d[j]);
  qkk_pair_tail<kQ, kK>(a, b, x, y, gq, gk, c, n, s);
  return {s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9]};
}

template <class V, bool kH>
QkDots qkk_dots(const float* g, QkRowPtr h, std::size_t n) {
  using F = typename V::F;
  typename V::D dgh = V::dzero(), dgg = dgh, dhh = dgh, ddd = dgh;
  std::size_t c = 0;
  while (c + V::W <= n) {
    F fgh = V::zero(), fgg = fgh, fhh = fgh, fdd = fgh;
    for (const std::size_t end = qkk_block_end<V::W>(c, n); c < end; c += V::W) {
      const F u = V::template load<false>(g, c), v = V::template load<kH>(h.p, c), e = V::sub(u, v);
      fgh = V::fma(u, v, fgh);
      fgg = V::fma(u, u, fgg);
      fhh = V::fma(v, v, fhh);
      fdd = V::fma(e, e, fdd);
    }
    dgh = V::widen(dgh, fgh), dgg = V::widen(dgg, fgg), dhh = V::widen(dhh, fhh), ddd = V::widen(ddd, fdd);
  }
  double gh = V::reduce(dgh), gg = V::reduce(dgg), hh = V::reduce(dhh), dd = V::reduce(ddd);
  for (; c < n; ++c) {
    const double u = g[c], v = qkk_at<kH>(h.p, c);
    gh += u * v, gg += u * u, hh += v * v, dd += (u - v) * (u - v);
  }
  return {gh, gg, hh, dd};
}

/// g float32 (or Q8_0 with kQ8: then n % 32 = 0 and there is no tail); close ≥ M when none.
template <class V, bool kH, std::size_t M, bool kQ8, bool kHh>
QkMultiDots qkk_multi(const void* gp, const QkRowPtr* h, std::size_t n, int close) {
  using F = typename V::F;
  const float* g = static_cast<const float*>(gp);
  const auto cl = static_cast<std::size_t>(close);
  typename V::D dgg = V::dzero(), ddd = dgg, dgh[M], dhh[M];
  for (std::size_t j = 0; j < M; ++j) dgh[j] = dhh[j] = V::dzero();
  std::size_t c = 0;
  while (c + V::W <= n) {
    F fgg = V::zero(), fdd = fgg, fgh[M], fhh[M];
    for (std::size_t j = 0; j < M; ++j) fgh[j] = fhh[j] = V::zero();
    for (const std::size_t end = qkk_block_end<V::W>(c, n); c < end; c += V::W) {
      F u;
      if constexpr (kQ8) u = V::load_q8_0(gp, c);
      else u = V::template load<false>(g, c);
      fgg = V::fma(u, u, fgg);
      for (std::size_t j = 0; j < M; ++j) {
        const F v = V::template load<kH>(h[j].p, c);
        fgh[j] = V::fma(u, v, fgh[j]);
        if constexpr (kHh) fhh[j] = V::fma(v, v, fhh[j]);
        if (j == cl) {
          const F e = V::sub(u, v);
          fdd = V::fma(e, e, fdd);
        }
      }
    }
    dgg = V::widen(dgg, fgg), ddd = V::widen(ddd, fdd);
    for (std::size_t j = 0; j < M; ++j) dgh[j] = V::widen(dgh[j], fgh[j]), dhh[j] = V::widen(dhh[j], fhh[j]);
  }
  QkMultiDots out;
  out.gg = V::reduce(dgg), out.dd = V::reduce(ddd);
  for (std::size_t j = 0; j < M; ++j) out.gh[j] = V::reduce(dgh[j]), out.hh[j] = V::reduce(dhh[j]);
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

template <class V, bool kH>
double qkk_sumsq(QkRowPtr h, std::size_t n) {
  typename V::D d = V::dzero();
  std::size_t c = 0;
  while (c + V::W <= n) {
    typename V::F f = V::zero();
    for (const std::size_t end = qkk_block_end<V::W>(c, n); c < end; c += V::W) {
      const typename V::F v = V::template load<kH>(h.p, c);
      f = V::fma(v, v, f);
    }
    d = V::widen(d, f);
  }
  double s = V::reduce(d);
  for (; c < n; ++c) {
    const double v = qkk_at<kH>(h.p, c);
    s += v * v;
  }
  return s;
}

// The kernels above for the kinds of the rows (a and b of one kind, x and y of one kind; the h of one kind).

template <class V>
QkPairSums qkk_pair_rows(QkRowPtr a, QkRowPtr b, QkRowPtr x, QkRowPtr y, const float* gq, const float* gk,
                         std::size_t n) {
  if (a.bf16)
    return x.bf16 ? qkk_pair<V, true, true>(a, b, x, y, gq, gk, n) : qkk_pair<V, true, false>(a, b, x, y, gq, gk, n);
  return x.bf16 ? qkk_pair<V, false, true>(a, b, x, y, gq, gk, n) : qkk_pair<V, false, false>(a, b, x, y, gq, gk, n);
}

template <class V>
QkDots qkk_dots_rows(const float* g, QkRowPtr h, std::size_t n) {
  return h.bf16 ? qkk_dots<V, true>(g, h, n) : qkk_dots<V, false>(g, h, n);
}

/// 1 ≤ m ≤ 3 rows h.
template <class V, bool kQ8 = false, bool kHh = true>
QkMultiDots qkk_multi_rows(const void* g, const QkRowPtr* h, std::size_t m, std::size_t n, int close) {
  if (h[0].bf16) {
    if (m == 1) return qkk_multi<V, true, 1, kQ8, kHh>(g, h, n, close);
    if (m == 2) return qkk_multi<V, true, 2, kQ8, kHh>(g, h, n, close);
    return qkk_multi<V, true, 3, kQ8, kHh>(g, h, n, close);
  }
  if (m == 1) return qkk_multi<V, false, 1, kQ8, kHh>(g, h, n, close);
  if (m == 2) return qkk_multi<V, false, 2, kQ8, kHh>(g, h, n, close);
  return qkk_multi<V, false, 3, kQ8, kHh>(g, h, n, close);
}

}  // namespace
}  // namespace posenc::models
