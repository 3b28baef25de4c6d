#pragma once
// rope diff with a .gguf side: the conversion check (encodings/gguf_check.hpp).
#include <cstdint>
#include <string>

#include "posenc/rope/rope.hpp"
#include "rope_command.hpp"

namespace posenc::cli {

/// Default --tol of the conversion check when none is given: ggml iterates θ ← θ·theta_scale in
/// float32, so faithful conversions differ from transformers by up to about n_rot/2 × 1.2e-7.
inline constexpr double kGgufDiffTol = 1e-4;

/// Checks `b` (a .gguf) against `a` (a config.json, resolved from `params_a`) and writes the
/// findings; 0 or 1.
int run_gguf_diff(Context& ctx, const ReportOutput& output, formats::Format f, const rope::RopeConfig& a,
                  const rope::RopeConfig& b, const ParamMap& params_a, const std::string& label_a,
                  const std::string& label_b, std::int64_t max_model_len, double tol);

}  // namespace posenc::cli
