#pragma once
// posenc.rope_diff: `posenc rope diff … --format json` over the library (rope_diff.cpp).
#include <pybind11/pybind11.h>

#include <optional>
#include <string>

#include "kwargs.hpp"
#include "posenc/models/gguf_check.hpp"
#include "posenc/params.hpp"
#include "posenc/reports/rope_writers.hpp"
#include "posenc/rope/rope_report.hpp"

namespace posenc::python {

/// The settings of `posenc rope` from the keywords (hf_config=/gguf= included; module.cpp).
ParamMap rope_settings(Keywords& kw);

/// One comparison: `diff`, or `gguf` (a .gguf config_b: the conversion check).
struct RopeDiffRun {
  reports::RopeDiffLabels labels;
  std::optional<rope::RopeDiff> diff;
  std::optional<models::GgufCheck> gguf;
  std::int64_t len = 4096;
  double tol = 1e-6;
  std::string warning;  ///< the command's warning (both sides the same settings), "" when none
};
/// Takes rope_diff's keywords (below) and compares.
RopeDiffRun rope_diff_run(Keywords& kw);
/// Gives run.warning as a UserWarning, as `posenc rope diff` prints it on stderr (GIL held).
void warn_rope_diff(const RopeDiffRun& run);

/// `posenc rope diff`: the shared settings, config_a=/config_b= and any setting per side with
/// _a/_b (convention_b="ggml", factor_b=8), len=, tol=, max_model_len=. Returns the JSON text
/// (a .gguf config_b: the conversion check's JSON).
std::string rope_diff(pybind11::dict kwargs);

}  // namespace posenc::python
