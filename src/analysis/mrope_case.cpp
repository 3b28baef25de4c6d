#include "posenc/analysis/mrope_case.hpp"

#include <fmt/format.h>

#include <cmath>

#include "posenc/error.hpp"

namespace posenc::analysis {

AxialCase make_mrope_case(const rope::MropeOptions& o, QkChoice qk, std::uint64_t seed) {
  const rope::MropeSequence seq(o);
  if (seq.rows() > kMaxAxialCheckTokens)
    throw Error(fmt::format("check mrope compares every pair of tokens: at most {} tokens (got {}; lower --grid, "
                            "--text-before or --text-after)",
                            kMaxAxialCheckTokens, seq.rows()));
  AxialCase c;
  const auto n = static_cast<std::size_t>(seq.rows());
  const auto axes = rope::mrope_pair_axes(o);
  const auto inv = rope::mrope_inv_freq(o);
  c.pair_axis = axes;
  // text-reduces-to-rope compares with the exact ladder base^(-2j/d), not the model's float32 one.
  for (std::size_t j = 0; j < axes.size(); ++j)
    c.theta.push_back(std::pow(o.base, -2.0 * static_cast<double>(j) / static_cast<double>(o.dim)));
  c.cos = Matrix(n, axes.size());
  c.sin = Matrix(n, axes.size());
  std::vector<double> angle(axes.size());
  const bool f32 = o.precision == rope::RopePrecision::kF32;
  for (std::size_t t = 0; t < n; ++t) {
    c.ids.push_back(seq.ids(static_cast<std::int64_t>(t)));
    rope::mrope_angles(o, inv, axes, c.ids.back(), angle);
    for (std::size_t j = 0; j < axes.size(); ++j) {
      const double co = std::cos(angle[j]), si = std::sin(angle[j]);
      c.cos(t, j) = f32 ? static_cast<float>(co) : co;
      c.sin(t, j) = f32 ? static_cast<float>(si) : si;
    }
  }
  c.implementation = fmt::format("the mrope table's cos/sin ({}, {} {}, {})", to_string(o.rule),
                                 to_string(o.mrope_layout), fmt::format("{},{},{}", o.sections[0], o.sections[1],
                                                                        o.sections[2]),
                                 o.precision == rope::RopePrecision::kF32 ? "float32" : "float64");
  set_qk(c, qk, seed);
  return c;
}

}  // namespace posenc::analysis
