#pragma once
/// Writers for `posenc extrapolate` (docs/extrapolation.md): aligned text and JSON. They only format.
#include <ostream>

#include "posenc/analysis/extrapolation.hpp"

namespace posenc::reports {

/// The summary per RoPE method, the per-pair angles, the entropy against length, then ALiBi's
/// bias range, T5's saturation and the learned table's missing rows, as the request names them.
void write_extrapolation_text(const analysis::Extrapolation& e, std::ostream& out);

/// JSON object with stable keys (docs/formats.md "extrapolate"): train_len, target_len,
/// samples, seed, lengths, rope[] {method, factor, base, rotary_dim, head_dim, attention_factor,
/// logit_scale, inv_freq_original, inv_freq, angle_train, angle_target, reach, covered, within,
/// beyond, entropy, entropy_without_factor, neighbour_distance_train, neighbour_distance,
/// resolution}, alibi {heads, slopes, min_bias_train, min_bias_target} or null, t5 {num_buckets,
/// max_distance, mode, directions[] {direction, last_bucket, saturation, bucket_train,
/// bucket_target, buckets_train, buckets_target}} or null, learned {rows, first_missing,
/// last_missing, missing} or null.
void write_extrapolation_json(const analysis::Extrapolation& e, std::ostream& out);

}  // namespace posenc::reports
