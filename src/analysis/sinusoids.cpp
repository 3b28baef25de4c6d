#include "posenc/analysis/sinusoids.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "posenc/cpu.hpp"
#include "posenc/error.hpp"
#include "posenc/parallel.hpp"

namespace posenc::analysis {

Sinusoids interleaved_sinusoids(std::vector<double> omega, std::size_t dim) {
  Sinusoids s;
  for (std::size_t k = 0; k < omega.size(); ++k) {
    s.sin_col.push_back(2 * k);
    s.cos_col.push_back(2 * k + 1);
  }
  s.omega = std::move(omega);
  s.dim = dim;
  return s;
}

Sinusoids split_sinusoids(std::vector<double> omega, std::size_t dim) {
  Sinusoids s;
  const std::size_t k_pairs = omega.size();
  for (std::size_t k = 0; k < k_pairs; ++k) {
    s.sin_col.push_back(k);
    s.cos_col.push_back(k_pairs + k);
  }
  s.omega = std::move(omega);
  s.dim = dim;
  return s;
}

Matrix sinusoid_table(const Sinusoids& s, std::size_t len) {
  Matrix m(len, s.dim);
  for (std::size_t r = 0; r < len; ++r) {
    const double p = s.first_position + static_cast<double>(r);
    for (std::size_t k = 0; k < s.omega.size(); ++k) {
      m(r, s.sin_col[k]) = std::sin(s.omega[k] * p);
      m(r, s.cos_col[k]) = std::cos(s.omega[k] * p);
    }
  }
  return m;
}

double sinusoid_dot(const Sinusoids& s, double delta) {
  double sum = 0.0;
  for (double w : s.omega) sum += std::cos(w * delta);
  return sum;
}

namespace {

// Offsets per chunk: each chunk starts from exact std::cos/std::sin and steps by complex
// multiplication, whose rounding error grows about linearly: after 256 steps about 1e-13
// per term, within sinusoid_dots' promise of 1e-12·K.
constexpr std::size_t kChunk = 256;
// Terms summed in separate lanes, in a fixed order: the compiler vectorises the lanes
// (a single running sum would have to stay scalar), and the result does not depend on the
// vector width, the CPU or the number of threads.
constexpr std::size_t kLanes = 8;

/// e^{iω_k} for every k: the rotation by one offset.
struct Steps {
  std::vector<double> re, im;
};

Steps one_steps(const std::vector<double>& omega) {
  Steps st;
  for (const double w : omega) {
    st.re.push_back(std::cos(w));
    st.im.push_back(std::sin(w));
  }
  return st;
}

// Frequencies stepped together through a run of offsets, their z_k held in registers: four
// vectors of four doubles each for the real and imaginary parts and the steps (GCC vector
// extensions: AVX2 registers in the AVX2 clone, SSE2 pairs otherwise).
constexpr std::size_t kBlock = 16;
static_assert(kBlock == 2 * kLanes, "a block adds two rounds of lanes");
typedef double V4 __attribute__((vector_size(32)));

// Loads and stores of four doubles (memcpy: no alignment assumed). They pass a 32-byte
// vector by value, which GCC flags as an ABI change without AVX (-Wpsabi) where they are
// defined and used; they are local and always inlined, so no call ever passes one.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
[[gnu::always_inline]] inline V4 load4(const double* p) {
  V4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
[[gnu::always_inline]] inline void store4(double* p, const V4& v) { std::memcpy(p, &v, sizeof v); }

/// For the frequencies [k0, k0 + 16): z_k ← z_k · e^{iω_k} for t = 1 .. m − 1 (z_k starting
/// at e^{iω_k d} in re, im), adding Re z_k at step t to lane k mod 8 of acc[t]. Blocks are
/// taken in increasing k, and within a block lanes get k0 + j before k0 + 8 + j: each lane
/// sums its terms in the order of k, as step_one does.
[[gnu::always_inline]] inline void step_block16_body(const double* re, const double* im, const double* step_re,
                                                    const double* step_im, std::size_t k0, std::size_t m, double* acc) {
  V4 zr[4], zi[4], sr[4], si[4];
  for (std::size_t v = 0; v < 4; ++v) {
    const std::size_t k = k0 + 4 * v;
    zr[v] = load4(re + k), zi[v] = load4(im + k), sr[v] = load4(step_re + k), si[v] = load4(step_im + k);
  }
  for (std::size_t t = 1; t < m; ++t) {
    for (std::size_t v = 0; v < 4; ++v) {
      const V4 r = zr[v] * sr[v] - zi[v] * si[v];
      zi[v] = zr[v] * si[v] + zi[v] * sr[v];
      zr[v] = r;
    }
    double* lane = acc + t * kLanes;
    store4(lane, load4(lane) + zr[0] + zr[2]);
    store4(lane + 4, load4(lane + 4) + zr[1] + zr[3]);
  }
}
POSENC_DISPATCH(void, step_block16,
                (const double* re, const double* im, const double* step_re, const double* step_im, std::size_t k0,
                 std::size_t m, double* acc),
                (re, im, step_re, step_im, k0, m, acc))
#pragma GCC diagnostic pop

/// The same for one frequency k (the last n mod kBlock).
void step_one(double re, double im, double step_re, double step_im, std::size_t k, std::size_t m, double* acc) {
  for (std::size_t t = 1; t < m; ++t) {
    const double r = re * step_re - im * step_im;
    im = re * step_im + im * step_re;
    re = r;
    acc[t * kLanes + k % kLanes] += re;
  }
}

/// Σ_k cos(ω_k d) for the offsets [i0, i1) of `offsets`. A run of consecutive offsets starts
/// from exact std::cos/std::sin and steps z_k = e^{iω_k d} by one rotation an offset; so does
/// anything after a gap, and offset 0, where the sum is exactly K (the distance √(2(K − dot))
/// there must be exactly 0, and it turns a rounding of 1e-13 into 3e-7).
void dots_chunk(const std::vector<double>& omega, const Steps& steps, const std::vector<std::int64_t>& offsets,
                std::size_t i0, std::size_t i1, double* out, std::vector<double>& scratch) {
  const std::size_t n = omega.size();
  scratch.resize(2 * n + (i1 - i0) * kLanes);
  double* re = scratch.data();
  double* im = re + n;
  double* acc = im + n;  // kLanes partial sums per offset of the run
  for (std::size_t start = i0, end; start < i1; start = end) {
    end = start + 1;
    while (end < i1 && offsets[end] == offsets[end - 1] + 1 && offsets[end] != 0) ++end;
    const std::size_t m = end - start;
    std::fill(acc, acc + m * kLanes, 0.0);
    const auto d = static_cast<double>(offsets[start]);
    for (std::size_t k = 0; k < n; ++k) {
      re[k] = std::cos(omega[k] * d);
      im[k] = std::sin(omega[k] * d);
      acc[k % kLanes] += re[k];
    }
    std::size_t k = 0;
    for (; k + kBlock <= n; k += kBlock) step_block16(re, im, steps.re.data(), steps.im.data(), k, m, acc);
    for (; k < n; ++k) step_one(re[k], im[k], steps.re[k], steps.im[k], k, m, acc);
    for (std::size_t t = 0; t < m; ++t) {
      double sum = 0.0;
      for (std::size_t j = 0; j < kLanes; ++j) sum += acc[t * kLanes + j];
      out[start + t] = sum;
    }
  }
}

}  // namespace

std::vector<double> sinusoid_dots(const Sinusoids& s, const std::vector<std::int64_t>& offsets) {
  std::vector<double> out(offsets.size());
  const Steps steps = one_steps(s.omega);
  // Blocks of 4 chunks per pipeline step; chunk boundaries (and so the values) do not
  // depend on the number of threads.
  pipeline<std::vector<double>>(
      (offsets.size() + kChunk - 1) / kChunk, 4,
      [&](std::size_t first, std::size_t n, std::vector<double>& scratch) {
        for (std::size_t c = first; c < first + n; ++c)
          dots_chunk(s.omega, steps, offsets, c * kChunk, std::min(offsets.size(), (c + 1) * kChunk), out.data(),
                     scratch);
      },
      [](std::size_t, std::size_t, const std::vector<double>&) {});
  return out;
}

Metric parse_metric(const std::string& name) {
  if (name == "dot") return Metric::kDot;
  if (name == "cosine") return Metric::kCosine;
  if (name == "distance") return Metric::kDistance;
  throw Error(fmt::format("--metric must be dot, cosine or distance (got '{}')", name));
}

std::string metric_name(Metric m) {
  switch (m) {
    case Metric::kDot: return "dot";
    case Metric::kCosine: return "cosine";
    case Metric::kDistance: return "distance";
  }
  return "dot";
}

double metric_from_dot(Metric m, double dot, double norm2_a, double norm2_b) {
  switch (m) {
    case Metric::kDot: return dot;
    case Metric::kCosine:
      if (norm2_a <= 0.0 || norm2_b <= 0.0) return std::numeric_limits<double>::quiet_NaN();
      return dot / std::sqrt(norm2_a * norm2_b);
    case Metric::kDistance: return std::sqrt(std::max(0.0, norm2_a + norm2_b - 2.0 * dot));
  }
  return dot;
}

}  // namespace posenc::analysis
