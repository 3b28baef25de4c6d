#pragma once
/// Small text helpers for messages: nearest-name suggestions, lists, quoting raw bytes.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace posenc {

/// Levenshtein distance between two strings.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// ", did you mean 'x'?" for the closest candidate within a small distance, else "".
std::string did_you_mean(std::string_view given, const std::vector<std::string>& candidates);

/// "a, b or c"
std::string join_choices(const std::vector<std::string>& choices);

/// "1 head", "8 heads": the count and the noun that agrees with it.
std::string counted(std::int64_t n, std::string_view one, std::string_view many);

/// `bytes` fit to quote in a one-line message: control bytes and bytes that are not UTF-8
/// become \xNN (a NUL would end the message), valid UTF-8 stays; cut to `max` bytes with
/// "...". `escaped`, when given, is set to whether anything was escaped.
std::string printable(std::string_view bytes, std::size_t max = 80, bool* escaped = nullptr);

}  // namespace posenc
