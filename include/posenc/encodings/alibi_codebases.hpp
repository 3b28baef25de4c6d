#pragma once
/// ALiBi slopes as the codebases of BLOOM, Falcon and MPT compute them (float32 and bfloat16).
#include <cstdint>
#include <string>
#include <vector>

namespace posenc::encodings {

/// ALiBi slopes as each codebase computes them (float32 tensors):
/// "bloom" (build_alibi_tensor: the paper's get_slopes, base 2^(-2^-(log2 P - 3)) raised to
/// 1..P, the extra heads odd powers of the 2P base), "falcon" (the same, rounded to bfloat16),
/// "mpt" (gen_slopes: 1/2^(k·alibi_bias_max/P'), P' = next power of two, odd then even entries
/// when n is not a power of two).
std::vector<double> alibi_slopes_of(const std::string& codebase, std::int64_t heads, double alibi_bias_max = 8.0);

/// Rounds a float32 value to bfloat16 (round to nearest even), as torch's .bfloat16().
double to_bfloat16(float v);

}  // namespace posenc::encodings
