#pragma once
// The figure of `posenc extrapolate` is the library's (posenc/render/extrapolation_figure.hpp).
#include "posenc/render/extrapolation_figure.hpp"

namespace posenc::cli {

using render::extrapolation_figure;

}  // namespace posenc::cli
