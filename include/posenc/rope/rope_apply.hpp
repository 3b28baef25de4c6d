#pragma once
/// Applying RoPE: placing per-pair values into a head's dimensions in either layout,
/// rotating vectors (element-wise, complex and matrix forms) and the row permutation
/// between the interleaved and half layouts.
#include <cstdint>
#include <span>
#include <vector>

#include "posenc/rope/rope.hpp"
#include "posenc/matrix.hpp"

namespace posenc::rope {

/// What a RoPE table holds per dimension.
enum class RopeTableKind { kAngle, kCos, kSin };

/// Spreads per-pair values over `head_dim` dimensions. Pair i of P = pair_values.size() pairs
/// goes to dims (2i, 2i+1) (interleaved) or (i, i+P) (half); dims ≥ 2P pass through and get
/// `pass_value` (0 for angles and sines, 1 for cosines: the identity rotation).
void place_pairs(std::span<const double> pair_values, RopeLayout layout, double pass_value,
                 std::span<double> out_row);

/// Row t of an angle/cos/sin table: head_dim values for position t.
void rope_table_row(const RopeConfig& c, const RopeFrequencies& f, RopeTableKind kind,
                    std::int64_t position, std::span<double> out_row);

/// rope_table_row in float32; cos and sin tables (conventions hf and meta) through the fast
/// sin/cos of posenc/fast_math.hpp, within 1.6e-7 of rope_table_row's values.
void rope_table_row_f32(const RopeConfig& c, const RopeFrequencies& f, RopeTableKind kind,
                        std::int64_t position, std::span<float> out_row);

/// Rotates x (length ≥ 2·angles.size()) by the per-pair angles, element-wise:
/// x'_a = x_a cos φ − x_b sin φ, x'_b = x_b cos φ + x_a sin φ for each pair (a, b) of the
/// layout; dims past the rotary width are copied. `scale` multiplies rotated pairs (HF's
/// attention factor on cos and sin).
std::vector<double> rope_rotate(std::span<const double> x, std::span<const double> angles,
                                RopeLayout layout, double scale = 1.0);

/// Same rotation in complex form: z_i = x_a + j·x_b, z_i' = z_i·e^{jφ_i} (Meta's
/// `apply_rotary_emb` for the interleaved layout).
std::vector<double> rope_rotate_complex(std::span<const double> x, std::span<const double> angles,
                                        RopeLayout layout, double scale = 1.0);

/// The block rotation matrix R (n×n) with x' = R·x; n = x's length (≥ 2·angles.size()).
Matrix rope_rotation_matrix(std::span<const double> angles, std::size_t n, RopeLayout layout,
                            double scale = 1.0);

/// Row permutation between the layouts for one head of width d (even): row k of the
/// half-layout weight is row `to_half[k]` of the interleaved one (Hugging Face
/// `convert_llama_weights_to_hf.py` `permute`: interleaved row 2i+j → half row j·d/2+i);
/// `to_interleaved` is its inverse. Rotating P·x in the half layout equals P·(x rotated in
/// the interleaved layout), so q·k is unchanged when q and k are permuted alike.
/// With partial rotary (`rotary_dim` R < d: GPT-NeoX's rotary_pct, Phi-2) only the first R
/// rows rotate, pair i at (2i, 2i+1) or (i, i + R/2); rows R..d-1 pass through and keep
/// their place. rotary_dim 0 = d.
struct RopePermutation {
  std::vector<std::int64_t> to_half;
  std::vector<std::int64_t> to_interleaved;
  std::int64_t rotary_dim = 0;  ///< R: rows 0..R-1 are permuted
};
RopePermutation rope_permutation(std::int64_t dim, std::int64_t rotary_dim = 0);

/// y[k] = x[perm[k]].
std::vector<double> apply_permutation(std::span<const double> x, std::span<const std::int64_t> perm);

}  // namespace posenc::rope
