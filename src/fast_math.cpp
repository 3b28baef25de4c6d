#include "posenc/fast_math.hpp"

#include "posenc/cpu.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace posenc {
namespace {

// The vectorisable loop, for sin and cos, or only one of them (a RoPE table needs one; the
// other polynomial would be thrown away). Each output is computed by the same operations
// whichever others are wanted, so sin_f32's values are sincos_f32's sines, bit for bit.
// Returns how many angles were in the fast range (|w[i]·p| < kFastAngleLimit, NaN excluded):
// counted inside the loop, where it costs one vector compare, instead of a scalar pre-pass.
template <bool kSin, bool kCos>
[[gnu::always_inline]] inline std::size_t kernel_body(const double* w, std::size_t n, double p, float* s,
                                                      float* c) {
  constexpr double kTwoOverPi = 0.63661977236758134308;
  constexpr double kMagic = 0x1.8p52;             // adding it rounds to an integer, kept in the low bits
  constexpr double kP1 = 0x1.921fb544p0;          // π/2 in three parts: k·kP1, k·kP2 exact for |k| < 2^20
  constexpr double kP2 = 0x1.0b4611a6p-34;
  constexpr double kP3 = 0x1.3198a2e037073p-69;
  std::size_t in_range = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double wp = w[i] * p;
    // All ones when in range; else x = 0 keeps the float conversion below defined (the row is
    // redone by the caller). A mask, not ?:, so that GCC vectorises the loop.
    const std::uint64_t fast = std::uint64_t{0} - static_cast<std::uint64_t>(std::abs(wp) < kFastAngleLimit);
    in_range += fast & 1u;
    const double x = std::bit_cast<double>(std::bit_cast<std::uint64_t>(wp) & fast);
    const double t = x * kTwoOverPi + kMagic;
    const double k = t - kMagic;
    const auto q = static_cast<std::uint32_t>(std::bit_cast<std::uint64_t>(t));  // k mod 4 in the low bits
    const auto r = static_cast<float>(((x - k * kP1) - k * kP2) - k * kP3);
    const float z = r * r;
    const float sp = ((-1.9515295891e-4f * z + 8.3321608736e-3f) * z - 1.6666654611e-1f) * z * r + r;
    const float cp = ((2.443315711809948e-5f * z - 1.388731625493765e-3f) * z + 4.166664568298827e-2f) * z * z -
                     0.5f * z + 1.0f;
    // Quadrant k mod 4: (sin, cos) = (s, c), (c, −s), (−s, −c), (−c, s). Chosen and negated
    // with bit masks: with ?: GCC keeps branches in the one-output loops and does not vectorise.
    const std::uint32_t odd = 0u - (q & 1u);  // all ones when k is odd
    const auto sb = std::bit_cast<std::uint32_t>(sp);
    const auto cb = std::bit_cast<std::uint32_t>(cp);
    if constexpr (kSin) s[i] = std::bit_cast<float>(((cb & odd) | (sb & ~odd)) ^ ((q & 2u) << 30));
    if constexpr (kCos) c[i] = std::bit_cast<float>(((sb & odd) | (cb & ~odd)) ^ (((q + 1u) & 2u) << 30));
  }
  return in_range;
}

// POSENC_DISPATCH (posenc/cpu.hpp) compiles each three times (AVX-512, AVX2, baseline) and
// picks one on first use. The build does not contract a*b+c into FMA (-ffp-contract=off,
// CMakeLists.txt), so every version rounds alike and gives the same bytes.
[[gnu::always_inline]] inline std::size_t kernel_sincos_body(const double* w, std::size_t n, double p, float* s,
                                                             float* c) {
  return kernel_body<true, true>(w, n, p, s, c);
}
[[gnu::always_inline]] inline std::size_t kernel_sin_body(const double* w, std::size_t n, double p, float* s) {
  return kernel_body<true, false>(w, n, p, s, nullptr);
}
[[gnu::always_inline]] inline std::size_t kernel_cos_body(const double* w, std::size_t n, double p, float* c) {
  return kernel_body<false, true>(w, n, p, nullptr, c);
}
POSENC_DISPATCH(std::size_t, kernel_sincos, (const double* w, std::size_t n, double p, float* s, float* c), (w, n, p, s, c))
POSENC_DISPATCH(std::size_t, kernel_sin, (const double* w, std::size_t n, double p, float* s), (w, n, p, s))
POSENC_DISPATCH(std::size_t, kernel_cos, (const double* w, std::size_t n, double p, float* c), (w, n, p, c))

