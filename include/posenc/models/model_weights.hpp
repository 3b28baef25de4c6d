#pragma once
/// `posenc model` on a folder with safetensors weights, or a .gguf with tensors (issue 28 item
/// 4): each position mechanism read from its trained values, with the family's row rule
/// (../shared/reference/weights.md §4): which stored row position 0 uses, which rows positions
/// use and which they never use, per-row norms; the Whisper encoder's table against its
/// formula; a vision tower's class row and patch grid; T5's bias per bucket and head; stored
/// RoPE tensors against the frequencies the config gives.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "posenc/models/model_report.hpp"

namespace posenc::models {

/// What analysis::add_weight_statistics finds in a table's used rows (model_weights stats).
struct TableStatistics {
  std::vector<double> neighbour_cosine;  ///< cos(row t, row t + 1) over the used rows
  double neighbour_cosine_mean = 0, neighbour_cosine_min = 0;
  /// The sinusoid table closest to this one: the base b of ω_k = b^(−2k/d) (d = width, k <
  /// d/2) whose cosine-similarity matrix cos_sin(i, j) = (2/d) Σ_k cos(ω_k (j − i)) is closest
  /// to the table's cos(row i, row j) in root mean square over all used pairs (a comparison
  /// that no rotation or permutation of the width changes).
  double sinusoid_base = 0;
  double sinusoid_rms = 0;       ///< that RMS difference
  double sinusoid_rms_base_1e4 = 0;  ///< the same for b = 10000 (the paper's table)
};

/// A stored position table (learned, sinusoidal or a patch grid) with its row rule applied.
struct TableWeights {
  std::string tensor;                 ///< its name in the checkpoint
  std::string dtype;                  ///< "F32", "BF16", ... (safetensors or ggml name)
  std::vector<std::uint64_t> shape;   ///< PyTorch order, as stored
  std::int64_t rows = 0;              ///< stored rows (a [1, N, D] parameter is N rows)
  std::int64_t width = 0;
  std::vector<double> values;         ///< rows × width, row-major
  std::int64_t first_row = 0;         ///< the stored row that position 0 uses
  std::int64_t last_row = 0;          ///< the last stored row a position uses
  std::vector<std::int64_t> unused_rows;  ///< rows no position uses (OPT 0-1, RoBERTa 0-padding_idx)
  std::int64_t padding_row = -1;      ///< RoBERTa's padding_idx row (padding tokens), -1 when none
  std::vector<double> row_norm;       ///< L2 norm of every stored row
  std::optional<double> formula_max_abs_diff;  ///< Whisper encoder: max |stored − sinusoids(t)|
  std::string rule;                   ///< the row rule, for people
  std::int64_t grid_rows = 0, grid_cols = 0;  ///< a patch grid (0 when the table is 1-D)
  bool class_token = false;           ///< a class-token row precedes the grid (row first_row)
  /// A table built from several stored tensors (Reformer's axial weights.0 and weights.1): each
  /// tensor's name and stored shape; `tensor` then names them all and `shape` is the built
  /// table's [rows, width].
  std::vector<std::string> part_tensors;
  std::vector<std::vector<std::uint64_t>> part_shapes;
  std::optional<TableStatistics> statistics;  ///< filled by analysis::add_weight_statistics
};

/// T5's relative_attention_bias of one stack: buckets × heads.
struct BiasWeights {
  std::string tensor, dtype;
  std::vector<std::uint64_t> shape;
  std::int64_t buckets = 0, heads = 0;
  std::vector<double> bias;  ///< buckets × heads, row-major (the stored matrix)
};

/// A stored RoPE tensor (HF rotary_emb.inv_freq, GGUF rope_freqs / rope_factors_*) against what
/// the config (or the GGUF keys) say it must hold.
struct RopeTensorWeights {
  std::string tensor, dtype;
  std::vector<std::uint64_t> shape;
  std::vector<double> stored;
  std::vector<double> expected;       ///< empty when nothing says what it must be
  std::optional<double> max_rel_diff; ///< max_i |stored_i − expected_i| / |expected_i|
  std::int64_t worst_pair = -1;       ///< the i of max_rel_diff
  double tolerance = 0;               ///< the dtype's rounding: a larger difference is a finding
};

struct MechanismWeights {
  std::optional<TableWeights> table;
  std::optional<BiasWeights> bias;
  std::vector<RopeTensorWeights> rope;
  std::vector<std::string> findings;  ///< what the weights say that the config does not
};

/// When the folder of `path` (the config.json read: ModelReport::source) holds safetensors weights, or
/// `path` is a .gguf file with tensor data, attaches to each mechanism of `r` that has stored
/// values its MechanismWeights (MechanismUse::weights) and sets r.weights_source. Throws Error
/// for a checkpoint the readers refuse, or a table whose shape contradicts the config.
void attach_weights(ModelReport& r, const std::string& path);

}  // namespace posenc::models
