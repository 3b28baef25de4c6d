#pragma once
// Helpers shared by the identity checks (private to src/analysis).
#include <algorithm>
#include <cmath>

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

}  // namespace posenc::analysis::detail