// sin and cos of a double angle to about 1e-15 (a Cody–Waite reduction with π/2 in three parts,
// exact for |k| < 2^20, then Taylor polynomials to r¹⁷ and r¹⁶: the next terms are below 2e-18 on
// |r| ≤ π/4). `fast` is all ones when |wp| < kFastAngleLimit (else x = 0 keeps the arithmetic
// defined and the caller redoes the angle with libm). Shared by sincos_f32_exact and
// sincos_f64_near, so both see the same doubles.
struct SinCos64 {
  double s, c;
  std::uint64_t fast;
};
[[gnu::always_inline]] inline SinCos64 sincos_poly(double wp) {
  constexpr double kTwoOverPi = 0.63661977236758134308;
  constexpr double kMagic = 0x1.8p52;
  constexpr double kP1 = 0x1.921fb544p0;
  constexpr double kP2 = 0x1.0b4611a6p-34;
  constexpr double kP3 = 0x1.3198a2e037073p-69;
  const std::uint64_t fast = std::uint64_t{0} - static_cast<std::uint64_t>(std::abs(wp) < kFastAngleLimit);
  const double x = std::bit_cast<double>(std::bit_cast<std::uint64_t>(wp) & fast);
  const double t = x * kTwoOverPi + kMagic;
  const double k = t - kMagic;
  const auto q = std::bit_cast<std::uint64_t>(t);  // k mod 4 in the low bits
  const double r = ((x - k * kP1) - k * kP2) - k * kP3;
  const double z = r * r;
  const double sp =
      r + r * z *
              (-1.0 / 6 +
               z * (1.0 / 120 +
                    z * (-1.0 / 5040 +
                         z * (1.0 / 362880 +
                              z * (-1.0 / 39916800 +
                                   z * (1.0 / 6227020800.0 + z * (-1.0 / 1307674368000.0 + z / 355687428096000.0)))))));
  const double cp =
      1.0 +
      z * (-0.5 +
           z * (1.0 / 24 +
                z * (-1.0 / 720 +
                     z * (1.0 / 40320 +
                          z * (-1.0 / 3628800 +
                               z * (1.0 / 479001600.0 + z * (-1.0 / 87178291200.0 + z / 20922789888000.0)))))));
  const std::uint64_t odd = std::uint64_t{0} - (q & 1u);
  const auto sb = std::bit_cast<std::uint64_t>(sp);
  const auto cb = std::bit_cast<std::uint64_t>(cp);
  return {std::bit_cast<double>(((cb & odd) | (sb & ~odd)) ^ ((q & 2u) << 62)),
          std::bit_cast<double>(((sb & odd) | (cb & ~odd)) ^ (((q + 1u) & 2u) << 62)), fast};
}

