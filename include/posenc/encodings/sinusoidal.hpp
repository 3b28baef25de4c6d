#pragma once
/// Sinusoidal position encodings: the paper's (Vaswani et al. 2017, "Attention Is All
/// You Need", §3.5) and the frequency conventions of two well-known codebases.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "posenc/matrix.hpp"
#include "posenc/params.hpp"

namespace posenc::encodings {

/// Whose frequencies (and first position) to use.
enum class SinusoidalConvention {
  kPaper,          ///< w_k = base^(−2k/d), k < d/2; d must be even
  kTensor2Tensor,  ///< common_attention.py get_timing_signal_1d: w_k = exp(−k·ln(base)/max(K−1, 1)), K = d//2
  kFairseq,        ///< sinusoidal_positional_embedding.py get_embedding: w_k = exp(−k·ln(base)/(half−1)), half = d//2
};

/// Where the sin and cos of frequency k go.
enum class SinusoidalLayout {
  kInterleaved,  ///< sin at column 2k, cos at 2k+1 (the paper)
  kSplit,        ///< sin at column k, cos at K+k (tensor2tensor's and fairseq's concat [sin | cos])
};

struct SinusoidalOptions {
  double base = 10000.0;  ///< paper's 10000; t2t's max_timescale (min_timescale fixed at 1)
  SinusoidalConvention convention = SinusoidalConvention::kPaper;
  SinusoidalLayout layout = SinusoidalLayout::kInterleaved;
  std::int64_t padding_idx = 1;  ///< fairseq only: row 0 is position padding_idx + 1
};

/// Parses --convention (paper, tensor2tensor, fairseq); throws Error otherwise.
SinusoidalConvention parse_convention(const std::string& name);
/// Parses --layout; "auto" is interleaved for the paper, split (their own concat) for the others.
SinusoidalLayout parse_layout(const std::string& name, SinusoidalConvention convention);
std::string layout_name(SinusoidalLayout layout);
/// The --layout parameter shared by sinusoidal and recurrent.
ParamSpec layout_param();

/// Throws Error for a dim or base the convention cannot use: odd d for the paper,
/// half = 1 for fairseq (its spacing divides by half − 1), base < 1 or not finite.
void check_sinusoidal(std::int64_t dim, double base, SinusoidalConvention convention);

/// The K frequency pairs' w_k (K = d/2, rounded down). See SinusoidalConvention.
std::vector<double> sinusoidal_frequencies(std::int64_t dim, double base, SinusoidalConvention convention);

/// The frequencies as transformers' float32 tensors hold them (M2M100's get_embedding, Whisper's
/// sinusoids): tensor2tensor and fairseq w_k = float32(exp(float32(k · float32(−ln(base)/(K−1))))),
/// the paper's float32(base^(−2k/d)). exp is evaluated in double and rounded once (torch's
/// float32 exp is within 1 ulp of that).
std::vector<double> sinusoidal_frequencies_f32(std::int64_t dim, double base, SinusoidalConvention convention);

/// One row as a float32 tensor: angle float32(float32(position) · w_k), sin and cos of that
/// angle rounded to float32 (sincos_f32_exact: the bits of std::sin/std::cos of the angle,
/// vectorised). `w` from sinusoidal_frequencies_f32.
void sinusoidal_row_torch_f32(double position, std::span<const double> w, SinusoidalLayout layout,
                              std::span<double> out);
/// The same floats, written as float32.
void sinusoidal_row_torch_f32(double position, std::span<const double> w, SinusoidalLayout layout,
                              std::span<float> out);

/// Label of row 0: padding_idx + 1 for fairseq (utils.make_positions), else 0.
std::int64_t sinusoidal_first_position(const SinusoidalOptions& options);

/// One row: sin(w_k·position), cos(w_k·position) placed by `layout`; a column left over
/// when out.size() > 2K (odd d) is 0, as in tensor2tensor and fairseq.
void sinusoidal_row(double position, std::span<const double> w, SinusoidalLayout layout, std::span<double> out);

/// sinusoidal_row in float32 through the fast sin/cos (posenc/fast_math.hpp): within 1.6e-7
/// of sinusoidal_row's values.
void sinusoidal_row_f32(double position, std::span<const double> w, SinusoidalLayout layout, std::span<float> out);

/// Column names: sin0, cos0, sin1, … (interleaved) or sin0 … sinK−1, cos0 … (split), "pad" for a zero column.
std::vector<std::string> sinusoidal_column_names(std::int64_t dim, std::size_t pairs, SinusoidalLayout layout);

/// sinusoidal: row r is position p = first + r, PE[p, sin_k] = sin(w_k p), PE[p, cos_k] = cos(w_k p),
/// angles in double precision. Throws Error as check_sinusoidal does.
Matrix sinusoidal_table(std::int64_t len, std::int64_t dim, const SinusoidalOptions& options = {});

}  // namespace posenc::encodings
