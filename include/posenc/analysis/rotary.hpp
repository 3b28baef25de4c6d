#pragma once
/// RoPE (Su et al. 2021, RoFormer, §3.4) written out independently of the rope library, as
/// reference values for the analyses and their tests: the block-diagonal rotation matrix R_m
/// (eq. 15), the complex product x̃_i·e^{imθ_i}, the element-wise x⊙cos + rotate(x)⊙sin
/// (eq. 34, seed 004) and the score Re Σ q̃ conj(k̃) e^{i(m−n)θ}. Pair i is (2i, 2i+1) in the
/// interleaved layout and (i, i + d/2) in the half layout (rope::RopeLayout).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "posenc/analysis/linalg.hpp"
#include "posenc/rope/rope.hpp"
#include "posenc/matrix.hpp"

namespace posenc::analysis {

using rope::RopeLayout;

/// θ_i = base^(−2i/d), i = 0..d/2−1. Throws Error for odd or non-positive d, base <= 0.
std::vector<double> rope_theta(double base, std::int64_t dim);

/// Column indices (first, second) of pair i in `layout` for width d = 2·theta.size().
std::pair<std::size_t, std::size_t> rope_pair(RopeLayout layout, std::size_t d, std::size_t i);

/// Element-wise form: out = x⊙cos(mθ) + rotate(x)⊙sin(mθ), cos/sin repeated per layout,
/// rotate(x) = (−x_b, x_a) on each pair (a, b).
std::vector<double> rope_elementwise(std::span<const double> x, double m, const std::vector<double>& theta,
                                     RopeLayout layout);
/// Matrix form: builds the d×d R_m and multiplies.
std::vector<double> rope_matrix_form(std::span<const double> x, double m, const std::vector<double>& theta,
                                     RopeLayout layout);
/// The d×d rotation matrix R_m (block diagonal [[cos, −sin], [sin, cos]] on each pair).
Matrix rope_matrix(double m, const std::vector<double>& theta, RopeLayout layout);
/// Complex form: (x_a + i x_b)·e^{imθ_i} on each pair.
std::vector<double> rope_complex_form(std::span<const double> x, double m, const std::vector<double>& theta,
                                      RopeLayout layout);

/// The permutation taking interleaved to half layout: perm[2i + s] = s·d/2 + i (HF's
/// `permute` in convert_llama_weights_to_hf.py applied to the rows of W_q, W_k).
std::vector<std::size_t> interleaved_to_half(std::size_t d);

/// Re Σ_i q̃_i conj(k̃_i) e^{i(m−n)θ_i}, pairs read in `layout` (RoFormer eq. 16).
double rope_complex_score(std::span<const double> q, std::span<const double> k, double m, double n,
                          const std::vector<double>& theta, RopeLayout layout);

}  // namespace posenc::analysis
