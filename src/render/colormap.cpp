#include "posenc/render/colormap.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>

#include "posenc/error.hpp"
#include "posenc/text.hpp"

namespace posenc::render {

namespace {

// 256 colours per map as hex, in the order of colormaps(); see the sources in the file.
const char* const kLuts[] = {
#include "colormap_data.inc"
};

bool same_name(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::uint8_t hex_byte(const char* p) {
  const auto digit = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
  return static_cast<std::uint8_t>(digit(p[0]) * 16 + digit(p[1]));
}

}  // namespace

const std::vector<ColormapInfo>& colormaps() {
  static const std::vector<ColormapInfo> table = {
      {"viridis", "perceptually uniform, blue to yellow (default for non-negative data)", false},
      {"magma", "perceptually uniform, black to light yellow", false},
      {"cividis", "perceptually uniform and readable with colour-vision deficiency, blue to yellow", false},
      {"gray", "black to white", false},
      {"RdBu", "diverging red (low) to blue (high), white at the centre (default for signed data)", true},
      {"coolwarm", "diverging blue (low) to red (high), light grey at the centre", true},
  };
  static_assert(sizeof(kLuts) / sizeof(kLuts[0]) == 6, "one lookup table per colormap");
  return table;
}

Colormap::Colormap(const std::string& name) {
  const auto& all = colormaps();
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (!same_name(all[i].name, name)) continue;
    info_ = &all[i];
    lut_ = kLuts[i];
    return;
  }
  std::vector<std::string> names;
  for (const auto& c : all) names.push_back(c.name);
  throw Error(fmt::format("unknown colormap '{}' for --cmap{} (choose {})", name, did_you_mean(name, names),
                          join_choices(names)));
}

Rgb Colormap::operator()(double t) const {
  if (std::isnan(t)) return {128, 128, 128};
  // matplotlib's Colormap.__call__: index floor(t * N), with t == 1 mapped to the last colour.
  const double x = std::clamp(t, 0.0, 1.0) * 256.0;
  const std::size_t i = std::min<std::size_t>(255, static_cast<std::size_t>(x));
  const char* p = lut_ + 6 * i;
  return {hex_byte(p), hex_byte(p + 2), hex_byte(p + 4)};
}

Rgb colormap(const std::string& name, double t) { return Colormap(name)(t); }

}  // namespace posenc::render
