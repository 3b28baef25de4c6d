#pragma once
// The `gguf` object of the JSON reports (`posenc rope --gguf`, `posenc model FILE.gguf`): what
// was read from a .gguf file, with the rope type llama.cpp assigns (internal).
#include <nlohmann/json.hpp>

#include "posenc/models/rope_gguf.hpp"

namespace posenc::reports::detail {

nlohmann::json gguf_source_json(const rope::RopeGgufSource& g);

}  // namespace posenc::reports::detail
