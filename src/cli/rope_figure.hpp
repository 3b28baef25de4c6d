#pragma once
// The figures of `posenc rope` and `posenc rope diff` (drawn by the library: render/rope_figures.cpp).
#include "posenc/render/rope_figures.hpp"

namespace posenc::cli {

using render::rope_diff_figure;
using render::rope_report_figure;

}  // namespace posenc::cli
