#pragma once
// The `gguf` object of the JSON reports (`posenc rope --gguf`, `posenc model FILE.gguf`): what
// was read from a .gguf file, with the rope type llama.cpp assigns (internal).
#include <nlohmann/json.hpp>

#include "posenc/encodings/rope_gguf.hpp"

namespace posenc::io::detail {

nlohmann::json gguf_source_json(const encodings::RopeGgufSource& g);

}  // namespace posenc::io::detail
