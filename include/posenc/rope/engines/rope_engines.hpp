#pragma once
/// `posenc rope engines`: every convention (vLLM, SGLang, TensorRT-LLM, MLX-LM, Meta, ggml) laid
/// beside transformers for one model. Computing only; the CLI formats.
#include <cstdint>
#include <string>
#include <vector>

#include "posenc/rope/rope.hpp"
#include "posenc/rope/rope_report.hpp"

namespace posenc::rope {

/// One convention against transformers.
struct RopeEngineRow {
  RopeConvention convention = RopeConvention::kHf;
  bool ok = false;            ///< false: the convention refuses these settings (`error` says why)
  std::string error;
  RopeFrequencies freqs;      ///< as the engine computes them (when ok)
  RopeDiff diff;              ///< against transformers over positions [0, compared_len)
  std::int64_t compared_len = 0;  ///< min(len, cache rows) when the cache does not grow
  bool within = true;         ///< inv_freq, attention factor, logit scale and cos/sin within tol, cache long enough
  std::string verdict;        ///< one line: agrees, or each cause of the difference
};

struct RopeEnginesReport {
  RopeConfig config;          ///< the shared settings, convention hf
  RopeFrequencies hf;
  std::int64_t len = 0;       ///< a sequence of len tokens: positions 0..len−1, current length len
  double tol = 0;
  double noise = 0;           ///< transformers' own float32 vs float64: max |Δcos|, |Δsin| over the positions
  std::vector<RopeEngineRow> rows;  ///< every convention but hf, in registry order

  /// True when every convention that accepts the settings is within tol.
  bool within() const;
};

/// One rope of a model: the layer type whose layers rotate with it and the engines' report.
struct RopeTypeEngines {
  std::string layer_type;            ///< "" when the model has one rope (or --layer-type picked one)
  std::vector<std::int64_t> layers;  ///< the 0-based layers that rotate with it (empty with layer_type "")
  RopeEnginesReport report;
};

/// Every rope of a model (Gemma 3: its full-attention layers' linear ×8 at θ 1e6 and its sliding
/// layers' unscaled θ 1e4), each compared as compare_engines does, by the same verdict rule.
struct ModelEnginesReport {
  std::vector<RopeTypeEngines> ropes;  ///< primary (full attention) first; one entry for one rope
  /// Layers with no RoPE to compare (NoPE layers, non-attention mixers, attention without
  /// positions: Cohere2's and EXAONE 4's global layers, Llama 4's every fourth, Qwen3-Next's
  /// linear attention); empty when every layer rotates or the model's layers are not known.
  std::vector<std::int64_t> no_rope_layers;

  /// True when every convention of every rope that accepts the settings is within tol.
  bool within() const;
};

/// Compares every convention with transformers on `c` (its convention is ignored) for a
/// sequence of `len` tokens (--seq-len len). Throws Error when transformers refuses `c`.
RopeEnginesReport compare_engines(const RopeConfig& c, std::int64_t len, double tol);

}  // namespace posenc::rope
