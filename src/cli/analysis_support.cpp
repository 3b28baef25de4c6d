#include "analysis_support.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

#include "posenc/schemes/registry.hpp"
#include "posenc/analysis/scheme_traits.hpp"
#include "posenc/error.hpp"
#include "posenc/text.hpp"

namespace posenc::cli {
std::unique_ptr<Table> analysis_table(const SchemeOptions& source) {
  const std::string scheme = source.scheme();
  if (scheme.empty()) return source.make_table();
  return schemes::make_table(scheme, analysis::analysis_params(scheme, source.values()));
}

nlohmann::ordered_json entries_json(const std::vector<std::pair<std::string, ParamValue>>& entries) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& [k, v] : entries) std::visit([&, key = k](const auto& x) { j[key] = x; }, v);
  return j;
}

std::string number_text(double v, bool float32) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return float32 ? fmt::format("{}", static_cast<float>(v)) : fmt::format("{}", v);
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace posenc::cli
