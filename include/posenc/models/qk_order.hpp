#pragma once
/// The q/k row-order check of a Hugging Face → GGUF conversion (`posenc rope diff --config-a
/// HF_FOLDER --config-b FILE.gguf --weights`; ../shared/reference/weights.md §3.2-§3.4). For each
/// layer and each of q and k, every row map g → r (GGUF row g holds HF row r) of the hypotheses
/// below is scored by the mean over rows of cos(W_gguf[g], W_hf[r]) and the largest relative
/// row error ‖W_gguf[g] − W_hf[r]‖ / ‖W_hf[r]‖ (GGUF rows dequantised, so quantised files work):
///   identity            r = g
///   llama               g = h·d + 2i + j (2i + j < R) ↔ r = h·d + j·R/2 + i, other rows unchanged
///                       (llama.cpp LlamaModel.permute for R = d; the correct partial-rotary map for R < d)
///   llama_whole_head    LlamaModel.permute over the whole head although only R < d rows rotate
///   llama_mha_for_k     k permuted with the q head count (llama.cpp#2376, Llama 2 70B)
///   llama_groups_for_k  k permuted with H/H_kv "heads" (convert.py before PR #3364, TinyLlama)
///   llama_inverse       the inverse of llama (HF interleaved stored, GGUF NEOX: no converter does this)
/// Maps that are the same permutation for this model are scored once, under the first name.
/// Decision (weights.md §3.4): the best map is found when its mean cosine is ≥ 0.9 and every
/// other distinct map's is ≤ 0.5; else "undetermined". The expected map follows from the pairing
/// transformers uses on the stored rows and the one of llama.cpp's rope type for the GGUF's
/// architecture: identity when they agree, llama for half → NORM.
#include <cstdint>
#include <string>
#include <vector>

namespace posenc::models {

struct QkMapScore {
  std::string map;
  double mean_cos = 0;
  double max_rel_err = 0;
};

struct QkOrderTensor {
  std::int64_t layer = 0;
  std::string tensor;  ///< "q", "k", "q_bias", "k_bias"
  std::string hf_name, gguf_name, gguf_dtype;
  std::vector<QkMapScore> scores;  ///< distinct maps, best first
  std::string found_map;           ///< a map name, or "undetermined"
  bool ok = false;                 ///< found_map == expected_map
};

struct QkOrderFinding {
  std::int64_t layer = 0;
  std::string tensor, found_map, expected_map, bug;
};

struct QkOrderReport {
  std::string hf_path, gguf_path, arch, rope_type, hf_layout, hf_layout_source;
  std::int64_t layers = 0, heads = 0, kv_heads = 0, head_dim = 0, rotary_dim = 0;
  std::string expected_map;
  std::vector<QkOrderTensor> tensors;
  std::vector<QkOrderFinding> findings;
  /// GGUF-only checks (§3.6): one line each, and whether each passed.
  std::vector<std::pair<std::string, bool>> checks;
  std::vector<std::string> notes;
  bool ok() const;
};

/// The bug a found map matches when the expected one was `expected` (one line).
std::string qk_order_bug(const std::string& found, const std::string& expected);

/// Compares the q/k projections (and biases) of the Hugging Face folder `hf` with those of the
/// GGUF converted from it, layer by layer, streaming. Throws Error for a model whose q/k
/// cannot be compared (fused QKV, MLA, shapes that differ).
QkOrderReport check_qk_order(const std::string& hf, const std::string& gguf);

/// The GGUF-only checks of §3.6 (rope_freqs, rope_factors_long/short against the stored keys),
/// and the row-norm layout heuristic, when no HF folder is given.
QkOrderReport check_gguf_rope_tensors(const std::string& gguf);

}  // namespace posenc::models