// sincos_f32_exact's kernel: y = sin and cos of the double angle to about 1e-15 relative, kept
// as floats when float(y − e) and float(y + e) are the same bits for e = 2⁻⁴⁰·|y| (then every
// value within e of y, the true one and libm's among them, rounds to that float); redo[i] ≠ 0
// marks the others for libm. Returns the OR of redo (0: every value kept).
[[gnu::always_inline]] inline std::uint64_t exact_body(const double* __restrict a, std::size_t n,
                                                       float* __restrict s, float* __restrict c,
                                                       std::uint64_t* __restrict redo) {
  constexpr double kRel = 0x1p-40;
  constexpr std::uint64_t kSign = std::uint64_t{1} << 63;
  std::uint64_t any = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const SinCos64 y = sincos_poly(a[i]);
    const double ys = y.s, yc = y.c;
    const double es = std::bit_cast<double>(std::bit_cast<std::uint64_t>(ys) & ~kSign) * kRel;
    const double ec = std::bit_cast<double>(std::bit_cast<std::uint64_t>(yc) & ~kSign) * kRel;
    const auto s_lo = std::bit_cast<std::uint32_t>(static_cast<float>(ys - es));
    const auto s_hi = std::bit_cast<std::uint32_t>(static_cast<float>(ys + es));
    const auto c_lo = std::bit_cast<std::uint32_t>(static_cast<float>(yc - ec));
    const auto c_hi = std::bit_cast<std::uint32_t>(static_cast<float>(yc + ec));
    // Non-zero when libm decides: bits that differ, out of range, or a zero sine (angle ±0: libm
    // keeps the sign of zero). Masks and an OR, not bools and a count: GCC vectorises those.
    const std::uint64_t differ = static_cast<std::uint64_t>((s_lo ^ s_hi) | (c_lo ^ c_hi));
    const std::uint64_t flag = differ | (~y.fast & 1u) | static_cast<std::uint64_t>(ys == 0.0);
    s[i] = static_cast<float>(ys);
    c[i] = static_cast<float>(yc);
    redo[i] = flag;
    any |= flag;
  }
  return any;
}

// sincos_f64_near's kernel: the doubles themselves; redo[i] marks angles out of range.
[[gnu::always_inline]] inline std::uint64_t kernel_near_body(const double* __restrict a, std::size_t n,
                                                             double* __restrict s, double* __restrict c,
                                                             std::uint64_t* __restrict redo) {
  std::uint64_t any = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const SinCos64 y = sincos_poly(a[i]);
    s[i] = y.s;
    c[i] = y.c;
    redo[i] = ~y.fast & 1u;
    any |= redo[i];
  }
  return any;
}

POSENC_DISPATCH(std::uint64_t, kernel_near,
                (const double* __restrict a, std::size_t n, double* __restrict s, double* __restrict c,
                 std::uint64_t* __restrict redo),
                (a, n, s, c, redo))
[[gnu::always_inline]] inline std::uint64_t kernel_exact_body(const double* __restrict a, std::size_t n,
                                                              float* __restrict s, float* __restrict c,
                                                              std::uint64_t* __restrict redo) {
  return exact_body(a, n, s, c, redo);
}
POSENC_DISPATCH(std::uint64_t, kernel_exact,
                (const double* __restrict a, std::size_t n, float* __restrict s, float* __restrict c,
                 std::uint64_t* __restrict redo),
                (a, n, s, c, redo))


// Eight doubles (and their bits): GCC/Clang vector extensions, one AVX-512 register, two AVX2
// ones, four SSE2 ones; the same operations, so the same bits, whichever the CPU runs.
// The helpers below take and return vectors by value; they are always inlined into one clone
// each, so the ABI GCC warns about (-Wpsabi: AVX-512 vectors without AVX-512) is never used.
// GCC warns at the end of the unit, so the warning stays off to the end (this unit is compiled
// alone, outside the unity batches).
#pragma GCC diagnostic ignored "-Wpsabi"
using FmV8d = double __attribute__((vector_size(64)));
using FmV8i = std::int64_t __attribute__((vector_size(64)));

