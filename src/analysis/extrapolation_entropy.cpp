// The attention entropy of RoPE against length (posenc extrapolate; the rest of RoPE's analysis
// is in extrapolation.cpp).
//
// The logit of sample s at offset Δ is x_s(Δ) = Σ_i Re[c_si·e^{iΔθ_i}] (c_si = q̃_i·conj(k̃_i)).
// With Δ = Δ0 + j (Δ0 a multiple of kEntropyTile, 0 ≤ j < kEntropyTile) it is
// Σ_i Re[(c_si·e^{iΔ0θ_i})·e^{ijθ_i}]: one table of e^{ijθ} for every frequency serves every
// tile, the anchors e^{iΔ0θ} turn the coefficients once per tile, and the logits of a tile are
// a matrix product (samples × 2·pairs) · (2·pairs × kEntropyTile). No sine is taken per offset,
// and no rotation error accumulates: each logit is a product of two values within 1e-15.
#include "posenc/analysis/extrapolation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "posenc/error.hpp"
#include "posenc/fast_math.hpp"
#include "posenc/parallel.hpp"

namespace posenc::analysis {
namespace {

constexpr std::size_t kEntropyTile = 256;     // offsets per table of e^{ijθ}
constexpr std::size_t kEntropyChunk = 8192;   // offsets per block of the worker threads

// c[u] + i·s[u] = e^{i·n·θ_u} for the exact product n·θ_u: sin and cos of the rounded product
// hi (within kSinCos64NearError), turned by its rounding error lo = n·θ_u − hi (exact by fma,
// |lo| ≤ 2⁻⁵³·|hi|; the dropped lo²/2 is below 1e-19 for |n·θ| < 2²³). Rounding the angle
// instead, as numpy's outer(Δ, θ) does, moves it by up to 1.2e-10 at Δ = 2^20.
void entropy_cis(double n, const std::vector<double>& theta, std::vector<double>& hi, std::vector<double>& lo,
                 double* c, double* s) {
  const std::size_t count = theta.size();
  for (std::size_t u = 0; u < count; ++u) {
    hi[u] = n * theta[u];
    lo[u] = std::fma(n, theta[u], -hi[u]);
  }
  sincos_f64_near(hi.data(), count, s, c);
  for (std::size_t u = 0; u < count; ++u) {
    const double cu = c[u], su = s[u];
    c[u] = cu - su * lo[u];
    s[u] = su + cu * lo[u];
  }
}

// The frequencies of every method, each (pair, θ) once: columns grouped by the set of methods
// that have them, so that a group's part of the logit is summed once and added to each of its
// methods' (Llama 3.1's none, yarn and llama3 share up to 35 of 64 pairs: 212 columns, not 320).
struct EntropyColumns {
  std::vector<double> theta;       // per column, in group order
  std::vector<std::size_t> pair;   // the pair (of q̃, k̃) of each column
  std::vector<std::size_t> start;  // group g holds columns start[g] … start[g+1)
  std::vector<std::vector<std::size_t>> groups_of;  // per method, its groups
};

EntropyColumns entropy_columns(const std::vector<std::span<const double>>& thetas, std::size_t pairs) {
  struct Column {
    double theta;
    std::size_t pair;
    std::vector<bool> methods;
  };
  std::vector<Column> cols;
  for (std::size_t k = 0; k < thetas.size(); ++k)
    for (std::size_t i = 0; i < pairs; ++i) {
      const double v = thetas[k][i];
      auto it = std::find_if(cols.begin(), cols.end(), [&](const Column& c) {
        return c.pair == i && std::memcmp(&c.theta, &v, sizeof v) == 0;
      });
      if (it == cols.end()) {
        cols.push_back({v, i, std::vector<bool>(thetas.size(), false)});
        it = cols.end() - 1;
      }
      it->methods[k] = true;
    }
  std::stable_sort(cols.begin(), cols.end(), [](const Column& a, const Column& b) { return a.methods < b.methods; });
  EntropyColumns out;
  out.groups_of.resize(thetas.size());
  for (std::size_t u = 0; u < cols.size(); ++u) {
    if (u == 0 || cols[u].methods != cols[u - 1].methods) {
      for (std::size_t k = 0; k < thetas.size(); ++k)
        if (cols[u].methods[k]) out.groups_of[k].push_back(out.start.size());
      out.start.push_back(u);
    }
    out.theta.push_back(cols[u].theta);
    out.pair.push_back(cols[u].pair);
  }
  out.start.push_back(cols.size());
  return out;
}

// The work of one pass over the offsets, shared read-only by the worker threads.
struct EntropyPass {
  EntropyColumns cols;
  std::size_t samples = 0, ncol = 0, groups = 0, streams = 0;
  std::vector<double> cre, cim;           // c_su = q̃·conj(k̃) of sample s at column u's pair
  std::vector<double> table;              // rows 2u, 2u+1: cos jθ_u, sin jθ_u for j < kEntropyTile
  std::vector<std::size_t> first_stream;  // method k's streams (one per scale) from first_stream[k]
  std::vector<double> stream_scale;
  std::vector<std::size_t> stream_method;
};

// A worker's buffers for one block of offsets: its moments per stream and sample over the block
// (run) and over the block up to each length that ends in it (snap).
struct EntropyBlock {
  std::vector<double> hi, lo, ac, as, coef, part, x;
  std::vector<std::size_t> cuts;          // the lengths that end in this block
  std::vector<SoftmaxMoments> run, snap;  // [stream][sample], [cut][stream][sample]
};

constexpr std::size_t kEntropySlice = 16;  // samples per matrix product: bounds the buffers

// Offsets d0 … d0+nb−1 (one tile): the logits of every method for samples s0 … s0+ns−1, then
// their moments, split at the lengths cuts[cut] … cuts[cut_end−1] that end in the tile.
void entropy_tile(const EntropyPass& w, std::size_t d0, std::size_t nb, std::size_t s0, std::size_t ns,
                  std::size_t cut, std::size_t cut_end, EntropyBlock& b) {
  const std::size_t ncol = w.ncol, area = kEntropySlice * kEntropyTile;
  // Re[c·A·e^{ijθ}] = Re(c·A)·cos jθ − Im(c·A)·sin jθ, A = e^{i·d0·θ} (b.ac, b.as).
  for (std::size_t s = 0; s < ns; ++s)
    for (std::size_t u = 0; u < ncol; ++u) {
      const double re = w.cre[(s0 + s) * ncol + u], im = w.cim[(s0 + s) * ncol + u];
      b.coef[s * 2 * ncol + 2 * u] = re * b.ac[u] - im * b.as[u];
      b.coef[s * 2 * ncol + 2 * u + 1] = -(re * b.as[u] + im * b.ac[u]);
    }
  for (std::size_t g = 0; g < w.groups; ++g)
    matmul_f64(ns, nb, 2 * (w.cols.start[g + 1] - w.cols.start[g]), b.coef.data() + 2 * w.cols.start[g], 2 * ncol,
               w.table.data() + 2 * w.cols.start[g] * kEntropyTile, kEntropyTile, b.part.data() + g * area,
               kEntropyTile);
  const std::size_t state = w.streams * w.samples;
  for (std::size_t k = 0; k < w.cols.groups_of.size(); ++k) {
    // The method's logits: the sum of its groups' parts.
    const auto& gs = w.cols.groups_of[k];
    const double* x = b.x.data();
    if (gs.empty()) std::fill(b.x.begin(), b.x.end(), 0.0);  // no pairs: every logit 0
    if (gs.size() == 1) x = b.part.data() + gs.front() * area;
    if (gs.size() > 1) {
      const double* g0 = b.part.data() + gs.front() * area;
      std::copy(g0, g0 + ns * kEntropyTile, b.x.begin());
      for (std::size_t g = 1; g < gs.size(); ++g) {
        const double* p = b.part.data() + gs[g] * area;
        for (std::size_t e = 0; e < ns * kEntropyTile; ++e) b.x[e] += p[e];
      }
    }
    for (std::size_t st = w.first_stream[k]; st < w.first_stream[k + 1]; ++st)
      for (std::size_t s = 0; s < ns; ++s) {
        const double* xs = x + s * kEntropyTile;
        SoftmaxMoments& run = b.run[st * w.samples + s0 + s];
        std::size_t pos = 0;
        for (std::size_t c = cut; c < cut_end; ++c) {
          const std::size_t end = b.cuts[c] - d0;
          run = combine(run, softmax_moments(xs + pos, end - pos, w.stream_scale[st]));
          b.snap[c * state + st * w.samples + s0 + s] = run;
          pos = end;
        }
        run = combine(run, softmax_moments(xs + pos, nb - pos, w.stream_scale[st]));
      }
  }
}

// Offsets first … first+count−1 on a worker thread.
void entropy_block(const EntropyPass& w, std::span<const std::int64_t> lengths, std::size_t first, std::size_t count,
                   EntropyBlock& b) {
  const std::size_t ncol = w.ncol;
  b.hi.resize(ncol);
  b.lo.resize(ncol);
  b.ac.resize(ncol);
  b.as.resize(ncol);
  b.coef.resize(kEntropySlice * 2 * ncol);
  b.part.resize(w.groups * kEntropySlice * kEntropyTile);
  b.x.resize(kEntropySlice * kEntropyTile);
  b.cuts.clear();
  for (const std::int64_t n : lengths) {
    const auto v = static_cast<std::size_t>(n);
    if (v > first && v <= first + count && (b.cuts.empty() || b.cuts.back() != v)) b.cuts.push_back(v);
  }
  const std::size_t state = w.streams * w.samples;
  b.run.assign(state, SoftmaxMoments{-INFINITY, 0.0, 0.0});
  b.snap.resize(b.cuts.size() * state);
  std::size_t cut = 0;
  for (std::size_t d0 = first; d0 < first + count; d0 += kEntropyTile) {
    const std::size_t nb = std::min(kEntropyTile, first + count - d0);
    entropy_cis(static_cast<double>(d0), w.cols.theta, b.hi, b.lo, b.ac.data(), b.as.data());
    std::size_t cut_end = cut;  // the lengths that end in this tile
    while (cut_end < b.cuts.size() && b.cuts[cut_end] <= d0 + nb) ++cut_end;
    for (std::size_t s0 = 0; s0 < w.samples; s0 += kEntropySlice)
      entropy_tile(w, d0, nb, s0, std::min(kEntropySlice, w.samples - s0), cut, cut_end, b);
    cut = cut_end;
  }
}

}  // namespace

std::vector<std::vector<std::vector<double>>> rope_attention_entropies_batch(
    const std::vector<std::span<const double>>& thetas, const std::vector<std::vector<double>>& qk,
    std::span<const std::int64_t> lengths, const std::vector<std::vector<double>>& scales) {
  const std::size_t methods = thetas.size();
  const std::size_t pairs = thetas.empty() ? 0 : thetas.front().size();
  for (const auto& t : thetas)
    if (t.size() != pairs) throw Error("rope_attention_entropies_batch: every theta needs the same number of pairs");
  if (scales.size() != methods) throw Error("rope_attention_entropies_batch: one list of scales per theta");
  for (std::size_t l = 0; l < lengths.size(); ++l)
    if (lengths[l] < 1 || (l > 0 && lengths[l] < lengths[l - 1]))
      throw Error(fmt::format("rope_attention_entropies_batch: lengths must be positive and ascending (got {} at {})",
                              lengths[l], l));
  EntropyPass w;
  w.cols = entropy_columns(thetas, pairs);
  w.samples = qk.size() / 2;
  w.ncol = w.cols.theta.size();
  w.groups = w.cols.start.size() - 1;
  const std::size_t samples = w.samples, ncol = w.ncol;
  w.cre.resize(samples * ncol);
  w.cim.resize(samples * ncol);
  for (std::size_t s = 0; s < samples; ++s)
    for (std::size_t u = 0; u < ncol; ++u) {
      const std::size_t i = w.cols.pair[u];
      const double qa = qk[2 * s][2 * i], qb = qk[2 * s][2 * i + 1];
      const double ka = qk[2 * s + 1][2 * i], kb = qk[2 * s + 1][2 * i + 1];
      w.cre[s * ncol + u] = qa * ka + qb * kb;
      w.cim[s * ncol + u] = qb * ka - qa * kb;
    }
  w.table.resize(2 * ncol * kEntropyTile);
  {
    std::vector<double> hi(ncol), lo(ncol), c(ncol), s(ncol);
    for (std::size_t j = 0; j < kEntropyTile; ++j) {
      entropy_cis(static_cast<double>(j), w.cols.theta, hi, lo, c.data(), s.data());
      for (std::size_t u = 0; u < ncol; ++u) {
        w.table[(2 * u) * kEntropyTile + j] = c[u];
        w.table[(2 * u + 1) * kEntropyTile + j] = s[u];
      }
    }
  }
  w.first_stream.assign(methods + 1, 0);
  for (std::size_t k = 0; k < methods; ++k) {
    w.first_stream[k + 1] = w.first_stream[k] + scales[k].size();
    for (double v : scales[k]) {
      w.stream_scale.push_back(v);
      w.stream_method.push_back(k);
    }
  }
  w.streams = w.first_stream[methods];
  const std::size_t state = w.streams * samples;
  std::vector<SoftmaxMoments> total(state, SoftmaxMoments{-INFINITY, 0.0, 0.0});
  std::vector<std::vector<std::vector<double>>> out(methods);
  for (std::size_t k = 0; k < methods; ++k) out[k].resize(scales[k].size());
  std::size_t next = 0;
  const std::size_t last = lengths.empty() ? 0 : static_cast<std::size_t>(lengths.back());
  pipeline<EntropyBlock>(
      last, kEntropyChunk,
      [&](std::size_t first, std::size_t count, EntropyBlock& b) { entropy_block(w, lengths, first, count, b); },
      [&](std::size_t, std::size_t, EntropyBlock& b) {
        // Each length that ends in the block: the moments before the block and in it up to the
        // length; H per sample = m + ln z − w/z, averaged. Then the block joins the total.
        for (std::size_t c = 0; c < b.cuts.size(); ++c)
          for (; next < lengths.size() && static_cast<std::size_t>(lengths[next]) == b.cuts[c]; ++next)
            for (std::size_t st = 0; st < w.streams; ++st) {
              double h = 0;
              for (std::size_t s = 0; s < samples; ++s) {
                const SoftmaxMoments t = combine(total[st * samples + s], b.snap[c * state + st * samples + s]);
                h += t.m + std::log(t.z) - t.w / t.z;
              }
              const std::size_t k = w.stream_method[st];
              out[k][st - w.first_stream[k]].push_back(samples == 0 ? 0.0 : h / static_cast<double>(samples));
            }
        for (std::size_t st = 0; st < state; ++st) total[st] = combine(total[st], b.run[st]);
      });
  return out;
}

std::vector<std::vector<double>> rope_attention_entropies(std::span<const double> theta,
                                                          const std::vector<std::vector<double>>& qk,
                                                          std::span<const std::int64_t> lengths,
                                                          std::span<const double> scales) {
  std::vector<std::vector<double>> s = {std::vector<double>(scales.begin(), scales.end())};
  return std::move(rope_attention_entropies_batch({theta}, qk, lengths, s).front());
}

std::vector<double> rope_attention_entropy(std::span<const double> theta, const std::vector<std::vector<double>>& qk,
                                           std::span<const std::int64_t> lengths, double scale) {
  const double one[] = {scale};
  return std::move(rope_attention_entropies(theta, qk, lengths, one).front());
}

}  // namespace posenc::analysis
