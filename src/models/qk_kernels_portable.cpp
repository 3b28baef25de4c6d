// The portable q/k kernels (qk_kernels_core.hpp over 8 float lanes in plain C++): what every CPU
// runs, and the reference the vector kernels are tested beside (tests/models/qk_kernels_test.cpp).
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "qk_kernels_core.hpp"

namespace posenc::models {
namespace {

struct QkkPortable {
  static constexpr std::size_t W = 8;
  // Two of GCC's and Clang's generic 4-float vectors (lane by lane arithmetic, SSE registers on
  // baseline x86-64), each lane rounded as scalar code would; lanes 0-3 in lo, 4-7 in hi.
  using F4 = float __attribute__((vector_size(16)));
  struct F {
    F4 lo, hi;
  };
  using D = double;
  [[gnu::always_inline]] static F zero() { return {F4{}, F4{}}; }
  [[gnu::always_inline]] static D dzero() { return 0; }
  template <bool kBf16>
  [[gnu::always_inline]] static F load(const void* p, std::size_t c) {
    F f;
    for (std::size_t k = 0; k < 4; ++k) f.lo[k] = qkk_at<kBf16>(p, c + k), f.hi[k] = qkk_at<kBf16>(p, c + 4 + k);
    return f;
  }
  [[gnu::always_inline]] static F mul(F a, F b) { return {a.lo * b.lo, a.hi * b.hi}; }
  [[gnu::always_inline]] static F sub(F a, F b) { return {a.lo - b.lo, a.hi - b.hi}; }
  /// acc + a·b rounded twice (the build keeps -ffp-contract=off).
  [[gnu::always_inline]] static F fma(F a, F b, F acc) { return {acc.lo + a.lo * b.lo, acc.hi + a.hi * b.hi}; }
  [[gnu::always_inline]] static D widen(D d, F f) {
    for (std::size_t k = 0; k < 4; ++k) d += static_cast<double>(f.lo[k]);
    for (std::size_t k = 0; k < 4; ++k) d += static_cast<double>(f.hi[k]);
    return d;
  }
  [[gnu::always_inline]] static double reduce(D d) { return d; }
};

}  // namespace

namespace qk_detail {

QkPairSums pair_portable(QkRowPtr a, QkRowPtr b, QkRowPtr x, QkRowPtr y, const float* gq, const float* gk,
                         std::size_t n) {
  return qkk_pair_rows<QkkPortable>(a, b, x, y, gq, gk, n);
}

QkDots dots_portable(const float* g, QkRowPtr h, std::size_t n) { return qkk_dots_rows<QkkPortable>(g, h, n); }

QkMultiDots multi_portable(const float* g, const QkRowPtr* h, std::size_t m, std::size_t n, int close) {
  return qkk_multi_rows<QkkPortable>(g, h, m, n, close);
}

double sumsq_bf16_portable(QkRowPtr h, std::size_t n) { return qkk_sumsq<QkkPortable, true>(h, n); }

}  // namespace qk_detail
}  // namespace posenc::models
