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

/// Every rope of a model: one rope (layer_type "") as write_rope_engines_text; several as a
/// line naming each rope's layer type and layers, then per rope "== rope of the T layers (L) =="
/// and its table and verdicts, then the versions and one overall line (exit status 1 when a
/// convention of any rope differs beyond --tol). Layers without RoPE are named in one line.
void write_model_engines_text(const rope::ModelEnginesReport& m, std::ostream& out);

/// One rope: write_rope_engines_json (with "no_rope_layers" when the model has layers without
/// RoPE). Several: {"hf_config", "len", "tol", "within" (every
/// rope), "layer_types" (primary first), "no_rope_layers", "rope_types": {TYPE: {"layers", "rope_type", "len",
/// "tol", "noise", "within", "transformers", "engines"}}}: each rope's object holds
/// write_rope_engines_json's keys but hf_config, and the layers of that type.
void write_model_engines_json(const rope::ModelEnginesReport& m, std::ostream& out);

}  // namespace posenc::reports
