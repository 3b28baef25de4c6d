#include "posenc/analysis/axial_rope_case.hpp"

#include <fmt/format.h>

#include <cmath>

#include "posenc/analysis/mrope_case.hpp"
#include "posenc/error.hpp"

namespace posenc::analysis {

AxialCase make_axial_rope_case(const rope::AxialRopeOptions& o, std::int64_t len, QkChoice qk,
                               std::uint64_t seed) {
  std::int64_t cells = 1;
  for (const auto g : o.grid) cells *= g;
  const std::int64_t n = len > 0 ? std::min(len, cells) : cells;
  if (n > kMaxAxialCheckTokens)
    throw Error(fmt::format("check axial-rope compares every pair of cells: at most {} (got {}; lower --grid or --len)",
                            kMaxAxialCheckTokens, n));
  const auto pairs = rope::axial_pairs(o);
  AxialCase c;
  c.pair_axis = pairs.axis;
  c.theta = pairs.freq;
  const auto un = static_cast<std::size_t>(n);
  c.cos = Matrix(un, pairs.freq.size());
  c.sin = Matrix(un, pairs.freq.size());
  std::vector<double> angle(pairs.freq.size());
  const bool f32 = o.precision == rope::RopePrecision::kF32;
  for (std::size_t t = 0; t < un; ++t) {
    c.ids.push_back(rope::axial_index(o, static_cast<std::int64_t>(t)));
    rope::axial_angles(o, pairs, static_cast<std::int64_t>(t), angle);
    for (std::size_t j = 0; j < angle.size(); ++j) {
      const double co = std::cos(angle[j]), si = std::sin(angle[j]);
      c.cos(t, j) = f32 ? static_cast<float>(co) : co;
      c.sin(t, j) = f32 ? static_cast<float>(si) : si;
    }
  }
  c.implementation = fmt::format("the axial-rope table's cos/sin ({} positions, {})", o.pixel ? "pixel" : "index",
                                 f32 ? "float32" : "float64");
  set_qk(c, qk, seed);
  return c;
}

}  // namespace posenc::analysis
