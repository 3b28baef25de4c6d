#pragma once
/// Shaw et al. 2018 ("Self-Attention with Relative Position Representations"): a learned
/// vector per clipped relative distance, e_ij = q_i·(k_j + a_ij)/√d with a_ij = w[index(i, j)].
/// The index each implementation looks up (query i, key j):
///   t2t: tensor2tensor `common_attention._generate_relative_positions_matrix` @ 75b75f2e:
///        clip(j − i, −k, k) + k (key minus query; 2k + 1 rows; max_relative_position; with
///        length_k > length_q the queries sit at the last length_q key positions);
///   hf:  transformers BERT `relative_key` / `relative_key_query` (`modeling_bert.py` @ 004ad5f5):
///        (i − j) + max_position_embeddings − 1 (query minus key, no clipping; 2·max − 1 rows).
/// The two conventions read the table in opposite directions.
#include <cstdint>

namespace posenc::encodings {

enum class ShawConvention { kT2t, kHf };

struct ShawOptions {
  ShawConvention convention = ShawConvention::kT2t;
  std::int64_t k = 16;              ///< t2t's max_relative_position
  std::int64_t max_position = 512;  ///< hf's max_position_embeddings
  /// t2t: position of query i is i + query_offset (length_k − length_q: the queries are the last
  /// length_q key positions); hf numbers queries from 0 (arange(query_length)).
  std::int64_t query_offset = 0;
};

/// The signed relative distance the convention looks up: clip(j − (i + query_offset), −k, k) (t2t)
/// or i − j (hf).
std::int64_t shaw_distance(std::int64_t i, std::int64_t j, const ShawOptions& o);

/// The row of the relative embedding table: distance + k (t2t) or distance + max_position − 1 (hf).
std::int64_t shaw_index(std::int64_t i, std::int64_t j, const ShawOptions& o);

}  // namespace posenc::encodings
