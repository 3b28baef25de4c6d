#include "posenc/render/colormap.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "posenc/error.hpp"
#include "rgb_string.hpp"

using posenc::render::colormap;
using posenc::render::Rgb;

namespace {
Rgb hex(unsigned v) {
  return {static_cast<std::uint8_t>(v >> 16), static_cast<std::uint8_t>(v >> 8), static_cast<std::uint8_t>(v)};
}
}  // namespace

TEST_CASE("colormap end points are matplotlib's", "[colormap]") {
  // matplotlib.colors.to_hex(matplotlib.colormaps[name](0.0 and 1.0)), matplotlib 3.6.3
  CHECK(colormap("viridis", 0) == hex(0x440154));
  CHECK(colormap("viridis", 1) == hex(0xfde725));
  CHECK(colormap("magma", 0) == hex(0x000004));
  CHECK(colormap("magma", 1) == hex(0xfcfdbf));
  CHECK(colormap("cividis", 0) == hex(0x00224e));
  CHECK(colormap("cividis", 1) == hex(0xfee838));
  CHECK(colormap("gray", 0) == hex(0x000000));
  CHECK(colormap("gray", 1) == hex(0xffffff));
  CHECK(colormap("RdBu", 0) == hex(0x67001f));
  CHECK(colormap("RdBu", 1) == hex(0x053061));
  CHECK(colormap("coolwarm", 0) == hex(0x3b4cc0));
  CHECK(colormap("coolwarm", 1) == hex(0xb40426));
}

TEST_CASE("colormap inner values are matplotlib's", "[colormap]") {
  // recorded with matplotlib 3.6.3: to_hex(colormaps[name](t))
  CHECK(colormap("viridis", 0.5) == hex(0x21918c));
  CHECK(colormap("viridis", 0.25) == hex(0x3b528b));
  CHECK(colormap("viridis", 1.0 / 3.0) == hex(0x31688e));
  CHECK(colormap("viridis", 0.999) == hex(0xfde725));
  CHECK(colormap("magma", 0.5) == hex(0xb73779));
  CHECK(colormap("magma", 0.75) == hex(0xfc8961));
  CHECK(colormap("cividis", 0.1) == hex(0x083370));
  CHECK(colormap("cividis", 0.5) == hex(0x7d7c78));
  CHECK(colormap("gray", 0.3) == hex(0x4c4c4c));
  CHECK(colormap("RdBu", 0.5) == hex(0xf6f7f7));
  CHECK(colormap("RdBu", 0.9) == hex(0x2065ab));
  CHECK(colormap("coolwarm", 0.5) == hex(0xdddcdc));
  CHECK(colormap("coolwarm", 0.25) == hex(0x8db0fe));
}

TEST_CASE("colormap clamps, greys out NaN and checks names", "[colormap]") {
  CHECK(colormap("viridis", -3) == colormap("viridis", 0));
  CHECK(colormap("viridis", 7) == colormap("viridis", 1));
  CHECK(colormap("magma", std::nan("")) == Rgb{128, 128, 128});
  CHECK(colormap("rdbu", 0) == hex(0x67001f));  // case-insensitive
  CHECK(posenc::render::Colormap("RDBU").info().name == "RdBu");
  CHECK(posenc::render::Colormap("coolwarm").info().diverging);
  CHECK(!posenc::render::Colormap("viridis").info().diverging);
  CHECK_THROWS_WITH(colormap("virdis", 0),
                    "unknown colormap 'virdis' for --cmap, did you mean 'viridis'? "
                    "(choose viridis, magma, cividis, gray, RdBu or coolwarm)");
  CHECK(posenc::render::colormaps().size() == 6);
}
