#pragma once
/// The registry entries of the rotary schemes other than `rope` itself (whose entry reads model
/// configs and lives in src/schemes/rope_scheme.cpp), defined next to their formulas.
#include "posenc/encodings/scheme.hpp"

namespace posenc::rope {
using encodings::SchemeInfo;
SchemeInfo mrope_scheme();       // mrope_scheme.cpp
SchemeInfo axial_rope_scheme();  // axial_rope_scheme.cpp
SchemeInfo xpos_scheme();        // xpos.cpp
}  // namespace posenc::rope
