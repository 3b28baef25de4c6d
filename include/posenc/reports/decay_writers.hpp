#pragma once
/// The JSON of `posenc decay --format json`: the settings of the run and every curve.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "posenc/analysis/decay_run.hpp"
#include "posenc/params.hpp"

namespace posenc::reports {

/// What the JSON says besides the curves.
struct DecayJsonSettings {
  std::string scheme;  ///< "" for a table of the user's (`input`)
  std::string input;
  ParamMap params;     ///< the scheme's values, len fitted
  std::string vary;    ///< "NAME=V1,V2,..." or ""
  std::vector<ParamValue> varied_values;  ///< the values of NAME used, one per curve group
  std::string metric = "dot", qk = "ones";
  std::uint64_t seed = 0;
  bool no_extras = false;
  std::int64_t from = 0;
  std::vector<std::string> compare;
  bool float32 = true;  ///< values rounded as float32 (printed as the float's shortest text)
};

/// {"command": "decay", "scheme", "params", "metric" (null when no curve used it), "qk"
/// ({"vectors", "seed"}, rope only), "extras", "from", "method", "vary", "compare", "offset",
/// "series": [{"name", "values"}]}; a value that is not finite is null.
void write_decay_json(const DecayJsonSettings& s, const std::vector<std::int64_t>& offsets, const analysis::DecayRun& run,
                      std::ostream& out);

}  // namespace posenc::reports
