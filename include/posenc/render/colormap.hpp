#pragma once
/// Colormaps: one table of {name, description, diverging}.
#include <string>
#include <vector>

#include "posenc/render/image.hpp"

namespace posenc::render {

struct ColormapInfo {
  std::string name;
  std::string description;
  bool diverging;
};

const std::vector<ColormapInfo>& colormaps();

/// Colour of `t` in [0, 1] (clamped; NaN is mid grey) under colormap `name`.
Rgb colormap(const std::string& name, double t);

}  // namespace posenc::render
