#pragma once
/// M-RoPE, multimodal rotary position embedding (Qwen2-VL, Wang et al. 2024, arXiv 2409.12191;
/// Qwen2.5-VL; Qwen3-VL's interleaved form), as Hugging Face transformers builds it:
/// `get_rope_index` gives every token three position ids (t, h, w), and each rotary pair takes
/// its angle from one of them: angle[n, pair j] = pos_{axis(j)}(n)·θ_j, θ_j = base^(−2j/d)
/// (one frequency ladder over the whole head, never restarted per axis).
///   sectioned (Qwen2-VL, Qwen2.5-VL, `apply_multimodal_rotary_pos_emb`): pairs [0, s_t) ← t,
///     [s_t, s_t + s_h) ← h, the rest ← w (mrope_section [16, 24, 24] for d = 128);
///   interleaved (Qwen3-VL, `apply_interleaved_mrope`): pair j ← h if j ≡ 1 (mod 3) and
///     j < 3·s_h, ← w if j ≡ 2 (mod 3) and j < 3·s_w, else ← t ([24, 20, 20]: pairs 60..63 ← t).
/// Text tokens have t = h = w (the running index), so on text M-RoPE is 1-D RoPE.
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "posenc/rope/rope.hpp"
#include "posenc/params.hpp"

namespace posenc::rope {

enum class MropeLayout { kSectioned, kInterleaved };

/// Whose `get_rope_index` numbers the frames of a video (an image has one frame, t = 0):
///   qwen2-vl:   t = frame (transformers `Qwen2VLModel.get_rope_index`);
///   qwen2.5-vl: t = trunc(float32(frame · seconds_per_grid) · tokens_per_second)
///               (`Qwen2_5_VLModel.get_rope_index`, float32 product then `.long()`);
///   qwen3-vl:   every frame is its own block with t = 0, frames separated by text
///               (timestamps, <|vision_end|><|vision_start|>): `Qwen3VLModel.get_rope_index`
///               splits video_grid_thw into T grids of one frame.
enum class MropeRule { kQwen2Vl, kQwen25Vl, kQwen3Vl };

struct MropeOptions {
  std::int64_t dim = 128;                        ///< head_dim d (even)
  double base = 1e6;                             ///< rope_theta
  std::array<std::int64_t, 3> sections{16, 24, 24};  ///< mrope_section in pairs (t, h, w), sum d/2
  MropeLayout mrope_layout = MropeLayout::kSectioned;
  RopeLayout layout = RopeLayout::kHalf;         ///< column placement of a pair (HF: half)
  std::array<std::int64_t, 3> grid{1, 8, 8};     ///< grid_thw of the image/video, before merging; 0,0,0: text only
  std::int64_t merge = 2;                        ///< spatial_merge_size
  std::int64_t text_before = 4;                  ///< text tokens before the vision tokens
  std::int64_t text_after = 4;                   ///< text tokens after them
  std::int64_t frame_text = 2;                   ///< qwen3-vl: text tokens between two frames
  /// Rows shown: 0 = the whole sequence; more adds text tokens after it, fewer shows the
  /// first `len` tokens (rope_delta stays that of the whole sequence).
  std::int64_t len = 0;
  MropeRule rule = MropeRule::kQwen2Vl;
  double tokens_per_second = 2.0;                ///< qwen2.5-vl vision_config.tokens_per_second
  double seconds_per_grid = 1.0;                 ///< qwen2.5-vl second_per_grid_t of the video
  RopePrecision precision = RopePrecision::kF32;
};


/// The options the mrope scheme's parameters give: the preset's base, sections and
/// mrope-layout where those flags were not given (mrope_scheme.cpp).
MropeOptions mrope_options(const ParamMap& p);

MropeLayout parse_mrope_layout(const std::string& s);  ///< sectioned | interleaved; throws Error
MropeRule parse_mrope_rule(const std::string& s);      ///< qwen2-vl | qwen2.5-vl | qwen3-vl; throws Error
std::string to_string(MropeLayout l);
std::string to_string(MropeRule r);

/// Throws Error naming the option for settings the models' code would refuse or mis-split:
/// odd --dim, sections not summing to d/2, interleaved sections past the head, a grid not
/// divisible by --merge, too many tokens.
void check_mrope(const MropeOptions& o);

/// The axis (0 = t, 1 = h, 2 = w) each of the d/2 pairs follows.
std::vector<int> mrope_pair_axes(const MropeOptions& o);

/// The token sequence of text, vision block(s), text and its position ids, computed per token
/// on demand (no table of ids in memory).
class MropeSequence {
 public:
  explicit MropeSequence(const MropeOptions& o);  ///< checks o (check_mrope)
  std::int64_t tokens() const { return tokens_; }  ///< the whole sequence
  std::int64_t rows() const { return rows_; }      ///< the tokens shown (MropeOptions::len)
  /// (t, h, w) of token n, 0 <= n < tokens().
  std::array<std::int64_t, 3> ids(std::int64_t n) const;
  bool is_vision(std::int64_t n) const;
  /// max over all ids + 1 − tokens(): added to the positions of generated tokens.
  std::int64_t rope_delta() const { return max_id_ + 1 - tokens_; }
  std::int64_t vision_tokens() const { return vision_; }

 private:
  struct Segment {
    std::int64_t first;  // first token
    std::int64_t count;
    std::int64_t start;  // st_idx + text_len: id offset of the segment
    bool vision;
    std::int64_t gt, gh, gw;  // merged grid of a vision segment
  };
  std::vector<Segment> segments_;
  std::int64_t tokens_ = 0, rows_ = 0, max_id_ = -1, vision_ = 0;
  MropeRule rule_;
  double spg_, tps_;
};

/// θ_j of the d/2 pairs as the models compute inv_freq (f32: transformers' float32
/// 1/base^(2j/d); f64: in double).
std::vector<double> mrope_inv_freq(const MropeOptions& o);

/// Angle of each pair for ids (t, h, w): ids[axis(j)]·θ_j, a float32 product in f32 as
/// transformers' `inv_freq @ position_ids` (float32 matmul of integers and inv_freq).
void mrope_angles(const MropeOptions& o, const std::vector<double>& inv_freq, const std::vector<int>& axes,
                  const std::array<std::int64_t, 3>& ids, std::span<double> pairs_out);

}  // namespace posenc::rope
