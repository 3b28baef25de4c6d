// Titles, panel titles and axis names of heatmap figures of tables.
#include "table_figure_titles.hpp"

#include <fmt/format.h>

#include <cmath>
#include <variant>
#include <vector>

#include "posenc/analysis/scheme_traits.hpp"

namespace posenc::render {
namespace {

// The slopes as text: "2^-3.5" when every slope is an exact power of two (ALiBi's are,
// 2^(-8(h+1)/n)), else each value's shortest round-trip form ("0.3").
std::vector<std::string> slope_texts(const std::vector<double>& slopes) {
  std::vector<std::string> pow2, plain;
  for (const double m : slopes) {
    plain.push_back(fmt::format("{}", m));
    // Exponents that are multiples of 1/1024 cover every head count up to 2^13.
    const double e = std::round(std::log2(m) * 1024) / 1024;
    if (m > 0 && std::exp2(e) == m) pow2.push_back(fmt::format("2^{}", e));
  }
  return pow2.size() == slopes.size() ? pow2 : plain;
}

}  // namespace

std::string axis_label(const TableInfo& info, std::size_t axis, const std::string& fallback) {
  if (axis >= info.axis_names.size()) return fallback;
  const std::string& name = info.axis_names[axis];
  const bool bias = analysis::scheme_kind(info.scheme) == analysis::SchemeKind::kBias;
  if (name == "dim") return "dimension";
  if (name == "i") return bias ? "query position i" : "position i";
  if (name == "j") return bias ? "key position j" : "position j";
  return name;
}

std::string typeset(double v) {
  std::string s = fmt::format("{}", v);
  return s[0] == '-' ? "\u2212" + s.substr(1) : s;
}

std::pair<std::string, std::string> panel_titles(const TableInfo& info, std::size_t slice) {
  for (const auto& [k, v] : info.results)
    if (k == "slopes" && std::holds_alternative<std::vector<double>>(v)) {
      const auto slopes = slope_texts(std::get<std::vector<double>>(v));
      if (slice < slopes.size())
        return {fmt::format("head {} (m = {})", slice, slopes[slice]), fmt::format("h{} m={}", slice, slopes[slice])};
    }
  const std::string axis = info.axis_names.empty() ? "slice" : info.axis_names.front();
  return {fmt::format("{} {}", axis, slice), fmt::format("{}{}", axis.substr(0, 1), slice)};
}

std::string default_title(const TableInfo& info) {
  std::vector<std::string> dims;
  for (std::size_t i = 0; i < info.shape.size(); ++i) {
    const std::string axis = i < info.axis_names.size() ? info.axis_names[i] : "n";
    const std::string letter = axis == "position" ? "N" : axis == "dim" ? "D" : axis == "head" ? "H" : axis;
    dims.push_back(fmt::format("{}={}", letter, info.shape[i]));
  }
  return fmt::format("{}, {}", info.scheme.empty() ? "table" : info.scheme, fmt::join(dims, ", "));
}

}  // namespace posenc::render
