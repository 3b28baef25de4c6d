#include "posenc/text.hpp"

#include <algorithm>
#include <numeric>

namespace posenc {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  std::iota(prev.begin(), prev.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string did_you_mean(std::string_view given, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_d = 0;
  for (const auto& c : candidates) {
    // A prefix ("sin" for "sinusoidal") is a good guess even when far in edits.
    const std::size_t d = c.rfind(given, 0) == 0 && !given.empty() ? 1 : edit_distance(given, c);
    if (best.empty() || d < best_d) {
      best = c;
      best_d = d;
    }
  }
  const std::size_t limit = std::max<std::size_t>(2, given.size() / 3);
  if (best.empty() || best_d > limit) return "";
  return ", did you mean '" + best + "'?";
}

std::string join_choices(const std::vector<std::string>& choices) {
  std::string out;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (i > 0) out += (i + 1 == choices.size()) ? " or " : ", ";
    out += choices[i];
  }
  return out;
}

}  // namespace posenc
