#include "posenc/rope/axial_rope.hpp"

#include <fmt/format.h>

#include <cmath>
#include <numbers>

#include "posenc/encodings/scheme.hpp"
#include "posenc/error.hpp"

namespace posenc::rope {

std::vector<std::int64_t> axial_widths(const AxialRopeOptions& o) {
  if (!o.axes_dim.empty()) return o.axes_dim;
  const auto n = static_cast<std::int64_t>(o.grid.size());
  return std::vector<std::int64_t>(o.grid.size(), (o.dim / n) / 2 * 2);
}

void check_axial_rope(const AxialRopeOptions& o) {
  if (o.grid.empty() || o.grid.size() > 3)
    throw Error(fmt::format("--grid must have 1 to 3 axes, as 8x8 or 8x8x4 (got {})", o.grid.size()));
  double tokens = 1;
  for (const auto g : o.grid) tokens *= static_cast<double>(g);
  if (tokens > static_cast<double>(encodings::kMaxLen))
    throw Error(fmt::format("--grid makes {} tokens, more than {}", tokens, encodings::kMaxLen));
  if (!o.axes_dim.empty() && o.axes_dim.size() != o.grid.size())
    throw Error(fmt::format("--axes-dim needs one width per --grid axis ({} axes, got {} widths)", o.grid.size(),
                            o.axes_dim.size()));
  const auto widths = axial_widths(o);
  std::int64_t total = 0;
  for (const auto w : widths) {
    if (w < 2 || w % 2 != 0)
      throw Error(fmt::format("--axes-dim: every axis needs an even width of at least 2 (got {}; --dim {} over {} "
                              "axes)",
                              w, o.dim, o.grid.size()));
    total += w;
  }
  if (total > o.dim)
    throw Error(fmt::format("--axes-dim adds up to {}, more than --dim {}", total, o.dim));
  if (o.col_first && o.grid.size() < 2) throw Error("--axis-order col-first needs at least 2 --grid axes");
  if (o.shared_ladder && o.pixel) throw Error("--ladder shared applies to --positions index (got --positions pixel)");
  for (const auto w : widths)
    if (o.shared_ladder && w != widths.front())
      throw Error(fmt::format("--ladder shared deals one ladder to the axes in turn, so every --axes-dim width must be "
                              "the same (got {} and {})",
                              widths.front(), w));
  if (!(o.base > 1.0) || !std::isfinite(o.base)) throw Error(fmt::format("--base must be above 1 (got {})", o.base));
}

AxialPairs axial_pairs(const AxialRopeOptions& o) {
  AxialPairs p;
  const auto widths = axial_widths(o);
  const bool f32 = o.precision == RopePrecision::kF32;
  for (std::size_t s = 0; s < widths.size(); ++s) {
    const int axis = o.col_first && s < 2 ? static_cast<int>(1 - s) : static_cast<int>(s);
    const std::int64_t half = widths[s] / 2;
    for (std::int64_t k = 0; k < half; ++k) {
      double f = 0;
      if (o.pixel) {
        // torch.linspace(1, max_freq / 2, d/2) * pi
        const double step = half > 1 ? (o.max_freq / 2 - 1.0) / static_cast<double>(half - 1) : 0.0;
        const double lin = 1.0 + step * static_cast<double>(k);
        f = f32 ? static_cast<double>(static_cast<float>(lin) * static_cast<float>(std::numbers::pi)) : lin * std::numbers::pi;
      } else if (o.shared_ladder) {
        // Pixtral: freqs = 1 / (theta ** (arange(0, R, 2).float() / R)); pair k of slice s is rung n·k + s
        const auto n = static_cast<std::int64_t>(widths.size());
        std::int64_t rotated = 0;
        for (const auto w : widths) rotated += w;
        const auto rung = n * k + static_cast<std::int64_t>(s);
        if (f32) {
          const float e = static_cast<float>(2 * rung) / static_cast<float>(rotated);
          f = static_cast<double>(1.0f / static_cast<float>(std::pow(o.base, static_cast<double>(e))));
        } else {
          f = std::pow(o.base, -2.0 * static_cast<double>(rung) / static_cast<double>(rotated));
        }
      } else if (f32) {
        // 1 / (theta ** (arange(0, d, 2).float() / d)) in float32
        const float e = static_cast<float>(2 * k) / static_cast<float>(widths[s]);
        f = static_cast<double>(1.0f / static_cast<float>(std::pow(o.base, static_cast<double>(e))));
      } else {
        f = std::pow(o.base, -2.0 * static_cast<double>(k) / static_cast<double>(widths[s]));
      }
      p.axis.push_back(axis);
      p.freq.push_back(f);
    }
  }
  return p;
}

std::array<std::int64_t, 3> axial_index(const AxialRopeOptions& o, std::int64_t n) {
  std::array<std::int64_t, 3> idx{0, 0, 0};
  for (std::size_t a = o.grid.size(); a-- > 0;) {
    idx[a] = n % o.grid[a];
    n /= o.grid[a];
  }
  return idx;
}

double axial_position(const AxialRopeOptions& o, std::int64_t i, std::int64_t n) {
  if (!o.pixel) return static_cast<double>(i);
  const double v = n > 1 ? -1.0 + 2.0 * static_cast<double>(i) / static_cast<double>(n - 1) : -1.0;
  return o.precision == RopePrecision::kF32 ? static_cast<double>(static_cast<float>(v)) : v;
}

void axial_angles(const AxialRopeOptions& o, const AxialPairs& pairs, std::int64_t n, std::span<double> out) {
  const auto idx = axial_index(o, n);
  for (std::size_t j = 0; j < out.size(); ++j) {
    const auto a = static_cast<std::size_t>(pairs.axis[j]);
    const double pos = axial_position(o, idx[a], o.grid[a]);
    out[j] = o.precision == RopePrecision::kF32
                 ? static_cast<double>(static_cast<float>(pos) * static_cast<float>(pairs.freq[j]))
                 : pos * pairs.freq[j];
  }
}

}  // namespace posenc::rope
