#pragma once
/// Small text helpers: nearest-name suggestions for error messages.
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

}  // namespace posenc
