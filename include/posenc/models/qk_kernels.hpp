#pragma once
/// The dot products of `posenc usage` and the q/k order check, read straight from the stored rows
/// (BF16 bits, decoded in registers, or float32), with AVX-512, AVX2+FMA and portable kernels
/// chosen at run time (src/models/qk_kernels.cpp; one file per instruction set over qk_kernels_core.hpp).
///
/// Precision: products are summed in float32 in blocks of 16 per lane (the AVX-512 kernel has 16
/// lanes, the others 8), each block's lanes then added in double. A sum S = Σ_c t_c of n terms
/// (t_c = u_c·v_c, the gains folded in float32 first) is therefore within
///   |S − S_exact| ≤ kQkSumBound · Σ_c |t_c|,   kQkSumBound = 20·2⁻²⁴ ≈ 1.2e-6
/// of the exact sum of the stored values for any n (16 roundings per block, 2 for the gains, the
/// double additions add ~n·2⁻⁵³): tests/models/qk_kernels_test.cpp checks every kernel the CPU
/// has against a long-double reference, tests/integration/test_usage_precision.py the reports.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace posenc::models {

inline constexpr double kQkSumBound = 20.0 / 16777216.0;

enum class QkKernel { kPortable, kAvx2, kAvx512 };
/// The fastest kernel this CPU runs.
QkKernel qk_best_kernel();
/// Every kernel this CPU runs (portable first).
std::vector<QkKernel> qk_kernels();
std::string_view to_string(QkKernel k);

/// A stored row: float32 values, or BF16 bits.
struct QkRowPtr {
  const void* p = nullptr;
  bool bf16 = false;
};

/// The ten sums of one RoPE pair: q rows a, b and k rows x, y (same kind within q and within k),
/// each column scaled by gq[c] (q) and gk[c] (k) first (the input norm's gain, or ones; n values):
/// qaa = Σ a², qbb, qab = Σ a·b, kaa = Σ x², kbb, kab, c00 = Σ a·x, c01 = Σ a·y, c10 = Σ b·x, c11 = Σ b·y.
struct QkPairSums {
  double qaa = 0, qbb = 0, qab = 0, kaa = 0, kbb = 0, kab = 0, c00 = 0, c01 = 0, c10 = 0, c11 = 0;
};
/// Requires a.bf16 == b.bf16 and x.bf16 == y.bf16.
QkPairSums qk_pair_sums(QkRowPtr a, QkRowPtr b, QkRowPtr x, QkRowPtr y, const float* gq, const float* gk,
                        std::size_t n, QkKernel k = qk_best_kernel());

/// Σ g·h, Σ g², Σ h² and Σ (g − h)² of a float32 row g and a row h, in one pass (the order
/// check; the last summed directly, not from the other three, which would cancel).
struct QkDots {
  double gh = 0, gg = 0, hh = 0, dd = 0;
};
QkDots qk_dots(const float* g, QkRowPtr h, std::size_t n, QkKernel k = qk_best_kernel());

/// Σ g², and Σ g·h_j, Σ h_j² for m ≤ 3 rows h_j of one kind (more are not read), in one pass over g (the order
/// check's maps; same bound as qk_dots); with 0 ≤ close < m also dd = Σ (g − h_close)² (else 0).
struct QkMultiDots {
  double gg = 0, dd = 0;
  double gh[3] = {}, hh[3] = {};
};
QkMultiDots qk_multi_dots(const float* g, const QkRowPtr* h, std::size_t m, std::size_t n, int close = -1,
                          QkKernel k = qk_best_kernel());

/// qk_multi_dots with g a little-endian Q8_0 row (n/32 blocks) decoded in registers (the same
/// values as qk_decode_q8_0, so the same sums): AVX-512 only, 1 ≤ m ≤ 3, n % 32 = 0; returns
/// false, leaving `out` alone, otherwise.
/// Without with_hh, hh[] is not summed (0; the caller knows it: qk_sumsq).
bool qk_multi_dots_q8_0(const void* g, const QkRowPtr* h, std::size_t m, std::size_t n, int close, QkMultiDots& out,
                        bool with_hh = true, QkKernel k = qk_best_kernel());

/// Σ h² of one row (same bound as qk_dots).
double qk_sumsq(QkRowPtr h, std::size_t n, QkKernel k = qk_best_kernel());

/// Decodes `blocks` little-endian Q8_0 blocks (an f16 scale and 32 int8) into 32·blocks floats
/// with AVX-512 (each value d·q is exact in float32, so the same bits as formats::dequantize_ggml).
/// Returns false, leaving `out` alone, when kernel k is not AVX-512 (then decode with formats).
bool qk_decode_q8_0(const void* row, std::size_t blocks, float* out, QkKernel k = qk_best_kernel());

}  // namespace posenc::models
