#pragma once
// The tensors of a checkpoint or GGUF as model_weights*.cpp use them (internal).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "posenc/formats/gguf.hpp"
#include "posenc/models/model_weights.hpp"

namespace posenc::models::detail {

struct StoredTensor {
  std::string name, dtype;
  std::vector<std::uint64_t> shape;           ///< PyTorch order
  std::function<std::vector<double>()> read;  ///< its values, row-major (read on demand)
};

struct StoredWeights {
  std::string source;
  std::shared_ptr<const formats::GgufFile> gguf;  ///< the .gguf read (its keys), null for safetensors
  std::vector<StoredTensor> tensors;
  /// The tensor named `key`, else the one tensor whose name ends with ".SUFFIX" for the
  /// longest suffix of `key` (at least two components) that one tensor ends with; nullptr
  /// when none, `*ambiguous` set to the suffix when two tensors end with it.
  const StoredTensor* find(const std::string& key, std::string* ambiguous = nullptr) const;
};

/// A .gguf's rope_freqs / rope_factors_* (in `rope`, stored values read) against what the file's
/// keys determine: llama3 factors when rope.scaling.factor, low_freq_factor, high_freq_factor and
/// original_context_length are all keys (t.expected, max_rel_diff), else a finding saying why
/// nothing predicts them; a tensor shorter than the rotated pairs is a finding.
void gguf_rope_expectations(const formats::GgufFile& f, std::vector<RopeTensorWeights>& rope,
                            std::vector<std::string>& findings);

/// The L2 norm of every row of t.values into t.row_norm.
void fill_row_norms(TableWeights& t);

/// Reformer's axial table (m.values holds axial_pos_shape and axial_pos_embds_dim): weights.0
/// and weights.1 read and built into the table AxialPositionEmbeddings gives; false (with a
/// note on m) when they are missing or do not have the shapes the config gives.
bool axial_table_rule(MechanismUse& m, const StoredWeights& w, MechanismWeights& out);

/// Reads `m`'s stored values from `w` with its family's row rule into m.weights; false when
/// the mechanism has no stored tensor in `w`.
bool attach_mechanism_weights(const ModelReport& r, MechanismUse& m, const StoredWeights& w);

}  // namespace posenc::models::detail
