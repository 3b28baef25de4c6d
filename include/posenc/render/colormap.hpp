#pragma once
/// Colormaps: one table of {name, description, diverging}. Each is matplotlib's own 256-colour
/// table, looked up as matplotlib does (index = min(floor(t * 256), 255)), so a figure's
/// colours equal matplotlib's for the same normalised value.
#include <string>
#include <vector>

#include "posenc/render/image.hpp"

namespace posenc::render {

struct ColormapInfo {
  std::string name;         ///< "viridis", "magma", "cividis", "gray", "RdBu", "coolwarm"
  std::string description;  ///< one line
  bool diverging;           ///< centred on 0 for signed data
};

const std::vector<ColormapInfo>& colormaps();

/// A colormap resolved once by name (case-insensitive), cheap to call per pixel.
class Colormap {
 public:
  /// Throws Error "unknown colormap ..." naming --cmap and the choices.
  explicit Colormap(const std::string& name);
  /// Colour of `t` in [0, 1] (clamped; NaN is mid grey #808080).
  Rgb operator()(double t) const;
  const ColormapInfo& info() const { return *info_; }

 private:
  const ColormapInfo* info_;
  const char* lut_;  ///< 256 × "rrggbb"
};

/// Colour of `t` in [0, 1] (clamped; NaN is mid grey) under colormap `name`.
Rgb colormap(const std::string& name, double t);

}  // namespace posenc::render