[[gnu::always_inline]] inline FmV8d fm_load8(const double* p) {
  FmV8d v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
[[gnu::always_inline]] inline void fm_store8(double* p, const FmV8d& v) { std::memcpy(p, &v, sizeof v); }
// Lanes of `yes` where mask is all ones, else of `no` (bit operations: no vector ?: needed).
[[gnu::always_inline]] inline FmV8d fm_select(const FmV8i& mask, const FmV8d& yes, const FmV8d& no) {
  return (FmV8d)(((FmV8i)yes & mask) | ((FmV8i)no & ~mask));
}
[[gnu::always_inline]] inline double fm_sum8(const FmV8d& v) {
  return ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
}

// x ← e^x lane by lane (exp_near's algorithm; by reference: a vector argument by value would
// change the ABI between the clones).
[[gnu::always_inline]] inline void fm_exp8(FmV8d& x) {
  constexpr double kLog2e = 1.4426950408889634;
  constexpr double kLn2Hi = 6.93147180369123816490e-01;  // 32 significant bits: k·kLn2Hi is exact
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  const FmV8d magic = FmV8d{} + 0x1.8p52;  // adding it rounds to an integer, kept in the low bits
  // Lanes chosen with ?: on a comparison, which AVX-512 keeps in a mask register (turning the
  // mask into a vector of bits needs AVX512DQ: GCC would compare lane by lane in scalar code).
  // NaN fails both comparisons and stays NaN through the arithmetic.
  const FmV8d lo = FmV8d{} - 708.0, hi = FmV8d{} + 709.0;
  FmV8d xc = x < lo ? lo : x;
  xc = xc > hi ? hi : xc;
  const FmV8d t = xc * kLog2e + magic;
  const FmV8d k = t - magic;
  const FmV8d r = (xc - k * kLn2Hi) - k * kLn2Lo;
  // e^r, Taylor to r^13 (|r| ≤ 0.347: the r^14 term is below 6e-19).
  FmV8d p = r * (1.0 / 6227020800.0) + 1.0 / 479001600.0;
  p = p * r + 1.0 / 39916800.0;
  p = p * r + 1.0 / 3628800.0;
  p = p * r + 1.0 / 362880.0;
  p = p * r + 1.0 / 40320.0;
  p = p * r + 1.0 / 5040.0;
  p = p * r + 1.0 / 720.0;
  p = p * r + 1.0 / 120.0;
  p = p * r + 1.0 / 24.0;
  p = p * r + 1.0 / 6.0;
  p = p * r + 0.5;
  p = p * r + 1.0;
  p = p * r + 1.0;
  const FmV8d two_k = (FmV8d)(((FmV8i)t - (FmV8i)magic + 1023) << 52);  // k in [−1021, 1023]
  const FmV8d y = x < lo ? FmV8d{} : p * two_k;
  x = x > hi ? FmV8d{} + std::numeric_limits<double>::infinity() : y;
}

[[gnu::always_inline]] inline void kernel_exp_body(const double* __restrict x, std::size_t n, double* __restrict y) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    FmV8d v = fm_load8(x + i);
    fm_exp8(v);
    fm_store8(y + i, v);
  }
  if (i == n) return;
  double pad[8] = {};
  std::memcpy(pad, x + i, (n - i) * sizeof(double));
  FmV8d v = fm_load8(pad);
  fm_exp8(v);
  fm_store8(pad, v);
  std::memcpy(y + i, pad, (n - i) * sizeof(double));
}

POSENC_DISPATCH(void, kernel_exp, (const double* __restrict x, std::size_t n, double* __restrict y), (x, n, y))

[[gnu::always_inline]] inline SoftmaxMoments kernel_softmax_body(const double* __restrict x, std::size_t n,
                                                                 double scale) {
  const double inf = std::numeric_limits<double>::infinity();
  // The maximum of scale·x, then the sums relative to it.
  FmV8d vm = FmV8d{} - inf;
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const FmV8d y = fm_load8(x + i) * scale;
    vm = y > vm ? y : vm;
  }
  double m = -inf;
  for (int l = 0; l < 8; ++l) m = vm[l] > m ? vm[l] : m;
  for (std::size_t j = i; j < n; ++j) m = x[j] * scale > m ? x[j] * scale : m;
  FmV8d vz = FmV8d{}, vw = FmV8d{};
  for (i = 0; i + 8 <= n; i += 8) {
    const FmV8d y = fm_load8(x + i) * scale;
    FmV8d e = y - m;
    fm_exp8(e);
    vz += e;
    vw += y * e;
  }
  if (i < n) {
    // The last values, the unused lanes at y = m (finite) and e = 0.
    double pad[8];
    FmV8i used;
    for (std::size_t l = 0; l < 8; ++l) {
      pad[l] = i + l < n ? x[i + l] * scale : m;
      used[l] = i + l < n ? -1 : 0;
    }
    const FmV8d y = fm_load8(pad);
    FmV8d e = y - m;
    fm_exp8(e);
    e = fm_select(used, e, FmV8d{});
    vz += e;
    vw += y * e;
  }
  return {m, fm_sum8(vz), fm_sum8(vw)};
}
POSENC_DISPATCH(SoftmaxMoments, kernel_softmax, (const double* __restrict x, std::size_t n, double scale), (x, n, scale))

