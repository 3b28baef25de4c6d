#pragma once
/// Vectorised kernels: float32 and double sine and cosine, double exponential, softmax moments,
/// a small double matrix product.
///
/// Fast float32 sine and cosine of angles given in double precision, for float32 output.
/// The angle is reduced to r in [−π/4, π/4] in double (Cody–Waite, π/2 in three parts), then
/// sin r and cos r are minimax polynomials in float (Cephes sinf/cosf coefficients), evaluated
/// over whole arrays so that the compiler vectorises them (an AVX2 clone is picked at run time
/// where the CPU has it). Error against std::sin/std::cos of the same double angle: at most
/// 1.6e-7 (tests check 1e-6 up to position 131071 and dimension 4096). Angles beyond
/// kFastAngleLimit fall back to std::sin/std::cos.
#include <cstddef>
#include <span>

namespace posenc {

/// |angle| below which the reduction is exact enough (|k| < 2^20 quarter turns).
inline constexpr double kFastAngleLimit = 1.6e6;

/// s[i] = sin(w[i]·p), c[i] = cos(w[i]·p) as floats, the product w[i]·p taken in double.
void sincos_f32(std::span<const double> w, double p, float* s, float* c);
/// s[i] = sin(w[i]·p) only: the same floats as sincos_f32's s, at about half the cost.
void sin_f32(std::span<const double> w, double p, float* s);
/// c[i] = cos(w[i]·p) only: the same floats as sincos_f32's c.
void cos_f32(std::span<const double> w, double p, float* c);

/// s[i] = (float)std::sin((double)a[i]), c[i] = (float)std::cos((double)a[i]), bit for bit: the
/// float32 cos/sin of transformers and the serving engines (a float32 angle, cos taken in double
/// and rounded). A vectorised double kernel (Cody–Waite reduction, Taylor polynomials to r¹⁷,
/// error below 1e-15 relative) decides the float unless its value lies within 2⁻⁴⁰ (relative)
/// of a float rounding boundary, where std::sin/std::cos decide (about one angle in 10⁵); angles
/// beyond kFastAngleLimit, NaN and infinities go to std::sin/std::cos too.
void sincos_f32_exact(const float* a, std::size_t n, float* s, float* c);

/// s[i], c[i] = sin a[i], cos a[i] in double, within kSinCos64NearError (absolute) of
/// std::sin/std::cos: the vectorised double kernel of sincos_f32_exact (no rounding test), libm
/// for angles beyond kFastAngleLimit, NaN and infinities. For callers that need libm's bits only
/// where they decide something (a maximum): they redo those few angles with std::sin/std::cos.
void sincos_f64_near(const double* a, std::size_t n, double* s, double* c);

/// A bound on |sincos_f64_near − std::sin/std::cos| (kernel error below 1e-15, libm's below one
/// ulp; tests/fast_math_test.cpp measures the difference over 2^20 angles).
inline constexpr double kSinCos64NearError = 4e-15;

/// y[i] = e^{x[i]} within kExpNearUlps ulp (relative 2⁻⁵²·kExpNearUlps) of the exact value:
/// vectorised (x = k·ln 2 + r with |r| ≤ ln 2 / 2, ln 2 in two parts; e^r by its Taylor
/// polynomial to r¹³, whose next term is below 1e-18; then ·2^k). x < −708 gives 0 (e^x below
/// 3.4e-308), x > 709 +inf, NaN NaN.
void exp_near(const double* x, std::size_t n, double* y);

/// A bound on exp_near's error in ulps of the result (tests/fast_math_test.cpp measures it against
/// std::exp over 2^20 arguments in [−708, 709]).
inline constexpr double kExpNearUlps = 2;

/// The moments of a softmax over y = scale·x: m = max y, z = Σ e^{y−m}, w = Σ y·e^{y−m}; then
/// ln Σ e^y = m + ln z and the entropy of softmax(y) is m + ln z − w/z. Empty: {−inf, 0, 0}.
struct SoftmaxMoments {
  double m, z, w;
};

/// softmax_moments of x[0 … n) (exp_near's exponentials; the sums in 8 lanes, then the lanes in
/// a fixed order: the same bits on every CPU).
SoftmaxMoments softmax_moments(const double* x, std::size_t n, double scale);

/// The moments of the values of a and b together (either may be empty).
SoftmaxMoments combine(const SoftmaxMoments& a, const SoftmaxMoments& b);

/// c[r·ldc + j] = Σ_k a[r·lda + k]·b[k·ldb + j] for r < rows, j < cols, k < depth: a small
/// matrix product in registers (tiles of rows × 16 columns, AVX-512 or AVX2 where the CPU has
/// them). Each sum is taken in the order of k, a product then a sum (no FMA): the same bits on
/// every CPU.
void matmul_f64(std::size_t rows, std::size_t cols, std::size_t depth, const double* a, std::size_t lda,
                const double* b, std::size_t ldb, double* c, std::size_t ldc);

}  // namespace posenc
