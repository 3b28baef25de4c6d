#pragma once
/// ALiBi, attention with linear biases (Press, Smith, Lewis 2021, "Train Short, Test Long",
/// arXiv 2108.12409): no position vectors; each head h adds m_h times a distance to the
/// attention logits.
#include <cstdint>
#include <string>
#include <vector>

#include "posenc/matrix.hpp"

namespace posenc::encodings {

/// Which bias a head adds to logit (i, j), query i, key j.
enum class AlibiForm {
  kSymmetric,  ///< −m·|i − j| (x-transformers, llama.cpp, MPT non-causal); usable without a mask
  kCausal,     ///< the paper's code: m·j for j ≤ i, −inf (masked) for j > i (fairseq, BLOOM)
};

/// Parses --form (symmetric, causal); throws Error otherwise.
AlibiForm parse_alibi_form(const std::string& name);

/// The slopes of `heads` heads, as the paper's code (`get_slopes`) computes them:
/// a power of two n gives m_h = 2^(−8(h+1)/n), h = 0..n−1 (1/2 … 1/256 for n = 8);
/// otherwise, with P = 2^floor(log2 n), slopes(P) followed by every other slope of
/// slopes(2P) (the 1st, 3rd, …) until n slopes: 2^(−4(2e+1)/P), e = 0..n−P−1.
/// Seed 004 writes 2^(−8/n·[0..n]), which starts at slope 1 and has n+1 entries: off by one.
/// Throws Error for heads < 1.
std::vector<double> alibi_slopes(std::int64_t heads);

/// Bias of head slope `m` for query i, key j in `form`; −inf for a masked causal entry.
/// The two forms differ by m·i, a constant per row that softmax ignores under the causal mask.
double alibi_bias(double m, std::int64_t i, std::int64_t j, AlibiForm form);

/// The len×len bias matrix of one head.
Matrix alibi_matrix(std::int64_t len, double slope, AlibiForm form);

}  // namespace posenc::encodings
