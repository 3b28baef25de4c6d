// What the arithmetic made of the settings: infinite or NaN results are errors naming the
// setting that caused them; frequencies that underflow to 0 are legal (transformers' float32
// computes the same zeros) but are said in a warning, so no report shows inf silently.
#include "rope_internal.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "posenc/error.hpp"

namespace posenc::rope::detail {
namespace {

/// `--factor 8`, `x.json: "rope_scaling.factor" 8`: a setting and its value, for messages.
std::string named(const RopeConfig& c, const char* name, double value) {
  return fmt::format("{} {}", c.label(name), value);
}

/// The setting that scales the frequencies of pair i (what to blame for an inf or a 0).
std::string scaling_input(const RopeConfig& c, const RopeFrequencies& f, std::size_t i) {
  switch (c.scaling) {
    case RopeScaling::kLongrope: {
      const bool long_list = f.longrope_list == "long";
      const auto& list = long_list ? c.long_factor : c.short_factor;
      const char* name = long_list ? "long-factor" : "short-factor";
      return i < list.size() ? fmt::format("{}[{}] {}", c.label(name), i, list[i]) : std::string(c.label(name));
    }
    case RopeScaling::kNtk:
    case RopeScaling::kDynamic:
      return fmt::format("the scaled base {} ({}, {})", f.base, named(c, "base", c.base),
                         c.factor ? named(c, "factor", *c.factor) : std::string("no factor"));
    default: return c.factor ? named(c, "factor", *c.factor) : fmt::format("factor {}", f.factor);
  }
}

/// "pair 3", "pairs 1 … 63", "5 pairs (2, 4, …)": which pairs a message is about.
std::string pair_list(const std::vector<std::size_t>& p) {
  if (p.size() == 1) return fmt::format("pair {}", p[0]);
  if (p.back() - p.front() + 1 == p.size()) return fmt::format("{} pairs ({} … {})", p.size(), p.front(), p.back());
  return fmt::format("{} pairs ({}, {}, …)", p.size(), p[0], p[1]);
}

const char* verb(const std::vector<std::size_t>& p) { return p.size() == 1 ? "underflows" : "underflow"; }
const char* pronoun(const std::vector<std::size_t>& p) {
  return p.size() == 1 ? "that pair never rotates" : "those pairs never rotate";
}

const char* arithmetic(const RopeConfig& c) { return c.precision == RopePrecision::kF32 ? "float32" : "double"; }

}  // namespace

void check_values(const RopeConfig& c, RopeFrequencies& f) {
  // An infinite scaled base (ntk, dynamic) is what Python's float gives too: θ_0 = ∞^0 = 1 and the
  // other pairs 1/∞ = 0, which the zero check below reports.
  for (std::size_t i = 0; i < f.pairs(); ++i) {
    if (!std::isfinite(f.inv_freq_original[i]))
      throw Error(fmt::format("{} gives inv_freq {} at pair {}", named(c, "base", c.base), f.inv_freq_original[i], i));
    if (!std::isfinite(f.inv_freq[i]))
      throw Error(fmt::format("{} makes inv_freq {} at pair {} in {}: the scaling must keep the frequencies finite",
                              scaling_input(c, f, i), f.inv_freq[i], i, arithmetic(c)));
  }
  const double att = f.attention_factor;
  const double att_max = c.precision == RopePrecision::kF32 ? static_cast<double>(FLT_MAX) : DBL_MAX;
  if (!std::isfinite(att * att) || !(att > 0) || att > att_max)
    throw Error(
        fmt::format("{} gives logits × {}: the attention factor must be a positive number whose square is "
                    "finite in {}",
                    c.attention_factor ? named(c, "attention-factor", att) : fmt::format("attention factor {}", att),
                    att * att, arithmetic(c)));

  // Zero frequencies that no method asked for: the base (before scaling) or the scaling underflowed.
  // (p-RoPE's tail pairs are zero by design.)
  const std::size_t wanted = c.scaling == RopeScaling::kProportional ? proportional_angles(c) : f.pairs();
  std::vector<std::size_t> by_base, by_scaling;
  bool all_zero = true;  // else some are so small that 2π/θ overflows: an infinite wavelength just the same
  const auto degenerate = [](double theta) { return theta == 0.0 || !std::isfinite(2.0 * kPi / theta); };
  for (std::size_t i = 0; i < std::min(wanted, f.pairs()); ++i) {
    if (!degenerate(f.inv_freq[i])) continue;
    all_zero = all_zero && f.inv_freq[i] == 0.0;
    (degenerate(f.inv_freq_original[i]) ? by_base : by_scaling).push_back(i);
  }
  const std::string to = all_zero ? "to 0" : "to 0 or below 2π/DBL_MAX (an infinite wavelength)";
  // Suggest double precision only where it would give those pairs a finite wavelength.
  const auto hint = [&](const std::vector<std::size_t>& pairs) -> std::string {
    if (c.precision != RopePrecision::kF32) return "";
    RopeConfig d = c;
    d.precision = RopePrecision::kF64;
    bool helps = false;
    try {
      const auto g = compute_frequencies(d);
      helps = std::any_of(pairs.begin(), pairs.end(), [&](std::size_t i) { return !degenerate(g.inv_freq[i]); });
    } catch (const Error&) {}
    const std::string who = c.convention == RopeConvention::kHf     ? "transformers'"
                            : c.convention == RopeConvention::kMeta ? "Meta's"
                            : c.convention == RopeConvention::kGgml ? "ggml's"
                                                                    : std::string(rope_convention_info(c.convention).engine) + "'s";
    return fmt::format(" ({} float32 arithmetic gives the same zeros{})", who,
                       helps ? "; --precision f64 computes them" : "");
  };
  if (!by_base.empty())
    f.warnings.push_back(fmt::format("inv_freq of {} {} {} in {} with {}: {}{}", pair_list(by_base), verb(by_base), to,
                                     arithmetic(c), named(c, "base", c.base), pronoun(by_base), hint(by_base)));
  if (!by_scaling.empty())
    f.warnings.push_back(fmt::format("scaled inv_freq of {} {} {} in {} with {}: {}{}", pair_list(by_scaling),
                                     verb(by_scaling), to, arithmetic(c), scaling_input(c, f, by_scaling.front()),
                                     pronoun(by_scaling), hint(by_scaling)));
}

}  // namespace posenc::rope::detail
