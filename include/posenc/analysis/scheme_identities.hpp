#pragma once
/// Which identities apply to which scheme, and running them on a table: what `posenc check`
/// reports, answered by the library for any front end.
#include <cstdint>
#include <string>
#include <vector>

#include "posenc/analysis/identity.hpp"
#include "posenc/table.hpp"

namespace posenc::analysis {

/// Operations (multiply-adds) the direct checks may take before run_identities refuses
/// (`--max-work`): `unique` on 8000 x 256 (8.2e9) took 33 s on the shared development machine.
inline constexpr double kDefaultMaxWork = 2e10;

/// The settings of the checks (posenc check's --tol, --min-distance, --bound, --max-offset,
/// --qk, --seed, --max-work).
struct CheckSettings {
  double tolerance = kDefaultTolerance;
  double min_distance = kDefaultMinDistance;
  double bound = 1.0;
  std::int64_t max_offset = 0;
  std::string qk = "random";
  std::uint64_t seed = 0;
  double max_work = kDefaultMaxWork;  ///< refuse direct checks estimated above this many operations
};

/// The operations (multiply-adds) of checking `name` directly on the numbers of an n x d table
/// (what run_identities estimates before it reads a row): unique n(n − 1)/2·d (every pair),
/// dot-shift-invariant (K + 1)·n·d and dot-symmetric K·n·d (K = effective_max_offset), shift-linear
/// by least squares 4·n·d² (Householder QR of the (n − 1) x d rows and its application) or K·n·d
/// with known frequencies, bounded and the bias identities n·d. The closed forms of a sin/cos
/// table cost O(n·d) and are not counted.
double direct_check_work(const std::string& name, std::size_t n, std::size_t d, std::int64_t max_offset, bool lsq);

struct CheckRun {
  std::vector<IdentityResult> results;  ///< decided checks
  std::vector<IdentityResult> skipped;  ///< default checks the table cannot decide
};

/// Identities checked when none is named, and those that may be named, for `scheme`
/// ("" = an --input table):
///  - rope: rope-relative, rope-norm, rope-forms-agree, layouts-agree (+ dot-shift-invariant,
///    dot-symmetric when named);
///  - mrope: axial-relative, text-reduces-to-rope, rope-norm; axial-rope: axial-relative, rope-norm;
///  - bias schemes (alibi, t5, deberta, shaw, fire): bias-relative; kerple, sandwich: bias-relative
///    and bias-symmetric (functions of |i - j|); alibi: + bias-symmetric when named;
///  - xpos: xpos-relative (on the scheme's own scaled rotation, keys as --key-scale says);
///  - absolute tables: shift-linear, dot-shift-invariant, dot-symmetric, unique, bounded
///    (+ bias-relative and bias-symmetric when named for an --input table: a user's own N x M bias
///    matrix; an H x N x M --input gets only those two).
std::vector<std::string> default_identities(const std::string& scheme);
std::vector<std::string> applicable_identities(const std::string& scheme);

/// Runs `requested` (empty: the defaults). Throws Error for an identity that does not apply
/// to the scheme, or a requested one the table cannot decide (saying why).
/// `params` are the scheme's values (rope's rotation is rebuilt from them); empty for --input.
CheckRun run_identities(const std::string& scheme, const ParamMap& params, const Table& table,
                        const std::vector<std::string>& requested, const CheckSettings& settings);

}  // namespace posenc::analysis
