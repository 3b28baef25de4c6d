#pragma once
// Which identities apply to which scheme, and running them on a table (for `posenc check`).
#include <cstdint>
#include <string>
#include <vector>

#include "posenc/analysis/identity.hpp"
#include "posenc/table.hpp"

namespace posenc::cli {

struct CheckSettings {
  double tolerance = analysis::kDefaultTolerance;
  double min_distance = analysis::kDefaultMinDistance;
  double bound = 1.0;
  std::int64_t max_offset = 0;
  std::string qk = "random";
  std::uint64_t seed = 0;
};

struct CheckRun {
  std::vector<analysis::IdentityResult> results;  ///< decided checks
  std::vector<analysis::IdentityResult> skipped;  ///< default checks the table cannot decide
};

/// Identities checked when none is named, and those that may be named, for `scheme`
/// ("" = an --input table).
std::vector<std::string> default_identities(const std::string& scheme);
std::vector<std::string> applicable_identities(const std::string& scheme);

/// Runs `requested` (empty: the defaults). Throws Error for an identity that does not apply
/// to the scheme, or a requested one the table cannot decide (saying why).
/// `params` are the scheme's values (rope's rotation is rebuilt from them); empty for --input.
CheckRun run_identities(const std::string& scheme, const ParamMap& params, const Table& table,
                        const std::vector<std::string>& requested, const CheckSettings& settings);

}  // namespace posenc::cli
