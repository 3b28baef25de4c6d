#pragma once
// CLI11 validators for what CLI::Range lets through: NaN and infinities (every comparison
// with NaN is false), negative seeds read into unsigned integers, and empty paths.
#include <CLI/CLI.hpp>

#include <charconv>
#include <cmath>
#include <string>

namespace posenc::cli {

/// Rejects nan, inf and -inf (CLI11 reads them into a double).
inline CLI::Validator finite_number() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        double v = 0;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec == std::errc() && end == s.data() + s.size() && !std::isfinite(v))
          return "must be a finite number (got '" + s + "')";
        return {};
      },
      "FINITE", "finite");
}

/// A finite number >= lo: replaces CLI::Range(lo, 1e300), which lets NaN through and prints
/// its bounds with %f (a 300-digit number).
inline CLI::Validator finite_at_least(double lo) {
  return CLI::Validator(
      [lo](std::string& s) -> std::string {
        double v = 0;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v) || v < lo) {
          char bound[32];
          const auto r = std::to_chars(bound, bound + sizeof bound, lo);
          return "must be a finite number >= " + std::string(bound, r.ptr) + " (got '" + s + "')";
        }
        return {};
      },
      "FINITE", "finite-at-least");
}

/// Rejects a leading minus (strtoull would wrap "-3" around to 2^64 - 3).
inline CLI::Validator non_negative_integer() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        if (s.find('-') != std::string::npos) return "must be an integer >= 0 (got '" + s + "')";
        return {};
      },
      "UINT", "non-negative");
}

/// Rejects an empty path ("-o ''").
inline CLI::Validator non_empty_path() {
  return CLI::Validator(
      [](std::string& s) -> std::string { return s.empty() ? "must not be empty: give a file name, or - for stdout" : ""; },
      "PATH", "non-empty");
}

}  // namespace posenc::cli
