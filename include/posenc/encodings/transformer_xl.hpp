#pragma once
/// Transformer-XL's relative sinusoids (Dai et al. 2019; kimiyoung/transformer-xl
/// `pytorch/mem_transformer.py` @ 44781ed2, `PositionalEmbedding` and `RelMultiHeadAttn._rel_shift`):
///   R_t = [sin(t·ω_0) … sin(t·ω_{d/2−1}) | cos(t·ω_0) … cos(t·ω_{d/2−1})],  ω_k = base^(−2k/d)
/// (sines then cosines, concatenated), t = min(distance, clamp_len) when clamp_len > 0. The model
/// feeds R for pos_seq = klen−1, …, 1, 0 (descending) and aligns the position term
/// BD[i][m] = (q_i + v)·W_R R_{pos_seq[m]} with `_rel_shift`: pad a zero column in front,
/// view the qlen × (klen+1) block as (klen+1) × qlen, drop its first row, view as qlen × klen.
/// Then entry (i, j) holds distance (i + mlen) − j for j ≤ i + mlen (mlen = klen − qlen);
/// the entries past it hold the next query's values or the zero pad, and the causal mask hides them.
#include <cstdint>

namespace posenc::encodings {

/// One row of R for distance t (already clamped): d values, sines then cosines.
void transformer_xl_row(double t, std::int64_t dim, double base, double* out);

/// The distance label the shifted BD holds at (i, j) for qlen queries and klen keys: the
/// (clamped) distance of the R row that lands there, or −1 where the zero pad lands.
/// `clamp_len` 0 = no clamp.
std::int64_t transformer_xl_shift_label(std::int64_t i, std::int64_t j, std::int64_t qlen, std::int64_t klen,
                                        std::int64_t clamp_len);

}  // namespace posenc::encodings
