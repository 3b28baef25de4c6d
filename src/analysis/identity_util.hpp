#pragma once
// Helpers shared by the identity checks (private to src/analysis).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "posenc/analysis/identity.hpp"
#include "posenc/analysis/linalg.hpp"

namespace posenc::analysis::detail {

inline IdentityResult start(const char* name, double tol, const char* measure) {
  IdentityResult r;
  r.name = name;
  r.tolerance = tol;
  r.measure = measure;
  return r;
}

/// Keeps the largest error and where it occurred; a NaN error sticks (and fails).
inline void record(IdentityResult& r, double err, std::vector<std::pair<std::string, std::int64_t>> at) {
  if (std::isnan(r.max_error)) return;
  if (std::isnan(err) || err > r.max_error || r.worst.empty()) {
    r.max_error = std::isnan(err) ? err : std::max(err, r.max_error);
    r.worst = std::move(at);
  }
}

inline void finish(IdentityResult& r) { r.holds = r.decided && r.max_error <= r.tolerance; }

inline std::int64_t i64(std::size_t v) { return static_cast<std::int64_t>(v); }

/// A table with a NaN or ±inf cannot satisfy any identity (and NaN compares false, so it
/// would slip through max/min comparisons): when `pe` has one, `r` fails with max_error NaN
/// and the first such cell (row-major) as its worst case. Returns true when it did so.
inline bool fail_on_non_finite(IdentityResult& r, const Matrix& pe) {
  for (std::size_t t = 0; t < pe.rows(); ++t)
    for (std::size_t c = 0; c < pe.cols(); ++c) {
      const double v = pe(t, c);
      if (std::isfinite(v)) continue;
      r.decided = true;
      r.holds = false;
      r.max_error = std::numeric_limits<double>::quiet_NaN();
      r.worst = {{"t", i64(t)}, {"dim", i64(c)}};
      r.note = fmt::format("the table holds a non-finite value, PE[{}, {}] = {}; no identity holds for it", t, c,
                           std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
      return true;
    }
  return false;
}

}  // namespace posenc::analysis::detail
