#pragma once
/// Axial 2-D / 3-D RoPE for images and video: the head's first columns are split into one
/// slice per axis, and each slice is a 1-D RoPE of that axis' position with its own frequency
/// ladder (restarted per axis, unlike M-RoPE's shared ladder), as
///   rotary-embedding-torch `RotaryEmbedding(dim=d_axis).get_axial_freqs(*grid)` (@ 02a5d074):
///     lang freqs θ_k = base^(−2k/d_axis) on index positions 0..n−1, or pixel freqs
///     linspace(1, max_freq/2, d_axis/2)·π on positions linspace(−1, 1, n); each frequency
///     repeated for the two columns of its pair (interleaved), axes concatenated in order;
///   timm `build_rotary_pos_embed(feat_shape, dim)` (EVA-02): the same with d_axis = dim/2;
///   FLUX `EmbedND(theta=10000, axes_dim=[16, 56, 56])`: per-axis widths, ids (t, row, col).
/// Columns past the rotated width pass through (cos 1, sin 0).
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "posenc/rope/rope.hpp"
#include "posenc/params.hpp"

namespace posenc::rope {

struct AxialRopeOptions {
  std::vector<std::int64_t> grid{8, 8};   ///< size of each axis (1..3 axes), tokens row-major
  std::int64_t dim = 64;                  ///< head width
  std::vector<std::int64_t> axes_dim;     ///< width of each axis' slice (even); empty = dim / axes
  double base = 10000.0;
  bool pixel = false;                     ///< positions linspace(−1, 1, n) and linear freqs
  double max_freq = 10.0;                 ///< pixel: freqs linspace(1, max_freq/2, d_axis/2)·π
  bool col_first = false;                 ///< 2-D: the first slice follows the column (rope-vit)
  /// One index ladder base^(−2q/R) over the rotated width R, dealt to the axes in turn: pair j of
  /// slice a takes rung n·j + a (n axes, equal slices): Pixtral's PixtralRotaryEmbedding (rows
  /// freqs[0::2], columns freqs[1::2]). false: each slice restarts its own ladder.
  bool shared_ladder = false;
  RopeLayout layout = RopeLayout::kInterleaved;
  RopePrecision precision = RopePrecision::kF32;
};

/// The options the axial-rope scheme's parameters give (axial_rope_scheme.cpp).
AxialRopeOptions axial_rope_options(const ParamMap& p);

/// Throws Error naming the option: odd slice widths, widths past --dim, too many tokens.
void check_axial_rope(const AxialRopeOptions& o);

/// The slice widths in effect (axes_dim, or dim / axes each, rounded down to even).
std::vector<std::int64_t> axial_widths(const AxialRopeOptions& o);

struct AxialPairs {
  std::vector<int> axis;         ///< the grid axis each rotated pair follows
  std::vector<double> freq;      ///< its frequency (float32-rounded in f32)
};
/// Pairs in column order: slice 0's pairs, then slice 1's, ...
AxialPairs axial_pairs(const AxialRopeOptions& o);

/// Grid index of token n (row-major, first axis slowest); unused axes 0.
std::array<std::int64_t, 3> axial_index(const AxialRopeOptions& o, std::int64_t n);

/// Position of index i on an axis of n cells: i, or linspace(−1, 1, n)[i] in pixel mode.
double axial_position(const AxialRopeOptions& o, std::int64_t i, std::int64_t n);

/// Angle of every rotated pair for token n (float32 product in f32).
void axial_angles(const AxialRopeOptions& o, const AxialPairs& pairs, std::int64_t n, std::span<double> out);

}  // namespace posenc::rope
