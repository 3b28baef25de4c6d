#pragma once
/// The q/k projection weights of a checkpoint, as the model's attention uses them for RoPE: a
/// Hugging Face folder (config.json + safetensors) or a llama.cpp GGUF. What a layer rotates is
/// found from the checkpoint's own layout (../shared/reference/weights.md §3.5, §5): the pairing
/// of the stored rows (half: rows i, i + R/2 of a head; interleaved: 2i, 2i + 1), partial rotary
/// (the first R rows of a head), MLA's rope rows (DeepSeek: the last qk_rope_head_dim rows of a q
/// head, the last rows of kv_a_proj_with_mqa shared by every head), fused QKV (Phi-3 qkv_proj and
/// GGUF attn_qkv: [all q | all k | all v]; GPT-NeoX query_key_value: [q | k | v] per head), the
/// input RMSNorm gain γ folded into the columns (Gemma's 1 + γ) and a per-head q/k norm's gain
/// into the rows. Tensors are read one layer at a time as their stored bytes and decoded row by
/// row (BF16, F16, F32, F8, and every ggml type formats::ggml_type_dequantised reads), so a
/// checkpoint is never held in memory: a tensor's bytes are a read-only mapping of its file range
/// (pages come from the page cache without a copy), released with the RawMatrix.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "posenc/models/qk_kernels.hpp"
#include "posenc/rope/rope.hpp"

namespace posenc::models {

/// A 2-D tensor's stored bytes and how to decode a row to float32.
struct RawMatrix {
  std::string name;          ///< tensor name, for messages
  std::string dtype;         ///< "BF16", "Q8_0", ...
  std::int64_t rows = 0, cols = 0;
  std::string_view bytes;    ///< rows × row_bytes: the file's bytes, mapped (or read when mapping fails)
  std::shared_ptr<const void> owner;  ///< keeps `bytes` alive (the mapping, or the string read)
  std::uint64_t row_bytes = 0;
  int st_dtype = -1;         ///< formats::StDtype, or -1
  int ggml_type = -1;        ///< ggml type id, or -1
  bool big_endian = false;   ///< GGUF byte order
  std::vector<float> values; ///< when computed (MLA's q_b·diag(γ)·q_a), instead of bytes
  /// Row r as float32 into out (cols values).
  void row(std::int64_t r, float* out) const;
  /// Row r where it is stored as float32 or BF16 (little-endian), read in place; {nullptr} for
  /// the other types (decode them with row()).
  QkRowPtr stored(std::int64_t r) const;
};

/// Reads tensor `name` of a safetensors checkpoint or GGUF file (opened by open_qk_model) as a
/// RawMatrix (1-D tensors as one row); nullptr when absent.
struct QkFiles;
std::shared_ptr<const RawMatrix> read_raw_matrix(const QkFiles& f, const std::string& name);

/// One projection's rotary rows in one layer.
struct QkRows {
  std::shared_ptr<const RawMatrix> m;
  std::int64_t heads = 0;
  std::int64_t head_stride = 0;  ///< stored rows from one head to the next
  std::int64_t first_row = 0;    ///< stored row of head 0's first row (fused QKV: the q or k block)
  std::int64_t rope_offset = 0;  ///< first rotary row inside a head (MLA: qk_nope_head_dim)
  std::int64_t rotary = 0;       ///< R
  bool interleaved = false;      ///< pairs (2i, 2i+1), else (i, i + R/2)
  std::vector<float> col_gain;   ///< γ of the input norm (cols), empty = 1
  /// q/k norm gain after the projection (Qwen3, Gemma 3: one per row of a head; OLMo 2: one per
  /// row of the block), indexed by (stored row − first_row) modulo its size; empty = 1.
  std::vector<float> row_gain;
  /// Stored row of pair i, member j (0, 1) of head h.
  std::int64_t stored_row(std::int64_t h, std::int64_t i, int j) const;
  /// Member j of pair i of head h without the gains: in place when stored as float32 or BF16,
  /// else decoded into `scratch` (cols floats). Throws Error when the row is outside the tensor.
  QkRowPtr pair_row(std::int64_t h, std::int64_t i, int j, float* scratch) const;
  /// The row gain of member j of pair i of head h (1 without a q/k norm).
  float pair_row_gain(std::int64_t h, std::int64_t i, int j) const;
};

struct QkLayer {
  bool rope = true;     ///< false: a NoPE layer (no pairs)
  double base = 0;      ///< this layer's rope_theta
  QkRows q, k;
};

/// What a checkpoint's attention looks like.
struct QkModel {
  std::string path;
  bool gguf = false;
  std::string model_type;     ///< config.json model_type, or GGUF general.architecture
  std::int64_t layers = 0, heads = 0, kv_heads = 0;
  std::int64_t head_dim = 0;  ///< q/k head width (MLA: qk_nope + qk_rope)
  std::int64_t rotary_dim = 0;
  std::int64_t hidden = 0;    ///< the width of the rows (the projections' input)
  double base = 10000;        ///< primary rope_theta
  std::int64_t train_len = 0; ///< original_max_position_embeddings, else max_position_embeddings (0 = unknown)
  std::string train_len_source;
  rope::RopeLayout layout = rope::RopeLayout::kHalf;  ///< pairing of the stored rows
  std::string layout_source;
  std::string qk_source;      ///< "q_proj/k_proj", "qkv_proj (fused)", "MLA q_b_proj·q_a_proj, kv_a_proj_with_mqa", ...
  std::string gain_source;    ///< what was folded, for reports
  std::vector<double> layer_base;  ///< per layer: its rope_theta, 0 for a NoPE layer
  std::vector<std::string> notes;
  std::shared_ptr<QkFiles> files;
};

/// Opens a model folder (config.json + safetensors), a safetensors file or index next to a
/// config.json, or a GGUF. Reads headers and config only. Throws Error in one line naming what
/// could not be determined (no q/k projections found, a fused layout posenc does not know, a
/// tensor of unexpected shape).
QkModel open_qk_model(const std::string& path);

/// Layer `l`'s rotary rows (reads its tensors).
QkLayer read_qk_layer(const QkModel& m, std::int64_t l);

}  // namespace posenc::models
