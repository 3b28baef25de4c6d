#include "posenc/analysis/decay.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>

#include "posenc/analysis/rotary.hpp"
#include "posenc/error.hpp"
#include "posenc/parallel.hpp"

namespace posenc::analysis {

std::pair<std::int64_t, std::int64_t> decay_offset_range(std::int64_t max_offset, bool symmetric, bool past_only) {
  if (max_offset < 0) throw Error(fmt::format("--max-offset must be at least 0 (got {})", max_offset));
  return {symmetric || past_only ? -max_offset : 0, past_only && !symmetric ? 0 : max_offset};
}

std::vector<std::int64_t> decay_offsets(std::int64_t max_offset, bool symmetric, bool past_only) {
  const auto [lo, hi] = decay_offset_range(max_offset, symmetric, past_only);
  std::vector<std::int64_t> out;
  out.reserve(static_cast<std::size_t>(hi - lo + 1));
  for (std::int64_t d = lo; d <= hi; ++d) out.push_back(d);
  return out;
}

std::vector<double> decay_direct(const Matrix& pe, std::int64_t from, const std::vector<std::int64_t>& offsets,
                                 Metric metric) {
  const auto n = static_cast<std::int64_t>(pe.rows());
  if (from < 0 || from >= n)
    throw Error(fmt::format("--from {} is outside the table's {} positions", from, n));
  auto norm2 = [&](std::int64_t r) {
    double s = 0.0;
    for (double v : pe.row(static_cast<std::size_t>(r))) s += v * v;
    return s;
  };
  const double na = norm2(from);
  std::vector<double> out;
  out.reserve(offsets.size());
  for (std::int64_t d : offsets) {
    const std::int64_t t = from + d;
    if (t < 0 || t >= n)
      throw Error(fmt::format("--from {} with offset {} needs position {}, outside the table's {} positions "
                              "(lower --max-offset or give more positions)",
                              from, d, t, n));
    const auto a = pe.row(static_cast<std::size_t>(from));
    const auto b = pe.row(static_cast<std::size_t>(t));
    if (metric == Metric::kDistance) {
      double s = 0.0;
      for (std::size_t c = 0; c < a.size(); ++c) s += (a[c] - b[c]) * (a[c] - b[c]);
      out.push_back(std::sqrt(s));
      continue;
    }
    double dot = 0.0;
    for (std::size_t c = 0; c < a.size(); ++c) dot += a[c] * b[c];
    out.push_back(metric_from_dot(metric, dot, na, norm2(t)));
  }
  return out;
}

std::vector<double> decay_sinusoids(const Sinusoids& s, const std::vector<std::int64_t>& offsets, Metric metric) {
  const auto k = static_cast<double>(s.omega.size());
  std::vector<double> out;
  out.reserve(offsets.size());
  for (const double dot : sinusoid_dots(s, offsets)) out.push_back(metric_from_dot(metric, dot, k, k));
  return out;
}

namespace {

// Offsets per anchored run of roformer_bound: e^{iΔθ_k} is stepped by multiplication, whose
// rounding grows about linearly (1e-13 after 256 steps), then taken afresh from cos/sin.
constexpr std::size_t kBoundChunk = 256;

// (1/n) Σ_j |S_j| for offsets [i0, i1); z, scratch of n complex values each.
void bound_chunk(const std::vector<double>& theta, const std::vector<double>& step_re,
                 const std::vector<double>& step_im, const std::vector<std::int64_t>& offsets, std::size_t i0,
                 std::size_t i1, double* out, std::vector<double>& z) {
  const std::size_t n = theta.size();
  z.resize(2 * n);
  double* re = z.data();
  double* im = re + n;
  for (std::size_t i = i0; i < i1; ++i) {
    const bool fresh = i == i0 || offsets[i] != offsets[i - 1] + 1;
    double pr = 0.0, pi = 0.0, sum = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
      if (fresh) {
        const double a = static_cast<double>(offsets[i]) * theta[k];
        re[k] = std::cos(a), im[k] = std::sin(a);
      } else {  // z ← z·e^{iθ_k}
        const double c = step_re[k], s = step_im[k];
        const double r = re[k] * c - im[k] * s;
        im[k] = re[k] * s + im[k] * c;
        re[k] = r;
      }
      pr += re[k], pi += im[k];  // S_{k+1} includes θ_0 … θ_k
      sum += std::sqrt(pr * pr + pi * pi);
    }
    out[i] = n == 0 ? 0.0 : sum / static_cast<double>(n);
  }
}

}  // namespace

