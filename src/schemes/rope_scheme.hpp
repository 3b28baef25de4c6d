#pragma once
// The registry entry of `rope`: its factory reads --hf-config/--gguf through models/.
#include "posenc/encodings/scheme.hpp"

namespace posenc::schemes {
encodings::SchemeInfo rope_scheme();  // rope_scheme.cpp
}  // namespace posenc::schemes