// The matrix product in tiles of R rows × 16 columns held in registers (2R vectors of 8), then
// the columns past the last whole tile one by one; rows past the last whole tile as R = 1.
template <int R>
[[gnu::always_inline]] inline void matmul_rows(std::size_t cols, std::size_t depth, const double* a, std::size_t lda,
                                               const double* b, std::size_t ldb, double* c, std::size_t ldc) {
  std::size_t j = 0;
  for (; j + 16 <= cols; j += 16) {
    FmV8d acc[R][2];
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) acc[r][0] = acc[r][1] = FmV8d{};
    for (std::size_t k = 0; k < depth; ++k) {
      const FmV8d b0 = fm_load8(b + k * ldb + j), b1 = fm_load8(b + k * ldb + j + 8);
#pragma GCC unroll 16
      for (int r = 0; r < R; ++r) {
        const double ar = a[static_cast<std::size_t>(r) * lda + k];
        acc[r][0] += ar * b0;
        acc[r][1] += ar * b1;
      }
    }
#pragma GCC unroll 16
    for (int r = 0; r < R; ++r) {
      fm_store8(c + static_cast<std::size_t>(r) * ldc + j, acc[r][0]);
      fm_store8(c + static_cast<std::size_t>(r) * ldc + j + 8, acc[r][1]);
    }
  }
  for (; j < cols; ++j)
    for (int r = 0; r < R; ++r) {
      double sum = 0;
      for (std::size_t k = 0; k < depth; ++k) sum += a[static_cast<std::size_t>(r) * lda + k] * b[k * ldb + j];
      c[static_cast<std::size_t>(r) * ldc + j] = sum;
    }
}

template <int R>
[[gnu::always_inline]] inline void matmul_all(std::size_t rows, std::size_t cols, std::size_t depth, const double* a,
                                              std::size_t lda, const double* b, std::size_t ldb, double* c,
                                              std::size_t ldc) {
  std::size_t r = 0;
  for (; r + R <= rows; r += R) matmul_rows<R>(cols, depth, a + r * lda, lda, b, ldb, c + r * ldc, ldc);
  for (; r < rows; ++r) matmul_rows<1>(cols, depth, a + r * lda, lda, b, ldb, c + r * ldc, ldc);
}

using MatmulFn = void (*)(std::size_t, std::size_t, std::size_t, const double*, std::size_t, const double*,
                          std::size_t, double*, std::size_t);

// Tiles of 8 rows (16 accumulators) where there are 32 vector registers, of 2 otherwise.
void matmul_generic(std::size_t rows, std::size_t cols, std::size_t depth, const double* a, std::size_t lda,
                    const double* b, std::size_t ldb, double* c, std::size_t ldc) {
  matmul_all<2>(rows, cols, depth, a, lda, b, ldb, c, ldc);
}
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx512f"))) void matmul_avx512(std::size_t rows, std::size_t cols, std::size_t depth,
                                                      const double* a, std::size_t lda, const double* b,
                                                      std::size_t ldb, double* c, std::size_t ldc) {
  matmul_all<8>(rows, cols, depth, a, lda, b, ldb, c, ldc);
}
__attribute__((target("avx2"))) void matmul_avx2(std::size_t rows, std::size_t cols, std::size_t depth,
                                                 const double* a, std::size_t lda, const double* b, std::size_t ldb,
                                                 double* c, std::size_t ldc) {
  matmul_all<2>(rows, cols, depth, a, lda, b, ldb, c, ldc);
}
#endif

