#pragma once
/// Relative-position identities checked numerically (seed 003 §1.5 and §2.3; PRODUCT.md
/// "Analyses"). Each check returns what it found; none prints. Errors are relative to the
/// table's own scale, so one tolerance serves tables of any magnitude.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "posenc/analysis/sinusoids.hpp"
#include "posenc/matrix.hpp"
#include "posenc/table.hpp"

namespace posenc::analysis {

struct IdentityResult {
  std::string name;
  bool holds = true;
  /// false when the table cannot show the identity either way (then `holds` means nothing
  /// and `note` says why, e.g. a least-squares fit with as many unknowns as equations).
  bool decided = true;
  double max_error = 0.0;  ///< see `measure`; +inf when a mask pattern differs
  double tolerance = 0.0;
  std::vector<std::pair<std::string, std::int64_t>> worst;  ///< where max_error occurs: (t, delta), (m, n), ...
  std::string measure;  ///< what max_error is, e.g. "max |error| / max |PE_t|^2"
  std::string note;     ///< how it was checked (offsets, vectors, ...)
};

/// Stable names, one line each, for help, JSON and docs.
struct IdentityInfo {
  std::string name;
  std::string summary;
};
const std::vector<IdentityInfo>& identity_infos();

inline constexpr double kDefaultTolerance = 1e-6;   ///< relative; float32 tables pass, random ones fail
inline constexpr double kDefaultMinDistance = 1e-3; ///< `unique`: positions closer than this × max |PE_t| collide
inline constexpr std::int64_t kDefaultMaxOffset = 1024;

/// The offsets 1..K checked by the offset-based identities: K = max_offset, or
/// min(N − 1, kDefaultMaxOffset) when max_offset is 0.
std::int64_t effective_max_offset(std::size_t rows, std::int64_t max_offset);

/// shift-linear: one linear map T_Δ takes PE_t to PE_{t+Δ} for every t. With a known sin/cos
/// structure, T_Δ is the block rotation [[cos ω_kΔ, sin ω_kΔ], [−sin ω_kΔ, cos ω_kΔ]] of seed
/// 003 §1.5 (error max_t |T_Δ PE_t − PE_{t+Δ}| / max |PE_t|, Δ = 1..K). Otherwise T is fitted by
/// least squares for Δ = 1 (T_Δ = T^Δ then follows) and judged by the relative residual
/// ||Y − T·X|| / ||Y||; undecided when the N − 1 rows are linearly independent (any table fits).
IdentityResult check_shift_linear(const Matrix& pe, const std::optional<Sinusoids>& known, std::int64_t max_offset,
                                  double tol);

/// dot-shift-invariant: PE_t·PE_{t+Δ} depends only on Δ (seed 003 §2.3, property 1):
/// max |PE_t·PE_{t+Δ} − PE_0·PE_Δ| / max |PE_t|², Δ = 0..K.
IdentityResult check_dot_shift_invariant(const Matrix& pe, std::int64_t max_offset, double tol);

/// dot-symmetric: PE_t·PE_{t+Δ} = PE_t·PE_{t−Δ} (seed 003 §2.3, property 2), Δ = 1..K.
IdentityResult check_dot_symmetric(const Matrix& pe, std::int64_t max_offset, double tol);

/// unique: every two positions are further apart than min_distance × max |PE_t|
/// (seed 003 §1.4: high frequencies close the curve into a loop). max_error is the smallest
/// relative distance found, at positions (i, j); it must exceed the tolerance.
IdentityResult check_unique(const Matrix& pe, double min_distance);

/// bounded: every |PE[t, k]| <= bound (seed 003 §1.1: the integer position grows without bound).
IdentityResult check_bounded(const Matrix& pe, double bound);

/// bias-relative: a bias table (N×M, or H×N×M) depends only on j − i, up to a constant per
/// row that softmax ignores (the bias on the diagonal): the paper's causal ALiBi m·j passes
/// like −m|i − j|. Masked (non-finite) entries must also follow j − i.
IdentityResult check_bias_relative(const Table& bias, double tol);

}  // namespace posenc::analysis
