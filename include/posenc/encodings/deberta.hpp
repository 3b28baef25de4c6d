#pragma once
/// DeBERTa's log-bucketed relative positions (He et al. 2021; DeBERTa-v2/v3, mDeBERTa, SEW-D),
/// δ = query − key, mid = buckets/2:
///   bucket(δ) = δ if |δ| <= mid, else sign(δ)·(⌈ln(|δ|/mid) / ln((max_relative − 1)/mid)·(mid − 1)⌉ + mid)
///   hf:        transformers `modeling_deberta_v2.py` @ 967ed0db `make_log_bucket_position` (float32
///              torch ops; grows past max_relative: δ = 512 → 256, 600 → 270);
///   microsoft: microsoft/DeBERTa `DeBERTa/deberta/da_utils.py` @ 4d7fe0bd, which clamps δ to
///              ±(max_relative − 1) first (saturates at ±255 for 256/512).
/// The attention reads c2p = clamp(bucket + span, 0, 2·span − 1) (query to key positions) and
/// p2c = clamp(−bucket + span, 0, 2·span − 1), span = buckets (position_buckets).
#include <cstdint>

namespace posenc::encodings {

enum class DebertaImpl { kHf, kMicrosoft };
enum class DebertaIndex { kBucket, kC2p, kP2c };

struct DebertaOptions {
  std::int64_t buckets = 256;       ///< position_buckets (bucket_size)
  std::int64_t max_relative = 512;  ///< max_relative_positions (default max_position_embeddings)
  DebertaImpl impl = DebertaImpl::kHf;
  DebertaIndex index = DebertaIndex::kBucket;
};

/// Throws Error naming --buckets / --max-relative for settings the formula cannot take.
void check_deberta(const DebertaOptions& o);

/// The bucket of δ = query − key.
std::int64_t deberta_bucket(std::int64_t delta, const DebertaOptions& o);

/// What the table holds for δ: the bucket, or the c2p / p2c index into the relative embeddings.
std::int64_t deberta_value(std::int64_t delta, const DebertaOptions& o);

}  // namespace posenc::encodings
