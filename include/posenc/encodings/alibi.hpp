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
  kShifted,    ///< MPT's build_alibi_bias: m·(j − (M − 1)) for j ≤ i (0 at the last of M keys), −inf for j > i
};

/// Whose code computes the slopes and the biases (--variant; see alibi_slopes_for).
enum class AlibiVariant {
  kPaper,     ///< the paper's get_slopes in double precision (the default)
  kBloom,     ///< transformers' BLOOM build_alibi_tensor: float32 pow slopes, float32 products
  kFalcon,    ///< Falcon-RW's build_alibi_tensor: BLOOM's slopes rounded to bfloat16, bfloat16 positions and products
  kMpt,       ///< MPT's gen_slopes (alibi_bias_max) and build_alibi_bias: float32
  kBaichuan,  ///< Baichuan-13B's _get_interleave (the paper's recursion in Python floats) cast to
              ///< float32 by torch.Tensor, and _gen_alibi_mask's float32 product m·j
};

/// Parses --variant (paper, bloom, falcon, mpt, baichuan); throws Error otherwise.
AlibiVariant parse_alibi_variant(const std::string& name);

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
/// The causal and symmetric forms differ by m·i, a constant per row that softmax ignores under
/// the causal mask; the shifted form (over `keys` keys) differs from the causal one by
/// −m·(keys − 1), a constant.
double alibi_bias(double m, std::int64_t i, std::int64_t j, AlibiForm form, std::int64_t keys = 0);

/// The slopes of `heads` heads as `variant` computes them: kPaper is alibi_slopes; kBloom, kFalcon
/// and kMpt are alibi_slopes_of ("bloom", "falcon", "mpt" with `alibi_bias_max`); kBaichuan
/// is the paper's recursion start·start^k, start = 2^(−2^−(log2 P − 3)), in double, rounded to float32.
std::vector<double> alibi_slopes_for(AlibiVariant variant, std::int64_t heads, double alibi_bias_max = 8.0);

/// alibi_bias in the variant's arithmetic: kPaper in double; kBloom, kMpt and kBaichuan round the
/// position factor and the product to float32 (slope · position, as a float32 tensor times an
/// integer tensor); kFalcon rounds the position factor and the product to bfloat16 (PyTorch
/// casts the integer positions to the bfloat16 slopes' dtype: positions above 256 step by 2 or more).
double alibi_bias_in(AlibiVariant variant, double m, std::int64_t i, std::int64_t j, AlibiForm form,
                     std::int64_t keys);

/// The len×len bias matrix of one head.
Matrix alibi_matrix(std::int64_t len, double slope, AlibiForm form);

}  // namespace posenc::encodings
