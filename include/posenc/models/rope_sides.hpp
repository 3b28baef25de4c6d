#pragma once
/// The two sides of `rope diff` after resolution: whether they can differ at all. The command
/// line and the Python module give the same warning from here.
#include <string>

#include "posenc/rope/rope.hpp"

namespace posenc::models {

/// Whether `a` and `b` compute the same thing: the same convention, precision, layout and
/// widths, and the same frequencies, attention factor and (ggml) per-position recipe, so a
/// comparison cannot find a difference. Settings the method does not read
/// (max_position_embeddings under `none`) do not count.
bool same_rope_settings(const rope::RopeConfig& a, const rope::RopeConfig& b);

/// The warning of `rope diff` when both sides resolve to the same settings (without the
/// "posenc: warning: " prefix), or "" when they can differ.
std::string rope_diff_warning(const rope::RopeConfig& a, const rope::RopeConfig& b);

}  // namespace posenc::models
