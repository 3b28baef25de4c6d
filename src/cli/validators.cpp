#include "validators.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>
#include <type_traits>

namespace posenc::cli {
namespace {

/// "in 1..65536": integers state both bounds (a seed's limit is part of the rule).
template <class T>
std::string range_text(T lo, T hi) {
  return fmt::format("in {}..{}", lo, hi);
}

std::string number_range_text(double lo, double hi, bool above_lo) {
  const bool has_lo = lo > -std::numeric_limits<double>::max(), has_hi = hi < std::numeric_limits<double>::max();
  if (above_lo && has_hi) return fmt::format("> {} and <= {}", lo, hi);
  if (has_lo && has_hi) return fmt::format("in {}..{}", lo, hi);
  if (has_lo) return fmt::format("{} {}", above_lo ? ">" : ">=", lo);
  if (has_hi) return fmt::format("<= {}", hi);
  return "";
}

std::string rule(const char* what, const std::string& range) { return range.empty() ? what : fmt::format("{} {}", what, range); }

/// Plain decimal digits after an optional sign (no spaces, no 0x, no exponent).
bool plain_integer(const std::string& s, bool allow_minus) {
  std::size_t i = 0;
  if (!s.empty() && (s[0] == '+' || (allow_minus && s[0] == '-'))) i = 1;
  if (i == s.size()) return false;
  for (; i < s.size(); ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

template <class T>
bool parse_integer(const std::string& s, T& v) {
  const char* first = s.data() + (s[0] == '+' ? 1 : 0);
  const auto [end, ec] = std::from_chars(first, s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

std::string integer_type(std::int64_t lo, std::int64_t hi) { return "INT " + range_text(lo, hi); }
std::string unsigned_type(std::uint64_t lo, std::uint64_t hi) { return "INT " + range_text(lo, hi); }
std::string number_type(double lo, double hi, bool above_lo) { return rule("NUMBER", number_range_text(lo, hi, above_lo)); }

namespace {

/// An integer lo..hi of type T in plain decimal, rewritten without leading zeros ("010" ->
/// "10": CLI11 would read a leading 0 as octal). A minus sign only for signed T.
template <class T>
CLI::Validator integer_range(T lo, T hi, const char* name) {
  const std::string must = "must be an integer " + range_text(lo, hi);
  return CLI::Validator(
      [lo, hi, must](std::string& s) -> std::string {
        T v = 0;
        if (!plain_integer(s, std::is_signed_v<T>) || !parse_integer(s, v) || v < lo || v > hi)
          return fmt::format("{} (got '{}')", must, s);
        s = fmt::format("{}", v);
        return {};
      },
      "", name);
}

}  // namespace

CLI::Validator integer_in(std::int64_t lo, std::int64_t hi) { return integer_range(lo, hi, "integer"); }
CLI::Validator unsigned_in(std::uint64_t lo, std::uint64_t hi) { return integer_range(lo, hi, "unsigned"); }

namespace {

/// A finite decimal number, or nullopt ("nan", "inf", "0x10", "1,5", "" are not).
std::optional<double> finite_decimal(const std::string& s) {
  if (s.empty()) return std::nullopt;
  const char* first = s.data() + (s[0] == '+' ? 1 : 0);
  const char* last = s.data() + s.size();
  if (first == last) return std::nullopt;
  for (const char* p = first; p != last; ++p)  // from_chars takes "nan", "inf", "infinity"
    if (std::string_view("0123456789+-.eE").find(*p) == std::string_view::npos) return std::nullopt;
  double v = 0;
  const auto [end, ec] = std::from_chars(first, last, v);
  if (ec != std::errc() || end != last || !std::isfinite(v)) return std::nullopt;
  return v;
}

}  // namespace

CLI::Validator number_in(double lo, double hi, bool above_lo) {
  const std::string range = number_range_text(lo, hi, above_lo);
  const std::string must = range.empty() ? "must be a finite number" : "must be a number " + range;
  return CLI::Validator(
      [lo, hi, above_lo, must](std::string& s) -> std::string {
        const auto v = finite_decimal(s);
        if (!v || *v < lo || *v > hi || (above_lo && *v == lo)) return fmt::format("{} (got '{}')", must, s);
        s = fmt::format("{}", *v);  // shortest text of the same double: CLI11 reads it back exactly
        return {};
      },
      "", "number");
}

CLI::Validator boolean() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        std::string low = s;
        std::transform(low.begin(), low.end(), low.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        if (low == "true" || low == "1") return s = "true", std::string();
        if (low == "false" || low == "0") return s = "false", std::string();
        return fmt::format("must be true or false (got '{}')", s);
      },
      "", "boolean");
}

CLI::Validator number_list_item() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        const auto v = finite_decimal(s);
        if (!v) return fmt::format("must be finite numbers separated by commas, e.g. 1,1.5 (got '{}')", s);
        s = fmt::format("{}", *v);
        return {};
      },
      "", "number-list");
}

// transform, not check: CLI11 makes a check's validator non-modifying, and the text must be
// rewritten in plain decimal before CLI11 converts it.
CLI::Option* integer_option(CLI::Option* opt, std::int64_t lo, std::int64_t hi) {
  return opt->transform(integer_in(lo, hi))->type_name(integer_type(lo, hi));
}

CLI::Option* number_option(CLI::Option* opt, double lo, double hi, bool above_lo) {
  return opt->transform(number_in(lo, hi, above_lo))->type_name(number_type(lo, hi, above_lo));
}

CLI::Validator non_empty_path() {
  return CLI::Validator(
      [](std::string& s) -> std::string { return s.empty() ? "must not be empty: give a file name, or - for stdout" : ""; },
      "", "non-empty");
}

CLI::Validator list_items(const std::vector<std::string>& items) {
  return CLI::Validator([](std::string&) { return std::string(); }, fmt::format("{{{}}}", fmt::join(items, ",")));
}

}  // namespace posenc::cli
