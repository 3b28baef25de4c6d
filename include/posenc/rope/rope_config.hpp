#pragma once
/// Building a RopeConfig from command-line parameters (the file readers that fill one from a
/// model's config.json or GGUF are posenc/models/rope_settings.hpp).
#include <cstdint>
#include <vector>

#include "posenc/encodings/scheme.hpp"
#include "posenc/params.hpp"
#include "posenc/rope/rope.hpp"

namespace posenc::rope {

/// Derives rotary_dim, checks every value (throwing Error naming the flag or field) and
/// adds notes on settings that implementations read differently.
void finalize_rope_config(RopeConfig& c, std::int64_t explicit_rotary_dim = 0);

/// Puts the flags of `p` on top of `c`: with `from_file` (c was read from a config.json or,
/// with `is_gguf`, a GGUF) only the flags the user gave, else every flag and its default; then
/// the layout's default and finalize_rope_config. The second half of
/// models::resolve_rope_config, and all of it when no file is given.
void apply_rope_flags(RopeConfig& c, const ParamMap& p, bool from_file, bool is_gguf);

/// ParamSpecs of the `rope` scheme (also used by `posenc rope`).
std::vector<ParamSpec> rope_param_specs();

}  // namespace posenc::rope
