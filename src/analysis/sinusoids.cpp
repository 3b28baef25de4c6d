#include "posenc/analysis/sinusoids.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

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

/// z_k ← z_k · e^{iω_k} for every k; returns Σ_k Re z_k, summed lane by lane.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((target_clones("avx2", "default")))
#endif
double step_and_sum(double* re, double* im, const double* step_re, const double* step_im, std::size_t n) {
  double lane[kLanes] = {};
  std::size_t k = 0;
  for (; k + kLanes <= n; k += kLanes) {
    for (std::size_t j = 0; j < kLanes; ++j) {
      const double r = re[k + j] * step_re[k + j] - im[k + j] * step_im[k + j];
      im[k + j] = re[k + j] * step_im[k + j] + im[k + j] * step_re[k + j];
      re[k + j] = r;
      lane[j] += r;
    }
  }
  for (std::size_t j = 0; k < n; ++k, ++j) {
    const double r = re[k] * step_re[k] - im[k] * step_im[k];
    im[k] = re[k] * step_im[k] + im[k] * step_re[k];
    re[k] = r;
    lane[j] += r;
  }
  double sum = 0.0;
  for (const double x : lane) sum += x;
  return sum;
}

/// Σ_k cos(ω_k d) for the offsets [i0, i1) of `offsets`. A run of consecutive offsets steps
/// z_k = e^{iω_k d} by one rotation; anything else (the first offset, a gap) starts from
/// exact std::cos/std::sin, and so does offset 0, where the sum is exactly K (the distance
/// √(2(K − dot)) there must be exactly 0, and it turns a rounding of 1e-13 into 3e-7).
void dots_chunk(const std::vector<double>& omega, const Steps& steps, const std::vector<std::int64_t>& offsets,
                std::size_t i0, std::size_t i1, double* out, std::vector<double>& scratch) {
  const std::size_t n = omega.size();
  scratch.resize(2 * n);
  double* re = scratch.data();
  double* im = re + n;
  for (std::size_t i = i0; i < i1; ++i) {
    if (i > i0 && offsets[i] == offsets[i - 1] + 1 && offsets[i] != 0) {
      out[i] = step_and_sum(re, im, steps.re.data(), steps.im.data(), n);
      continue;
    }
    const auto d = static_cast<double>(offsets[i]);
    double lane[kLanes] = {};
    for (std::size_t k = 0; k < n; ++k) {
      re[k] = std::cos(omega[k] * d);
      im[k] = std::sin(omega[k] * d);
      lane[k % kLanes] += re[k];
    }
    double sum = 0.0;
    for (const double x : lane) sum += x;
    out[i] = sum;
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
