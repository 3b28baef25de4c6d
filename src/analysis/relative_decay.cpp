#include "posenc/analysis/relative_decay.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "posenc/analysis/xpos_identity.hpp"
#include "posenc/encodings/shaw.hpp"
#include "posenc/rope/xpos.hpp"
#include "posenc/error.hpp"

namespace posenc::analysis {

DecayCurves xpos_curves(const ParamMap& p, const DecayRequest& r) {
  const auto o = rope::xpos_options(p);
  const auto key_role = p.text("key-scale") == "same" ? rope::XposRole::kQuery : rope::XposRole::kKey;
  const auto c = make_xpos_case(o, key_role, parse_qk(r.qk), r.seed);
  const std::string vectors = r.qk == "ones"   ? "q=k=ones"
                              : r.qk == "same" ? fmt::format("q=k random (seed {})", r.seed)
                                               : fmt::format("q, k random (seed {})", r.seed);
  DecayCurves out;
  out.uses_qk = out.has_extras = true;
  if (r.extras) out.series.push_back({"rope " + vectors, xpos_rope_decay(c, r.offsets)});
  out.series.push_back({"xpos " + vectors, xpos_decay(c, r.from, r.offsets)});
  out.method = fmt::format("xPos: <q~_T, k~_T+delta> (queries times zeta^((m-c)/gamma), keys divided{}), gamma {}{}",
                           key_role == rope::XposRole::kQuery ? ": here scaled like queries" : "", o.scale_base,
                           r.extras ? "; rope: the same q, k without the scale" : "");
  return out;
}

DecayCurves shaw_curves(const ParamMap& p, const DecayRequest& r) {
  encodings::ShawOptions o;
  o.convention = p.text("convention") == "hf" ? encodings::ShawConvention::kHf : encodings::ShawConvention::kT2t;
  o.k = p.integer("k");
  o.max_position = p.integer("max-position");
  const std::string what = p.text("table");
  if (o.convention == encodings::ShawConvention::kHf)
    for (std::int64_t d : r.offsets)
      if (d >= o.max_position || -d >= o.max_position)
        throw Error(fmt::format("offset {} needs |query - key| < --max-position {}: transformers' relative_key has no "
                                "row for it (lower --max-offset)",
                                d, o.max_position));
  std::vector<double> v;
  v.reserve(r.offsets.size());
  for (std::int64_t d : r.offsets)
    v.push_back(static_cast<double>(what == "index" ? encodings::shaw_index(0, d, o) : encodings::shaw_distance(0, d, o)));
  DecayCurves out;
  out.series.push_back({what, std::move(v)});
  out.method = o.convention == encodings::ShawConvention::kHf
                   ? fmt::format("formula: {} of query - key = -delta{}", what,
                                 what == "index" ? fmt::format(", + {}", o.max_position - 1) : std::string())
                   : fmt::format("formula: clip(delta, -{}, {}){}", o.k, o.k,
                                 what == "index" ? fmt::format(" + {}", o.k) : std::string());
  return out;
}

}  // namespace posenc::analysis
