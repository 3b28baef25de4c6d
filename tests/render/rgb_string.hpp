#pragma once
// Catch prints colours as "rgb(r, g, b)". Every test file that compares Rgb values includes
// this, so that the specialisation is the same in all of them.
#include <catch2/catch.hpp>

#include <string>

#include "posenc/render/image.hpp"

namespace Catch {
template <>
struct StringMaker<posenc::render::Rgb> {
  static std::string convert(const posenc::render::Rgb& c) {
    return "rgb(" + std::to_string(c.r) + ", " + std::to_string(c.g) + ", " + std::to_string(c.b) + ")";
  }
};
}  // namespace Catch
