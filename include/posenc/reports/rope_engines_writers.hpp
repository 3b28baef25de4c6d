#pragma once
/// Writers of `posenc rope engines` (text table and JSON).
#include <ostream>

#include "posenc/rope/engines/rope_engines.hpp"

namespace posenc::reports {

/// One table row per convention (inv_freq relative difference, attention factor, logit scale,
/// cache rows, largest |Δcos| and |Δsin|, LongRoPE list), then one verdict line per convention.
void write_rope_engines_text(const rope::RopeEnginesReport& r, std::ostream& out);

/// {"hf_config", "len", "tol", "noise", "within", "transformers": {...}, "engines": [{"convention",
/// "engine", "version", "ok", "error", "inv_freq", "inv_freq_max_rel", "attention_factor",
/// "logit_scale", "cache_len", "cache_grows", "compared_len", "cos_max_abs", "sin_max_abs",
/// "longrope_list", "deviations", "within", "verdict"}]}.
void write_rope_engines_json(const rope::RopeEnginesReport& r, std::ostream& out);

}  // namespace posenc::reports
