#include "posenc/fast_math.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

namespace posenc {
namespace {

// The vectorisable loop; `target_clones` compiles it twice (AVX2 and baseline) and picks one
// at load time. The default ISO mode does not contract a*b+c into FMA, so both clones round
// alike and give the same bytes.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
void kernel(const double* w, std::size_t n, double p, float* s, float* c) {
  constexpr double kTwoOverPi = 0.63661977236758134308;
  constexpr double kMagic = 0x1.8p52;             // adding it rounds to an integer, kept in the low bits
  constexpr double kP1 = 0x1.921fb544p0;          // π/2 in three parts: k·kP1, k·kP2 exact for |k| < 2^20
  constexpr double kP2 = 0x1.0b4611a6p-34;
  constexpr double kP3 = 0x1.3198a2e037073p-69;
  for (std::size_t i = 0; i < n; ++i) {
    const double x = w[i] * p;
    const double t = x * kTwoOverPi + kMagic;
    const double k = t - kMagic;
    const auto q = static_cast<std::uint32_t>(std::bit_cast<std::uint64_t>(t));  // k mod 4 in the low bits
    const auto r = static_cast<float>(((x - k * kP1) - k * kP2) - k * kP3);
    const float z = r * r;
    const float sp = ((-1.9515295891e-4f * z + 8.3321608736e-3f) * z - 1.6666654611e-1f) * z * r + r;
    const float cp = ((2.443315711809948e-5f * z - 1.388731625493765e-3f) * z + 4.166664568298827e-2f) * z * z -
                     0.5f * z + 1.0f;
    // Quadrant k mod 4: (sin, cos) = (s, c), (c, −s), (−s, −c), (−c, s).
    float ss = (q & 1u) ? cp : sp;
    float cc = (q & 1u) ? sp : cp;
    ss = (q & 2u) ? -ss : ss;
    cc = ((q + 1u) & 2u) ? -cc : cc;
    s[i] = ss;
    c[i] = cc;
  }
}

}  // namespace

void sincos_f32(std::span<const double> w, double p, float* s, float* c) {
  double wmax = 0.0;
  for (const double v : w) wmax = std::max(wmax, std::abs(v));
  if (!(wmax * std::abs(p) < kFastAngleLimit)) {  // also NaN
    for (std::size_t i = 0; i < w.size(); ++i) {
      const double x = w[i] * p;
      s[i] = static_cast<float>(std::sin(x));
      c[i] = static_cast<float>(std::cos(x));
    }
    return;
  }
  kernel(w.data(), w.size(), p, s, c);
}

}  // namespace posenc
