#pragma once
// Pieces of the model report shared by its source files (internal).
#include <nlohmann/json.hpp>

#include <string>

#include "hf_scope.hpp"
#include "posenc/models/model_report.hpp"

namespace posenc::models {
struct ModelScheme;
}

namespace posenc::models::detail {

/// `s` as one word of a POSIX shell command: as is when it holds only safe characters, else in
/// single quotes (a quote inside written '\''), so that a "shown by" command can be pasted.
std::string shell_word(const std::string& s);

/// "every layer", or "layers 0-4, 6-10 (sliding_attention)".
std::string where_of(const std::vector<std::int64_t>& layers, std::int64_t num_layers, const std::string& type);

/// The rope of one layer type as a mechanism (the numbers under the stable keys of
/// docs/formats.md); `command` shows its table.
MechanismUse rope_use(const rope::RopeConfig& c, const std::vector<std::int64_t>& layers, std::int64_t num_layers,
                      const std::string& type, const std::string& command);

/// Adds the mechanisms of a model without RoPE (ALiBi, T5, DeBERTa, learned, sinusoidal).
void add_table_mechanisms(const HfScope& s, const std::string& file, ModelReport& r);

/// A number field, `fallback` when absent (or not a number).
double number_field(const nlohmann::json& o, const char* key, double fallback);

/// A boolean field, `fallback` when absent (or not a boolean).
bool bool_field(const nlohmann::json& o, const char* key, bool fallback);

/// An integer field that must be within [lo, hi] when present; Error names it otherwise.
std::int64_t checked_int(const HfScope& s, const std::string& file, const char* key, std::int64_t lo, std::int64_t hi,
                         std::int64_t fallback);

/// k when the layers without RoPE are exactly those with (layer + 1) % k == 0 (what nope
/// --interval draws), else 0.
std::int64_t nope_interval(const std::vector<std::int64_t>& nope_layers, std::int64_t num_layers);

/// The deberta, mrope and nope flags that reproduce mechanism `m` of report `r`
/// (model_scheme_values.cpp); Error in one line, naming 'posenc model PATH', for a form the
/// scheme does not tabulate (unbucketed DeBERTa, a scaled M-RoPE, NoPE layers at no interval).
void deberta_values(const ModelReport& r, const MechanismUse& m, const std::string& path, ModelScheme& s);
void mrope_values(const ModelReport& r, const MechanismUse& m, const std::string& config_text, const std::string& path,
                  ModelScheme& s);
void nope_values(const ModelReport& r, const MechanismUse& m, const std::string& path, ModelScheme& s);

}  // namespace posenc::models::detail
