#pragma once
// What `posenc check` echoes before its results, so that a report says exactly what was
// checked: the command that repeats the run (the scheme or --input, --hf-config, the identities
// asked for and every check option that changes a result) and the table's settings in effect.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "posenc/analysis/scheme_identities.hpp"
#include "posenc/params.hpp"
#include "posenc/table.hpp"

namespace posenc::cli {

struct CheckEcho {
  /// `check rope --hf-config x.json --tol 1e-06 --qk random --seed 0` (without "posenc ").
  std::string command;
  /// The table's declared parameters as flags: `--len 64 --dim 128 --base 500000 ...`
  /// (empty for an --input table, whose settings are the file).
  std::string settings;
  /// The check options that changed a result, by name: {"tol": 1e-06, "qk": "random", ...}.
  nlohmann::ordered_json options;
};

/// `scheme` is "" for --input (then `input` is its path); `given` the scheme options as typed
/// (for --hf-config); `requested` the --identity list; `run` what was checked.
CheckEcho check_echo(const std::string& scheme, const std::string& input, const ParamMap& given, const TableInfo& info,
                     const std::vector<std::string>& requested, const analysis::CheckSettings& s,
                     const analysis::CheckRun& run);

}  // namespace posenc::cli
