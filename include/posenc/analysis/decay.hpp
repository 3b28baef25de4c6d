#pragma once
/// Decay curves: how the similarity of two positions falls with their offset Δ.
/// Offsets are Δ = key − query: position T is compared with T + Δ.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "posenc/analysis/sinusoids.hpp"
#include "posenc/encodings/t5.hpp"
#include "posenc/matrix.hpp"

namespace posenc::analysis {

/// One named curve over the offsets.
struct Series {
  std::string name;
  std::vector<double> values;
};

/// Δ = 0..max_offset; with `symmetric` −max_offset..max_offset; with `past_only` (causal
/// schemes, whose later keys are masked) −max_offset..0. Ascending.
std::vector<std::int64_t> decay_offsets(std::int64_t max_offset, bool symmetric, bool past_only = false);

/// The first and last offset of decay_offsets, without the vector (a streamed curve takes it in parts).
std::pair<std::int64_t, std::int64_t> decay_offset_range(std::int64_t max_offset, bool symmetric, bool past_only = false);

/// metric(PE_T, PE_{T+Δ}) from the rows of `pe` (row r = position r). Throws Error naming
/// --from/--max-offset when T + Δ leaves the table.
std::vector<double> decay_direct(const Matrix& pe, std::int64_t from, const std::vector<std::int64_t>& offsets,
                                 Metric metric);

/// Closed form for sin/cos tables: dot = Σ_k cos(ω_k Δ); cosine = dot / K (each row has
/// norm² K); distance = sqrt(2K − 2·dot). Independent of T. O(K) per offset.
std::vector<double> decay_sinusoids(const Sinusoids& s, const std::vector<std::int64_t>& offsets, Metric metric);

/// RoFormer's long-term-decay "relative upper bound" (Su et al. 2021, §3.4.3, Fig. 2):
/// (1/(d/2)) Σ_{j=1}^{d/2} |S_j|, S_j = Σ_{k=0}^{j−1} e^{iΔθ_k}, for inverse frequencies θ.
/// It is relative: it bounds |score| / ((d/2)·roformer_step), not the score (see roformer_step).
/// Consecutive offsets step e^{iΔθ_k} by one rotation (re-anchored every 256 offsets, within
/// 1e-12·d of the direct sum), on worker threads.
std::vector<double> roformer_bound(const std::vector<double>& theta, const std::vector<std::int64_t>& offsets);

/// RoFormer's max_i |h_{i+1} − h_i| (§3.4.3, Abel summation, h_{d/2} = 0), h_i = q̃_i conj(k̃_i)
/// with pairs read in `interleaved` or half layout: |<R_T q, R_{T+Δ} k>| ≤ roformer_step ·
/// Σ_j |S_j| = roformer_step · (d/2) · roformer_bound. For q = k = ones, h_i = 2: the step is 2.
double roformer_step(const std::vector<double>& theta, const std::vector<double>& q, const std::vector<double>& k,
                     bool interleaved);

/// <R_T q, R_{T+Δ} k> for q = k = all ones: Σ_i 2 cos(Δθ_i), by sinusoid_dots' kernel.
std::vector<double> rope_ones_dot(const std::vector<double>& theta, const std::vector<std::int64_t>& offsets);

/// <R_T q, R_{T+Δ} k> = Re Σ_i q̃_i conj(k̃_i) e^{−iΔθ_i} for fixed q, k (pairs read in
/// `interleaved` or half layout), the same for every T: O(d) per offset. When every
/// q̃_i conj(k̃_i) is one real c (q = k = ones: c = 2) it is c·Σ_i cos(Δθ_i), sinusoid_dots' kernel.
std::vector<double> rope_qk_decay(const std::vector<double>& theta, const std::vector<double>& q,
                                  const std::vector<double>& k, bool interleaved,
                                  const std::vector<std::int64_t>& offsets);

/// |R_T q − R_{T+Δ} k| for fixed q, k, the same for every T. Computed per pair without the
/// cancellation of sqrt(|q|² + |k|² − 2·score) (which leaves ~1e-7 at Δ = 0 for q = k):
/// q̃ − k̃ e^{iΔθ} = (q̃ − k̃) + k̃ (2 sin²(Δθ/2) − i sin Δθ), exactly 0 for q = k at Δ = 0 and
/// accurate to rounding of the result for small Δ. O(d) per offset.
std::vector<double> rope_qk_distance(const std::vector<double>& theta, const std::vector<double>& q,
                                     const std::vector<double>& k, bool interleaved,
                                     const std::vector<std::int64_t>& offsets);

/// ALiBi bias against the offset for one head: −m·|Δ|. The causal form m·j equals this
/// up to the row constant m·T (softmax ignores it) for the visible keys Δ <= 0; with
/// `causal`, later keys (Δ > 0) are masked: −inf, as in the alibi table.
std::vector<double> alibi_decay(double slope, const std::vector<std::int64_t>& offsets, bool causal = false);

/// T5 bucket of rp = Δ.
std::vector<double> t5_decay(const encodings::T5Options& options, const std::vector<std::int64_t>& offsets);

}  // namespace posenc::analysis
