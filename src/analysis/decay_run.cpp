#include "posenc/analysis/decay_run.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "posenc/analysis/scheme_traits.hpp"
#include "posenc/error.hpp"

namespace posenc::analysis {

std::string DecayRun::method() const { return fmt::format("{}", fmt::join(methods, "; ")); }

DecayRun decay_run(const std::vector<DecaySource>& sources, const DecayRequest& r, bool normalise) {
  DecayRun c;
  for (const auto& src : sources) {
    DecayCurves curves;
    if (!src.scheme.empty()) {
      curves = scheme_decay_curves(src.scheme, src.params, r);
    } else {
      parse_metric(r.metric);
      curves = table_decay_curves(*src.make_table(), r);
    }
    c.uses_metric |= curves.uses_metric, c.uses_qk |= curves.uses_qk, c.has_extras |= curves.has_extras;
    if (std::find(c.methods.begin(), c.methods.end(), curves.method) == c.methods.end()) c.methods.push_back(curves.method);
    const double by = normalise ? normalise_at_zero(curves, r.offsets) : 1.0;
    const std::string scaled = by == 1.0 ? "" : fmt::format(" (/{})", by);
    const std::string& label = src.label;
    const std::size_t n = curves.series.size();
    for (auto& s : curves.series) {
      c.legend.push_back((label.empty() || n > 1 ? (label.empty() ? s.name : label + ": " + s.name) : label) + scaled);
      if (!label.empty()) s.name = label + ": " + s.name;
      c.all.push_back(std::move(s));
    }
  }
  return c;
}

void refuse_unused_decay_options(const DecayRun& c, const std::string& who, bool metric_given, bool qk_given,
                                 bool no_extras) {
  if (metric_given && !c.uses_metric) {
    const std::string value = decay_value_name(who, "dot");
    throw Error(fmt::format("--metric applies to position vectors (absolute tables, --input, rope's q.k); "
                            "{} decay plots its {} against the offset itself",
                            who, value.empty() ? "bias" : value));
  }
  if (qk_given && !c.uses_qk)
    throw Error(fmt::format("--qk and --seed choose rope's q and k; {} has none (decay rope --qk ones|same|random)", who));
  if (no_extras && !c.has_extras)
    throw Error(fmt::format("--no-extras: {} has no extra series to leave out (only rope adds RoFormer's bound and "
                            "the q=k=ones curve)",
                            who));
}

}  // namespace posenc::analysis
