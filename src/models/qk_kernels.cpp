// The q/k dot-product kernels (qk_kernels.hpp): the kernel a CPU runs, and each entry point sent to
// the AVX-512 (qk_kernels_avx512.cpp), AVX2+FMA (qk_kernels_avx2.cpp) or portable
// (qk_kernels_portable.cpp) instance of the common core (qk_kernels_core.hpp).
#include "posenc/models/qk_kernels.hpp"
#include "posenc/cpu.hpp"

#include <algorithm>

#include "qk_kernels_internal.hpp"

namespace posenc::models {

std::vector<QkKernel> qk_kernels() {
  std::vector<QkKernel> out{QkKernel::kPortable};
#ifdef POSENC_QK_X86
  using cpu::Feature;
  if (cpu::has(Feature::kAvx2) && cpu::has(Feature::kFma)) out.push_back(QkKernel::kAvx2);
  if (cpu::has(Feature::kAvx512f) && cpu::has(Feature::kAvx512bw) && cpu::has(Feature::kAvx512dq) &&
      cpu::has(Feature::kAvx512vl) && cpu::has(Feature::kFma) && cpu::has(Feature::kF16c))
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
#ifdef POSENC_QK_X86
  if (k == QkKernel::kAvx512) return qk_detail::pair_avx512(a, b, x, y, gq, gk, n);
  if (k == QkKernel::kAvx2) return qk_detail::pair_avx2(a, b, x, y, gq, gk, n);
#endif
  (void)k;
  return qk_detail::pair_portable(a, b, x, y, gq, gk, n);
}

QkDots qk_dots(const float* g, QkRowPtr h, std::size_t n, QkKernel k) {
#ifdef POSENC_QK_X86
  if (k == QkKernel::kAvx512) return qk_detail::dots_avx512(g, h, n);
  if (k == QkKernel::kAvx2) return qk_detail::dots_avx2(g, h, n);
#endif
  (void)k;
  return qk_detail::dots_portable(g, h, n);
}

QkMultiDots qk_multi_dots(const float* g, const QkRowPtr* h, std::size_t m, std::size_t n, int close, QkKernel k) {
  if (m == 0) {
    QkMultiDots out;
    out.gg = qk_dots(g, {g, false}, n, k).gg;
    return out;
  }
  m = std::min<std::size_t>(m, 3);
  if (close < 0 || static_cast<std::size_t>(close) >= m) close = 3;
#ifdef POSENC_QK_X86
  if (k == QkKernel::kAvx512) return qk_detail::multi_avx512(g, h, m, n, close);
  if (k == QkKernel::kAvx2) {  // one row at a time
    QkMultiDots out;
    for (std::size_t j = 0; j < m; ++j) {
      const QkDots d = qk_detail::dots_avx2(g, h[j], n);
      out.gg = d.gg, out.gh[j] = d.gh, out.hh[j] = d.hh;
      if (static_cast<int>(j) == close) out.dd = d.dd;
    }
    return out;
  }
#endif
  return qk_detail::multi_portable(g, h, m, n, close);
}

bool qk_multi_dots_q8_0(const void* g, const QkRowPtr* h, std::size_t m, std::size_t n, int close, QkMultiDots& out,
                        bool with_hh, QkKernel k) {
#ifdef POSENC_QK_X86
  if (k == QkKernel::kAvx512 && m >= 1 && m <= 3 && n % 32 == 0) {
    if (close < 0 || static_cast<std::size_t>(close) >= m) close = 3;
    out = qk_detail::multi_q8_0_avx512(g, h, m, n, close, with_hh);
    return true;
  }
#endif
  (void)g, (void)h, (void)m, (void)n, (void)close, (void)out, (void)with_hh, (void)k;
  return false;
}

double qk_sumsq(QkRowPtr h, std::size_t n, QkKernel k) {
#ifdef POSENC_QK_X86
  if (k == QkKernel::kAvx512) return qk_detail::sumsq_avx512(h, n);
#endif
  // portable and AVX2: Σ h² as the multi-row kernel sums it (g = h, one row)
  if (!h.bf16) return qk_dots(static_cast<const float*>(h.p), h, n, k).hh;
  return qk_detail::sumsq_bf16_portable(h, n);
}

bool qk_decode_q8_0(const void* row, std::size_t blocks, float* out, QkKernel k) {
#ifdef POSENC_QK_X86
  if (k == QkKernel::kAvx512) {
    qk_detail::decode_q8_0_avx512(static_cast<const unsigned char*>(row), blocks, out);
    return true;
  }
#endif
  (void)row, (void)blocks, (void)out, (void)k;
  return false;
}

}  // namespace posenc::models
