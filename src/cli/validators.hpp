#pragma once
// One family of validators for every numeric option, so that each says the same thing the
// same way: "--len must be an integer in 1..2147483648 (got 'abc')". They replace
// CLI::Range, which lets NaN through, prints its bounds with %f, and runs after CLI11 has
// read "010" as octal and "0x10" as hex. A validator also rewrites the text it accepted in
// plain decimal, so CLI11's own conversion can only read what was checked.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <limits>
#include <string>

namespace posenc::cli {

/// Integers: plain decimal digits with an optional sign, within lo..hi
/// ("must be an integer in 1..65536 (got '2.5')"; "must be an integer >= 0" when hi is the
/// type's largest value).
CLI::Validator integer_in(std::int64_t lo, std::int64_t hi);
/// Same for unsigned 64-bit values (seeds): lo..hi, no sign.
CLI::Validator unsigned_in(std::uint64_t lo, std::uint64_t hi = std::numeric_limits<std::uint64_t>::max());

/// Numbers: a finite decimal (123, 0.5, 1e-3; no nan, inf or hex) within lo..hi, or above lo
/// when `above_lo` ("must be a number > 0 (got '0')").
CLI::Validator number_in(double lo, double hi, bool above_lo = false);
/// Each value of a comma-separated list of numbers (same rule, said of the list).
CLI::Validator number_list_item();

/// true or false (also 1 and 0, any case), rewritten as "true"/"false".
CLI::Validator boolean();

/// Names the items a comma list may hold ("{a,b,c}" after its type in --help, read by the
/// completion scripts); checking each item is left to the library, whose message names it.
CLI::Validator list_items(const std::vector<std::string>& items);

/// The help text of an option's type: "INT in 1..2147483648", "NUMBER >= 1", "NUMBER".
std::string integer_type(std::int64_t lo, std::int64_t hi);
std::string unsigned_type(std::uint64_t lo, std::uint64_t hi);
std::string number_type(double lo, double hi, bool above_lo = false);

/// Binds the validator (as a CLI11 transform, so that its rewrite is what CLI11 converts: bind
/// the validators above with ->transform, not ->check) and the help type of an integer /
/// number option in one call.
CLI::Option* integer_option(CLI::Option* opt, std::int64_t lo, std::int64_t hi);
CLI::Option* number_option(CLI::Option* opt, double lo, double hi, bool above_lo = false);

/// Any finite number (was: rejects nan, inf and -inf only).
inline CLI::Validator finite_number() {
  return number_in(-std::numeric_limits<double>::max(), std::numeric_limits<double>::max());
}
/// A finite number >= lo.
inline CLI::Validator finite_at_least(double lo) { return number_in(lo, std::numeric_limits<double>::infinity()); }
/// An integer 0..2^64-1 in plain decimal (a seed): "-3" and "99999999999999999999" refused.
inline CLI::Validator non_negative_integer() { return unsigned_in(0); }

/// Rejects an empty path ("-o ''").
CLI::Validator non_empty_path();

}  // namespace posenc::cli