std::vector<double> roformer_bound(const std::vector<double>& theta, const std::vector<std::int64_t>& offsets) {
  std::vector<double> out(offsets.size()), step_re, step_im;
  for (const double th : theta) step_re.push_back(std::cos(th)), step_im.push_back(std::sin(th));
  pipeline<std::vector<double>>(
      (offsets.size() + kBoundChunk - 1) / kBoundChunk, 4,
      [&](std::size_t first, std::size_t count, std::vector<double>& z) {
        for (std::size_t c = first; c < first + count; ++c)
          bound_chunk(theta, step_re, step_im, offsets, c * kBoundChunk, std::min(offsets.size(), (c + 1) * kBoundChunk), out.data(), z);
      },
      [](std::size_t, std::size_t, const std::vector<double>&) {});
  return out;
}

double roformer_step(const std::vector<double>& theta, const std::vector<double>& q, const std::vector<double>& k,
                     bool interleaved) {
  const RopeLayout layout = interleaved ? RopeLayout::kInterleaved : RopeLayout::kHalf;
  const auto h = [&](std::size_t i) {
    if (i >= theta.size()) return std::complex<double>(0.0);  // h_{d/2} = 0
    const auto [a, b] = rope_pair(layout, q.size(), i);
    return std::complex<double>(q[a], q[b]) * std::conj(std::complex<double>(k[a], k[b]));
  };
  double step = 0.0;
  for (std::size_t i = 0; i < theta.size(); ++i) step = std::max(step, std::abs(h(i + 1) - h(i)));
  return step;
}

std::vector<double> rope_ones_dot(const std::vector<double>& theta, const std::vector<std::int64_t>& offsets) {
  auto out = sinusoid_dots(interleaved_sinusoids(theta, 2 * theta.size()), offsets);
  for (double& v : out) v *= 2.0;  // each pair adds |q̃|² cos = 2 cos
  return out;
}

std::vector<double> rope_qk_decay(const std::vector<double>& theta, const std::vector<double>& q,
                                  const std::vector<double>& k, bool interleaved,
                                  const std::vector<std::int64_t>& offsets) {
  const RopeLayout layout = interleaved ? RopeLayout::kInterleaved : RopeLayout::kHalf;
  // h_i = q̃_i conj(k̃_i) all one real c: the score is c·Σ cos(Δθ_i), the sinusoidal kernel.
  bool uniform = !theta.empty();
  std::complex<double> h0;
  for (std::size_t i = 0; i < theta.size() && uniform; ++i) {
    const auto [a, b] = rope_pair(layout, q.size(), i);
    const auto h = std::complex<double>(q[a], q[b]) * std::conj(std::complex<double>(k[a], k[b]));
    if (i == 0) h0 = h;
    uniform = h == h0 && h.imag() == 0.0;
  }
  if (uniform) {
    auto out = sinusoid_dots(interleaved_sinusoids(theta, 2 * theta.size()), offsets);
    for (double& v : out) v *= h0.real();
    return out;
  }
  std::vector<double> out;
  out.reserve(offsets.size());
  for (std::int64_t d : offsets) out.push_back(rope_complex_score(q, k, 0.0, static_cast<double>(d), theta, layout));
  return out;
}

std::vector<double> rope_qk_distance(const std::vector<double>& theta, const std::vector<double>& q,
                                     const std::vector<double>& k, bool interleaved,
                                     const std::vector<std::int64_t>& offsets) {
  const RopeLayout layout = interleaved ? RopeLayout::kInterleaved : RopeLayout::kHalf;
  std::vector<double> out;
  out.reserve(offsets.size());
  for (std::int64_t d : offsets) {
    double sum = 0.0;
    for (std::size_t i = 0; i < theta.size(); ++i) {
      const auto [a, b] = rope_pair(layout, q.size(), i);
      const double phi = static_cast<double>(d) * theta[i];
      const double h = std::sin(0.5 * phi);
      // 1 − e^{iφ} = 2 sin²(φ/2) − i sin φ: no difference of nearly equal numbers.
      const std::complex<double> one_minus(2.0 * h * h, -std::sin(phi));
      const std::complex<double> kk(k[a], k[b]);
      const std::complex<double> diff = std::complex<double>(q[a] - k[a], q[b] - k[b]) + kk * one_minus;
      sum += std::norm(diff);
    }
    out.push_back(std::sqrt(sum));
  }
  return out;
}

std::vector<double> alibi_decay(double slope, const std::vector<std::int64_t>& offsets, bool causal) {
  std::vector<double> out;
  out.reserve(offsets.size());
  for (std::int64_t d : offsets)
    out.push_back(causal && d > 0 ? -std::numeric_limits<double>::infinity()
                                  : 0.0 - slope * static_cast<double>(d < 0 ? -d : d));  // 0 - x: no -0 at delta 0
  return out;
}

std::vector<double> t5_decay(const encodings::T5Options& options, const std::vector<std::int64_t>& offsets) {
  std::vector<double> out;
  out.reserve(offsets.size());
  for (std::int64_t d : offsets) out.push_back(static_cast<double>(encodings::t5_bucket(d, options)));
  return out;
}

}  // namespace posenc::analysis
