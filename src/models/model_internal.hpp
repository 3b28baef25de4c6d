#pragma once
// Pieces of the model report shared by its source files (internal).
#include <nlohmann/json.hpp>

#include <string>

#include "hf_scope.hpp"
#include "posenc/models/model_report.hpp"

namespace posenc::models::detail {

/// Adds the mechanisms of a model without RoPE (ALiBi, T5, DeBERTa, learned, sinusoidal).
void add_table_mechanisms(const HfScope& s, const std::string& file, ModelReport& r);

/// A number field, `fallback` when absent (or not a number).
double number_field(const nlohmann::json& o, const char* key, double fallback);

/// A boolean field, `fallback` when absent (or not a boolean).
bool bool_field(const nlohmann::json& o, const char* key, bool fallback);

/// An integer field that must be within [lo, hi] when present; Error names it otherwise.
std::int64_t checked_int(const HfScope& s, const std::string& file, const char* key, std::int64_t lo, std::int64_t hi,
                         std::int64_t fallback);

}  // namespace posenc::models::detail
