#pragma once
/// T5 relative position buckets (Raffel et al. 2020, "Exploring the Limits of Transfer
/// Learning", §2.1; Hugging Face transformers `T5Attention._relative_position_bucket`,
/// adapted from mesh-tensorflow). The bias itself is a learned embedding of the bucket id;
/// the bucket ids are what the position scheme decides.
#include <cstdint>

#include "posenc/matrix.hpp"

namespace posenc::encodings {

struct T5Options {
  std::int64_t num_buckets = 32;
  std::int64_t max_distance = 128;
  bool bidirectional = true;  ///< encoder: true; decoder (causal): false
};

/// Throws Error when the options leave no logarithmic range: bidirectional needs
/// num_buckets >= 4, causal >= 2, and max_distance must exceed max_exact (a quarter of
/// the buckets bidirectional, half causal).
void check_t5(const T5Options& options);

/// Bucket of rp = key − query, exactly as `_relative_position_bucket`:
/// bidirectional: nb = buckets/2, +nb if rp > 0, n = |rp|; causal: nb = buckets, n = max(−rp, 0)
/// (every future key lands in bucket 0). max_exact = nb/2; n < max_exact → n; else
/// max_exact + trunc(ln(n/max_exact) / ln(max_distance/max_exact) · (nb − max_exact)), at most
/// nb − 1. The logarithm is evaluated in float32 as in PyTorch (float tensor, float32 log,
/// Python scalars rounded to float32, cast to long truncates toward zero).
std::int64_t t5_bucket(std::int64_t relative_position, const T5Options& options);

/// The query_len × key_len matrix of bucket ids, entry (i, j) = t5_bucket(j − i).
Matrix t5_buckets(std::int64_t query_len, std::int64_t key_len, const T5Options& options);

}  // namespace posenc::encodings
