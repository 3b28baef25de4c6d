#include "posenc/rope/rope_bounds.hpp"
#include "posenc/cpu.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstring>
#include <numbers>
#include <thread>
#include <vector>

#include "posenc/parallel.hpp"

namespace posenc::rope {
namespace {

/// One rotation step of every pair (c, s turned by cr, sr) and B = Σ c over the pairs: pair i adds
/// to partial sum i mod 4, the four added as (0 + 1) + (2 + 3). Multiplies and adds only, never
/// contracted into fused multiply-adds, so every implementation gives the same bits.
using RotateStep = double (*)(std::size_t P, const double* cr, const double* sr, double* c, double* s);

double rotate_step_scalar(std::size_t P, const double* cr, const double* sr, double* c, double* s) {
  std::array<double, 4> acc = {0, 0, 0, 0};
  for (std::size_t i = 0; i < P; ++i) {
    const double cn = c[i] * cr[i] - s[i] * sr[i];
    s[i] = s[i] * cr[i] + c[i] * sr[i];
    c[i] = cn;
    acc[i & 3] += cn;
  }
  return (acc[0] + acc[1]) + (acc[2] + acc[3]);
}

/// The same with four pairs per AVX vector: lane j holds the pairs i ≡ j (mod 4), in the same
/// order as the scalar loop's partial sums (AVX has no fused multiply-add: the same bits).
__attribute__((target("avx"))) double rotate_step_avx(std::size_t P, const double* cr, const double* sr, double* c,
                                                      double* s) {
  typedef double v4d __attribute__((vector_size(32)));
  v4d acc = {0, 0, 0, 0};
  std::size_t i = 0;
  for (; i + 4 <= P; i += 4) {
    v4d vc, vs, vcr, vsr;
    std::memcpy(&vc, c + i, sizeof vc);
    std::memcpy(&vs, s + i, sizeof vs);
    std::memcpy(&vcr, cr + i, sizeof vcr);
    std::memcpy(&vsr, sr + i, sizeof vsr);
    const v4d cn = vc * vcr - vs * vsr;
    const v4d sn = vs * vcr + vc * vsr;
    std::memcpy(c + i, &cn, sizeof cn);
    std::memcpy(s + i, &sn, sizeof sn);
    acc += cn;
  }
  std::array<double, 4> a = {acc[0], acc[1], acc[2], acc[3]};
  for (; i < P; ++i) {
    const double cn = c[i] * cr[i] - s[i] * sr[i];
    s[i] = s[i] * cr[i] + c[i] * sr[i];
    c[i] = cn;
    a[i & 3] += cn;
  }
  return (a[0] + a[1]) + (a[2] + a[3]);
}

RotateStep rotate_step() {
  static const RotateStep f = cpu::has(cpu::Feature::kAvx) ? rotate_step_avx : rotate_step_scalar;
  return f;
}

/// One block of a scan: steps k in [k0, k1] of stride `step` (k0 a multiple of 512), the angles
/// set from cos and sin at k0 (1 and 0 at k0 = 0) and turned by a rotation per step after it.
/// Returns the first k with B_{k·step} < 0, or 0. A value depends only on (step, k), never on
/// which blocks ran before, so blocks may run in any order.
std::int64_t scan_block(const std::vector<double>& theta, std::int64_t step, std::int64_t k0, std::int64_t k1,
                        const std::vector<double>& cr, const std::vector<double>& sr, std::vector<double>& c,
                        std::vector<double>& s) {
  const std::size_t P = theta.size();
  const RotateStep turn = rotate_step();
  for (std::int64_t k = k0; k <= k1; ++k) {
    double b = 0;
    if (k == k0) {
      std::array<double, 4> acc = {0, 0, 0, 0};
      for (std::size_t i = 0; i < P; ++i) {
        const double a = static_cast<double>(k * step) * theta[i];
        c[i] = k == 0 ? 1.0 : std::cos(a);
        s[i] = k == 0 ? 0.0 : std::sin(a);
        acc[i & 3] += c[i];
      }
      if (k == 0) continue;  // B_0 = d/2 > 0
      b = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    } else {
      b = turn(P, cr.data(), sr.data(), c.data(), s.data());
    }
    if (b < 0) return k;
  }
  return 0;
}

/// B_m ≥ 0 at m = step, 2·step, … ≤ L (every m when step is 1; B_0 = d/2 > 0). The angles turn
/// by a rotation per step (two multiply-adds per pair) and are set again from cos and sin every
/// 512 steps, so that rounding cannot build up over millions of steps. Blocks of 512 steps are
/// independent, so the answer is the same in any order: the block where the previous base failed
/// (`hint`, updated on failure) is tried first, then the others from the last down, as the bases
/// just below the bound fail only at large offsets (d = 128, L = 131072: 4.8× less time than
/// scanning up from m = 0 on one thread; 2^20: 3.6×).
bool bound_holds(const std::vector<double>& theta, std::int64_t L, std::int64_t step, std::int64_t& hint) {
  const std::size_t P = theta.size();
  std::vector<double> cr(P), sr(P);
  for (std::size_t i = 0; i < P; ++i) {
    cr[i] = std::cos(static_cast<double>(step) * theta[i]);
    sr[i] = std::sin(static_cast<double>(step) * theta[i]);
  }
  const std::int64_t last = L / step;  // steps 1 … last
  const std::int64_t blocks = last / 512 + 1;
  const auto fails = [&](std::int64_t b, std::vector<double>& c, std::vector<double>& s) {
    return scan_block(theta, step, b * 512, std::min(b * 512 + 511, last), cr, sr, c, s) > 0;
  };
  std::vector<double> c(P), s(P);
  if (hint >= 0 && hint < blocks && fails(hint, c, s)) return false;
  // The other blocks, from the last down, shared by the worker threads when there are many (the
  // passing base's scan of every offset): whichever block fails, the answer is the same.
  std::atomic<std::int64_t> failed{-1}, next{0};
  const auto work = [&] {
    std::vector<double> wc(P), ws(P);
    while (failed.load(std::memory_order_relaxed) < 0) {
      const std::int64_t j = next.fetch_add(1);
      if (j >= blocks) return;
      const std::int64_t b = blocks - 1 - j;
      if (b != hint && fails(b, wc, ws)) failed.store(b);
    }
  };
  const unsigned workers = blocks >= 64 ? std::min(threads(), 8u) : 1u;
  std::vector<std::thread> pool;
  for (unsigned w = 1; w < workers; ++w) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  if (failed.load() < 0) return true;
  hint = failed.load();
  return false;
}

}  // namespace

std::int64_t critical_dimension(std::int64_t rotary_dim, double base, std::int64_t train_len) {
  const double half = static_cast<double>(rotary_dim) / 2;
  const double turns = std::log(static_cast<double>(train_len) / (2 * std::numbers::pi)) / std::log(base);
  const double d = 2 * std::ceil(half * turns);
  return static_cast<std::int64_t>(std::clamp(d, 0.0, static_cast<double>(rotary_dim)));
}

std::optional<double> min_base(std::int64_t rotary_dim, std::int64_t context_len) {
  if (context_len > kMaxMinBaseLength || rotary_dim < 2) return std::nullopt;
  const auto P = static_cast<std::size_t>(rotary_dim / 2);
  std::vector<double> theta(P);
  std::int64_t hint97 = -1, hint13 = -1, hint1 = -1;  // the block each stride last failed in
  for (int k = 0; k < 200 * 300; ++k) {  // up to 10^302
    const double b = std::pow(10.0, 2 + k / 200.0);
    for (std::size_t i = 0; i < P; ++i)
      theta[i] = std::pow(b, -2.0 * static_cast<double>(i) / static_cast<double>(rotary_dim));
    // Coarse strides first: most bases below the bound fail at a sampled offset, cheaply.
    if (bound_holds(theta, context_len, 97, hint97) && bound_holds(theta, context_len, 13, hint13) &&
        bound_holds(theta, context_len, 1, hint1))
      return b;
  }
  return std::nullopt;
}

}  // namespace posenc::rope
