#include "posenc/analysis/gram.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <thread>
#include <vector>

#include "posenc/parallel.hpp"

namespace posenc::analysis {
namespace {

constexpr std::size_t kR = 4;     // rows per panel: the register tile is kR × kR
constexpr std::size_t kKC = 256;  // k per pass: two panels' chunks (2 × 8 KiB) stay in L1
constexpr std::size_t kJB = 64;   // columns per unit of work (one thread at a time)

// Rows in panels of kR, k-major: v[(panel·D + k)·kR + r] = a(kR·panel + r, k); the rows past
// N are zero (their results are dropped).
struct Packed {
  std::size_t n = 0, d = 0, panels = 0;
  std::vector<double> v;
};

Packed pack(const Matrix& a) {
  Packed p{a.rows(), a.cols(), (a.rows() + kR - 1) / kR, {}};
  check_matrix_memory(p.panels * kR, p.d, "the packed rows of the similarity");
  p.v.assign(p.panels * kR * p.d, 0.0);
  for (std::size_t i = 0; i < p.n; ++i) {
    const auto row = a.row(i);
    double* out = p.v.data() + (i / kR) * p.d * kR + i % kR;
    for (std::size_t k = 0; k < p.d; ++k) out[k * kR] = row[k];
  }
  return p;
}

// acc[i][j] += Σ_{k < kc} f(P[k][i], Q[k][j]), k in order: f = p·q or (p − q)². The fixed 4×4
// shape lets the compiler keep acc in registers and vectorise over j.
template <bool kDistance>
inline void tile(const double* __restrict p_panel, const double* __restrict q_panel, std::size_t kc,
                 double* __restrict acc) {
  double c[kR][kR];
  for (std::size_t i = 0; i < kR; ++i)
    for (std::size_t j = 0; j < kR; ++j) c[i][j] = acc[i * kR + j];
  for (std::size_t k = 0; k < kc; ++k) {
    const double* p = p_panel + kR * k;
    const double* q = q_panel + kR * k;
    for (std::size_t i = 0; i < kR; ++i)
      for (std::size_t j = 0; j < kR; ++j) {
        if constexpr (kDistance) {
          const double t = p[i] - q[j];
          c[i][j] += t * t;
        } else {
          c[i][j] += p[i] * q[j];
        }
      }
  }
  for (std::size_t i = 0; i < kR; ++i)
    for (std::size_t j = 0; j < kR; ++j) acc[i * kR + j] = c[i][j];
}

// Upper triangle (j >= i, by panels) of Σ_k f(a_ik, a_jk) into out (N×N), column blocks of
// kJB handed out to threads largest first.
template <bool kDistance>
void upper(const Packed& a, Matrix& out) {
  const std::size_t n = a.n, d = a.d, panels = a.panels;
  const std::size_t per_block = kJB / kR;
  const std::size_t blocks = (panels + per_block - 1) / per_block;
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    double acc[kR * kR];
    for (std::size_t taken; (taken = next++) < blocks;) {
      const std::size_t b = blocks - 1 - taken;  // the widest blocks first, for balance
      const std::size_t q0 = b * per_block, q1 = std::min(panels, q0 + per_block);
      for (std::size_t p = 0; p < q1; ++p)
        for (std::size_t q = std::max(p, q0); q < q1; ++q) {
          std::fill(acc, acc + kR * kR, 0.0);
          for (std::size_t k0 = 0; k0 < d; k0 += kKC)
            tile<kDistance>(&a.v[(p * d + k0) * kR], &a.v[(q * d + k0) * kR], std::min(kKC, d - k0), acc);
          for (std::size_t i = 0; i < kR && p * kR + i < n; ++i)
            for (std::size_t j = 0; j < kR && q * kR + j < n; ++j) out(p * kR + i, q * kR + j) = acc[i * kR + j];
        }
    }
  };
  const std::size_t workers = std::min<std::size_t>(threads(), blocks);
  if (workers <= 1) {
    work();
    return;
  }
  std::vector<std::thread> pool;
  for (std::size_t t = 0; t < workers; ++t) pool.emplace_back(work);  // work() does not throw
  for (auto& t : pool) t.join();
}

}  // namespace

Matrix symmetric_similarity(const Matrix& a, Metric metric) {
  const std::size_t n = a.rows();
  Matrix s(n, n);
  if (n == 0) return s;
  const Packed packed = pack(a);
  if (metric == Metric::kDistance) {
    upper<true>(packed, s);
  } else {
    upper<false>(packed, s);
  }
  // Finish the upper triangle row by row (cosine reads s(j, j) of later rows, still squared
  // norms then), then mirror it over the lower one, which the tiles left partly filled.
  for (std::size_t i = 0; i < n; ++i) {
    const double nii = s(i, i);
    for (std::size_t j = i; j < n; ++j) {
      double v = s(i, j);
      if (metric == Metric::kDistance) {
        v = std::sqrt(v);
      } else if (metric == Metric::kCosine) {
        v = metric_from_dot(metric, v, nii, s(j, j));
      }
      s(i, j) = v;
    }
  }
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) s(j, i) = s(i, j);
  return s;
}

}  // namespace posenc::analysis