MatmulFn pick_matmul() {
#if defined(__x86_64__) && defined(__GNUC__)
  if (cpu::has(cpu::Feature::kAvx512f)) return matmul_avx512;
  if (cpu::has(cpu::Feature::kAvx2)) return matmul_avx2;
#endif
  return matmul_generic;
}

}  // namespace

void sincos_f32_exact(const float* a, std::size_t n, float* s, float* c) {
  constexpr std::size_t kBlock = 256;
  std::uint64_t redo[kBlock];
  double x[kBlock];
  for (std::size_t first = 0; first < n; first += kBlock) {
    const std::size_t m = std::min(kBlock, n - first);
    for (std::size_t i = 0; i < m; ++i) x[i] = static_cast<double>(a[first + i]);
    if (kernel_exact(x, m, s + first, c + first, redo) == 0) continue;
    for (std::size_t i = 0; i < m; ++i) {
      if (redo[i] == 0) continue;
      s[first + i] = static_cast<float>(std::sin(x[i]));
      c[first + i] = static_cast<float>(std::cos(x[i]));
    }
  }
}

void sincos_f64_near(const double* a, std::size_t n, double* s, double* c) {
  constexpr std::size_t kBlock = 256;
  std::uint64_t redo[kBlock];
  for (std::size_t first = 0; first < n; first += kBlock) {
    const std::size_t m = std::min(kBlock, n - first);
    if (kernel_near(a + first, m, s + first, c + first, redo) == 0) continue;
    for (std::size_t i = 0; i < m; ++i)
      if (redo[i] != 0) {
        s[first + i] = std::sin(a[first + i]);
        c[first + i] = std::cos(a[first + i]);
      }
  }
}

// Each runs the fast kernel, then redoes the whole row with std::sin/std::cos when an angle
// was out of its range (rare: huge positions or frequencies, or NaN).
void sincos_f32(std::span<const double> w, double p, float* s, float* c) {
  if (kernel_sincos(w.data(), w.size(), p, s, c) == w.size()) return;
  for (std::size_t i = 0; i < w.size(); ++i) {
    const double x = w[i] * p;
    s[i] = static_cast<float>(std::sin(x));
    c[i] = static_cast<float>(std::cos(x));
  }
}

void sin_f32(std::span<const double> w, double p, float* s) {
  if (kernel_sin(w.data(), w.size(), p, s) == w.size()) return;
  for (std::size_t i = 0; i < w.size(); ++i) s[i] = static_cast<float>(std::sin(w[i] * p));
}

void cos_f32(std::span<const double> w, double p, float* c) {
  if (kernel_cos(w.data(), w.size(), p, c) == w.size()) return;
  for (std::size_t i = 0; i < w.size(); ++i) c[i] = static_cast<float>(std::cos(w[i] * p));
}

void exp_near(const double* x, std::size_t n, double* y) { kernel_exp(x, n, y); }

SoftmaxMoments softmax_moments(const double* x, std::size_t n, double scale) {
  if (n == 0) return {-std::numeric_limits<double>::infinity(), 0.0, 0.0};
  return kernel_softmax(x, n, scale);
}

SoftmaxMoments combine(const SoftmaxMoments& a, const SoftmaxMoments& b) {
  if (b.z == 0) return a;
  if (a.z == 0) return b;
  const double m = std::max(a.m, b.m);
  const double ra = std::exp(a.m - m), rb = std::exp(b.m - m);
  return {m, a.z * ra + b.z * rb, a.w * ra + b.w * rb};
}

void matmul_f64(std::size_t rows, std::size_t cols, std::size_t depth, const double* a, std::size_t lda,
                const double* b, std::size_t ldb, double* c, std::size_t ldc) {
  static const MatmulFn fn = pick_matmul();
  fn(rows, cols, depth, a, lda, b, ldb, c, ldc);
}

}  // namespace posenc
