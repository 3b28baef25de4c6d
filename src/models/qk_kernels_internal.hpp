#pragma once
// The per-instruction-set entry points behind qk_kernels.hpp (private to src/models): each
// qk_kernels_<set>.cpp instantiates the common core (qk_kernels_core.hpp) for its vector type;
// qk_kernels.cpp chooses one at run time.
#include <cstddef>

#include "posenc/models/qk_kernels.hpp"

// AVX-512 and AVX2+FMA kernels: GCC on x86-64 (per-function targets); elsewhere portable only.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define POSENC_QK_X86 1
#endif

namespace posenc::models::qk_detail {

// For multi: 1 ≤ m ≤ 3, close in [0, m) or 3 (none).
QkPairSums pair_portable(QkRowPtr a, QkRowPtr b, QkRowPtr x, QkRowPtr y, const float* gq, const float* gk,
                         std::size_t n);
QkDots dots_portable(const float* g, QkRowPtr h, std::size_t n);
QkMultiDots multi_portable(const float* g, const QkRowPtr* h, std::size_t m, std::size_t n, int close);
double sumsq_bf16_portable(QkRowPtr h, std::size_t n);

#ifdef POSENC_QK_X86
QkPairSums pair_avx2(QkRowPtr a, QkRowPtr b, QkRowPtr x, QkRowPtr y, const float* gq, const float* gk,
                     std::size_t n);
QkDots dots_avx2(const float* g, QkRowPtr h, std::size_t n);

QkPairSums pair_avx512(QkRowPtr a, QkRowPtr b, QkRowPtr x, QkRowPtr y, const float* gq, const float* gk,
                       std::size_t n);
QkDots dots_avx512(const float* g, QkRowPtr h, std::size_t n);
QkMultiDots multi_avx512(const float* g, const QkRowPtr* h, std::size_t m, std::size_t n, int close);
/// g a Q8_0 row (n % 32 = 0).
QkMultiDots multi_q8_0_avx512(const void* g, const QkRowPtr* h, std::size_t m, std::size_t n, int close,
                              bool with_hh);
double sumsq_avx512(QkRowPtr h, std::size_t n);
void decode_q8_0_avx512(const unsigned char* p, std::size_t blocks, float* out);
#endif

}  // namespace posenc::models::qk_detail
