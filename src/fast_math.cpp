#include "posenc/fast_math.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

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

// `target_clones` compiles each three times (AVX-512, AVX2, baseline) and picks one at load
// time. The build does not contract a*b+c into FMA (-ffp-contract=off, CMakeLists.txt), so
// every clone rounds alike and gives the same bytes.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define POSENC_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define POSENC_CLONES
#endif
POSENC_CLONES std::size_t kernel_sincos(const double* w, std::size_t n, double p, float* s, float* c) {
  return kernel_body<true, true>(w, n, p, s, c);
}
POSENC_CLONES std::size_t kernel_sin(const double* w, std::size_t n, double p, float* s) {
  return kernel_body<true, false>(w, n, p, s, nullptr);
}
POSENC_CLONES std::size_t kernel_cos(const double* w, std::size_t n, double p, float* c) {
  return kernel_body<false, true>(w, n, p, nullptr, c);
}

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
POSENC_CLONES std::uint64_t kernel_near(const double* __restrict a, std::size_t n, double* __restrict s,
                                        double* __restrict c, std::uint64_t* __restrict redo) {
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

POSENC_CLONES std::uint64_t kernel_exact(const double* __restrict a, std::size_t n, float* __restrict s,
                                         float* __restrict c, std::uint64_t* __restrict redo) {
  return exact_body(a, n, s, c, redo);
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

}  // namespace posenc
