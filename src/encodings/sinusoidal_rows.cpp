// The rows of the sinusoidal table: in double (std::sin/std::cos), in float32 through the fast
// kernel (sincos_f32), and as transformers' float32 tensors (float32 angles, sin/cos rounded
// once: sincos_f32_exact, the same bits as std::sin/std::cos of the angle, vectorised).
#include <algorithm>
#include <cmath>

#include "posenc/encodings/sinusoidal.hpp"
#include "posenc/fast_math.hpp"

namespace posenc::encodings {
namespace {

// Pairs per slice of a row: the contiguous sin and cos results live on the stack.
constexpr std::size_t kSinusoidSlice = 256;

// s[0..n) and c[0..n) into `out` from pair `first` on: interleaved (sin_k at 2k, cos_k at
// 2k+1) or split (sines, then cosines from column `pairs`).
template <class T>
void place_sinusoid_slice(const float* __restrict s, const float* __restrict c, std::size_t first, std::size_t n,
                          std::size_t pairs, SinusoidalLayout layout, T* __restrict out) {
  if (layout == SinusoidalLayout::kInterleaved) {
    T* o = out + 2 * first;
    for (std::size_t k = 0; k < n; ++k) {
      o[2 * k] = static_cast<T>(s[k]);
      o[2 * k + 1] = static_cast<T>(c[k]);
    }
  } else {
    for (std::size_t k = 0; k < n; ++k) out[first + k] = static_cast<T>(s[k]);
    for (std::size_t k = 0; k < n; ++k) out[pairs + first + k] = static_cast<T>(c[k]);
  }
}

template <class T>
void torch_f32_row(double position, std::span<const double> w, SinusoidalLayout layout, std::span<T> out) {
  const std::size_t pairs = w.size();
  const auto p = static_cast<double>(static_cast<float>(position));
  float angle[kSinusoidSlice], s[kSinusoidSlice], c[kSinusoidSlice];
  for (std::size_t first = 0; first < pairs; first += kSinusoidSlice) {
    const std::size_t n = std::min(kSinusoidSlice, pairs - first);
    for (std::size_t k = 0; k < n; ++k) angle[k] = static_cast<float>(p * w[first + k]);  // exact product, rounded once
    sincos_f32_exact(angle, n, s, c);
    place_sinusoid_slice(s, c, first, n, pairs, layout, out.data());
  }
  std::fill(out.begin() + static_cast<std::ptrdiff_t>(2 * pairs), out.end(), T{0});
}

}  // namespace

void sinusoidal_row_torch_f32(double position, std::span<const double> w, SinusoidalLayout layout,
                              std::span<double> out) {
  torch_f32_row(position, w, layout, out);
}

void sinusoidal_row_torch_f32(double position, std::span<const double> w, SinusoidalLayout layout,
                              std::span<float> out) {
  torch_f32_row(position, w, layout, out);
}

void sinusoidal_row(double position, std::span<const double> w, SinusoidalLayout layout, std::span<double> out) {
  const std::size_t pairs = w.size();
  for (std::size_t k = 0; k < pairs; ++k) {
    const double angle = w[k] * position;
    const std::size_t s = layout == SinusoidalLayout::kInterleaved ? 2 * k : k;
    const std::size_t c = layout == SinusoidalLayout::kInterleaved ? 2 * k + 1 : pairs + k;
    out[s] = std::sin(angle);
    out[c] = std::cos(angle);
  }
  for (std::size_t i = 2 * pairs; i < out.size(); ++i) out[i] = 0.0;
}

void sinusoidal_row_f32(double position, std::span<const double> w, SinusoidalLayout layout, std::span<float> out) {
  const std::size_t pairs = w.size();
  if (layout == SinusoidalLayout::kSplit) {
    sincos_f32(w, position, out.data(), out.data() + pairs);
  } else {
    float s[kSinusoidSlice], c[kSinusoidSlice];  // contiguous results, then interleaved
    for (std::size_t first = 0; first < pairs; first += kSinusoidSlice) {
      const std::size_t n = std::min(kSinusoidSlice, pairs - first);
      sincos_f32(w.subspan(first, n), position, s, c);
      place_sinusoid_slice(s, c, first, n, pairs, layout, out.data());
    }
  }
  std::fill(out.begin() + static_cast<std::ptrdiff_t>(2 * pairs), out.end(), 0.0f);
}

}  // namespace posenc::encodings
