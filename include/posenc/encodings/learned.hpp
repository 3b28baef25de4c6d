#pragma once
/// A learned (trainable) absolute position table as initialised before training,
/// e.g. GPT-2's 1024×768 `wpe` (nn.Embedding, normal init with std 0.02). It has
/// max_len rows and nothing beyond: it cannot extrapolate (seed 001).
#include <cstdint>
#include <span>

#include "posenc/matrix.hpp"

namespace posenc::encodings {

struct LearnedOptions {
  double stddev = 0.02;          ///< GPT-2's initializer_range
  std::uint64_t seed = 0;
  std::int64_t max_len = 1024;   ///< rows the table has (n_positions)
};

/// SplitMix64 finaliser (Steele, Lea, Flood 2014): z = x + 0x9E3779B97F4A7C15, then
/// z ^= z>>30, z *= 0xBF58476D1CE4E5B9, z ^= z>>27, z *= 0x94D049BB133111EB, z ^= z>>31.
std::uint64_t splitmix64(std::uint64_t x);

/// Seed of row t's std::mt19937_64: splitmix64(splitmix64(seed) ^ t). A bijection in t, so
/// every row of one table has its own stream, and row t does not depend on --len or --max-len.
std::uint64_t learned_row_seed(std::uint64_t seed, std::uint64_t t);

/// Row t: N(0, stddev²) samples by Box–Muller from mt19937_64(learned_row_seed(seed, t)).
/// For each column pair (2j, 2j+1) draw a then b (64-bit outputs), u1 = ((a >> 11) + 1)·2^−53 ∈ (0, 1],
/// u2 = (b >> 11)·2^−53 ∈ [0, 1), r = sqrt(−2 ln u1): out[2j] = stddev·r·cos(2π u2),
/// out[2j+1] = stddev·r·sin(2π u2) (the last sin is dropped when D is odd). The first
/// columns of a row do not depend on D.
void learned_row(std::uint64_t seed, std::uint64_t t, double stddev, std::span<double> out);

/// Throws Error when len > max_len: a learned table has no rows beyond its length.
void check_learned_len(std::int64_t len, std::int64_t max_len);

/// learned: the first len rows of the max_len×D table, PE[t, k] ~ N(0, stddev²) as above.
Matrix learned_table(std::int64_t len, std::int64_t dim, const LearnedOptions& options = {});

}  // namespace posenc::encodings
