#pragma once
// `posenc rope diff --weights`: the q/k row order of a GGUF against the Hugging Face folder it
// was converted from (models/qk_order.hpp), or the GGUF-only rope tensor checks without one.
#include <optional>
#include <string>

#include "rope_command.hpp"

namespace posenc::cli {

/// Exit 0 when every layer is in the expected order (and every GGUF-only check passes), 1 when not.
int run_qk_order_check(Context& ctx, const ReportOutput& output, formats::Format f,
                       const std::optional<std::string>& hf, const std::optional<std::string>& gguf);

}  // namespace posenc::cli
